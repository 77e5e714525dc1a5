import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { request } from 'node:http';
import { after, describe, test } from 'node:test';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { amuxHome, BIN, sleep } from '../helpers/amux.js';
import { installed } from '../helpers/programs.js';
import { freePort } from '../helpers/net.js';



describe('amux exec: jobs in a shell session', () => {
  const h = amuxHome({ after });
  let sh = '';

  test('run without a command starts a shell session, idle at its prompt', async () => {
    sh = await h.ok(['run', '-n', 'shell']);
    const s = await h.until(sh, (x) => x.status === 'idle');
    assert.equal(s.command, null);
  });

  test('foreground jobs share the shell: cd, export, functions and aliases persist', async () => {
    const dir = execFileSync('mktemp', ['-d'], { encoding: 'utf8' }).trim();
    after(() => execFileSync('rm', ['-rf', dir]));
    assert.equal(await h.ok(['exec', sh, '--', `cd ${dir} && export AMUX_T=exported && greet() { echo "hi $1"; } && alias ll='echo aliased'`]), '');
    const r = await h.run(['exec', sh, '--', 'pwd; echo $AMUX_T; greet you; ll']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${dir}\nexported\nhi you\naliased\n`);
  });

  test('a background job runs in a subshell: it changes nothing in the shell', async () => {
    const r = await h.run(['exec', '-b', sh, '--', 'cd / && export AMUX_T=changed && unset -f greet']);
    assert.equal(r.code, 0, r.stderr);
    const [jobId, pid] = r.stdout.trim().split(' ');
    assert.match(jobId!, new RegExp(`^job-${sh}-\\d+$`));
    assert.match(pid!, /^\d+$/);
    assert.equal((await h.run(['wait', jobId!])).code, 0);
    const after2 = await h.run(['exec', sh, '--', 'echo $AMUX_T; greet again']);
    assert.equal(after2.stdout, 'exported\nhi again\n');
  });

  test('stdout and stderr are separated byte-exact, with no trailing newline added', async () => {
    const r = await h.run(['exec', sh, '--', "printf 'out\\nno-newline'; printf 'err-only' >&2"]);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, 'out\nno-newline');
    assert.equal(r.stderr, 'err-only');
    // (exit 3) in a subshell: a bare `exit` would end the session's shell, as it does in bash.
    const j = JSON.parse((await h.run(['exec', '--json', sh, '--', "printf 'a'; printf 'bb' >&2; (exit 3)"])).stdout);
    assert.equal(j.stdout, 'a');
    assert.equal(j.stderr, 'bb');
    assert.equal(j.exitCode, 3);
    assert.equal(j.stdoutBytes, 1);
    assert.equal(j.stderrBytes, 2);
    assert.equal(j.stdoutTruncated, false);
    assert.equal(typeof j.durationMs, 'number');
  });

  test('binary output is kept byte for byte, on both streams', async () => {
    const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    // printf with octal escapes of every byte value 0..255, to stdout and (reversed) to stderr.
    const esc = (b: Buffer) => [...b].map((x) => `\\${x.toString(8).padStart(3, '0')}`).join('');
    const rev = Buffer.from(all).reverse();
    const r = await h.run(['exec', sh, '--', `printf '${esc(all)}'; printf '${esc(rev)}' >&2`]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.raw, all);
    const jobs = JSON.parse(await h.ok(['jobs', sh, '--json', '-n', '1']));
    const out = await h.run(['logs', jobs[0].id, '--stdout', '--raw']);
    assert.deepEqual(out.raw, all);
    const err = await h.run(['logs', jobs[0].id, '--stderr', '--raw', '--json']);
    assert.equal(JSON.parse(err.stdout).total, 256);
  });

  test('exit codes are the job\'s own', async () => {
    assert.equal((await h.run(['exec', sh, '--', 'exit_with() { return $1; }; exit_with 42'])).code, 42);
    assert.equal((await h.run(['exec', sh, '--', 'false'])).code, 1);
    assert.equal((await h.run(['exec', sh, '--', 'no-such-command-amux'])).code, 127);
    assert.equal((await h.run(['exec', sh, '--', 'true'])).code, 0);
  });

  test('hostile command text is executed literally', async () => {
    const words = ['$(touch /tmp/amux-pwned)', '`id`', "it's", 'a"b', 'new\nline', '; rm -rf / #', '\\', '%s%n', 'ünï ☃'];
    const r = await h.run(['exec', sh, '--', 'printf', '[%s]\\n', ...words]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, words.map((w) => `[${w}]\n`).join(''));
    const line = await h.run(['exec', sh, '--', `echo '$HOME' "quote'd" \`echo sub\``]);
    assert.equal(line.stdout, "$HOME quote'd sub\n");
    // A shell line that starts with - is a command (not found), never an option of amux's own eval.
    const dash = await h.run(['exec', sh, '--', '-n foo']);
    assert.equal(dash.code, 127);
    assert.match(dash.stderr, /-n: command not found/);
  });

  test('3 MiB of output: truncated flags, exact byte counts, the newest 1 MiB retained', async () => {
    const expected = Buffer.from(Array.from({ length: 400_000 }, (_, i) => `${i + 1}\n`).join(''));
    const j = JSON.parse(await h.ok(['exec', '--json', sh, '--', 'seq 1 400000; seq 1 400000 >&2']));
    assert.equal(j.exitCode, 0);
    assert.equal(j.stdoutBytes, expected.length);
    assert.equal(j.stderrBytes, expected.length);
    assert.equal(j.stdoutTruncated, true);
    assert.equal(j.stderrTruncated, true);
    const tail = expected.subarray(expected.length - 1024 * 1024).toString();
    assert.equal(j.stdout.length, 1024 * 1024);
    assert.equal(j.stdout, tail);
    assert.equal(j.stderr, tail);
    const kept = await h.run(['logs', j.jobId, '--stdout', '--raw']);
    assert.equal(kept.stdout, tail, 'logs serves the same newest 1 MiB');
    const page = JSON.parse(await h.ok(['logs', j.jobId, '--stderr', '--raw', '--json', '--since-offset', String(expected.length - 10)]));
    assert.equal(page.offset, expected.length - 10);
    assert.equal(page.data, expected.subarray(expected.length - 10).toString());
    assert.equal(page.truncated, true);
  });

  test('a slow reader of a foreground job still gets every byte (the ring waits for it), then the cap holds', async () => {
    const expected = execFileSync('seq', ['1', '1500000'], { maxBuffer: 64 * 1024 * 1024 });
    // The reader sleeps while the job writes 10 MB, far more than the 1 MiB ring.
    const got = execFileSync('bash', ['-c', `"${process.execPath}" "${BIN}" exec ${sh} -- 'seq 1 1500000' | (sleep 2; cat)`], {
      env: { ...process.env, AMUX_HOME: h.home, NODE_EXTRA_CA_CERTS: '' }, maxBuffer: 64 * 1024 * 1024,
    });
    assert.equal(got.length, expected.length);
    assert.ok(got.equals(expected), 'byte-exact');
    const [job] = JSON.parse(await h.ok(['jobs', sh, '--json', '-n', '1']));
    assert.equal(job.stdoutBytes, expected.length);
    const dir = join(h.home, 'sessions', sh, 'jobs', String(job.seq));
    const chunks = readdirSync(dir).filter((f) => f.startsWith('out.'));
    assert.ok(chunks.length <= 5, `pruned back to the cap once the reader let go: ${chunks.join(' ')}`);
    assert.equal(existsSync(join(dir, 'hold')), false);
  });

  test('job ids are job-<session>-<seq>, in order, listed newest first', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(JSON.parse(await h.ok(['exec', '--json', sh, '--', 'true'])).jobId);
    const seqs = ids.map((id) => Number(id.split('-')[2]));
    assert.deepEqual(seqs, [seqs[0], seqs[0]! + 1, seqs[0]! + 2]);
    const list = JSON.parse(await h.ok(['jobs', sh, '--json', '-n', '3']));
    assert.deepEqual(list.map((j: { id: string }) => j.id), [...ids].reverse());
    for (const j of list) {
      for (const key of ['id', 'sessionId', 'seq', 'command', 'background', 'status', 'exitCode', 'pid', 'startedAt', 'endedAt', 'durationMs', 'stdoutBytes', 'stderrBytes', 'stdoutTruncated', 'stderrTruncated']) {
        assert.ok(key in j, `job has ${key}`);
      }
    }
    const text = await h.ok(['jobs', sh]);
    assert.match(text.split('\n')[0]!, /^JOB\s+STATUS\s+EXIT/);
    const failed = JSON.parse(await h.ok(['jobs', sh, '--json', '--status', 'failed']));
    assert.ok(failed.length > 0 && failed.every((j: { status: string }) => j.status === 'failed'));
  });

  test('--timeout kills the job: status killed, exit 124, the shell lives on', async () => {
    const r = await h.run(['exec', '--timeout', '1s', sh, '--', 'sleep 30']);
    assert.equal(r.code, 124);
    const [job] = JSON.parse(await h.ok(['jobs', sh, '--json', '-n', '1']));
    assert.equal(job.status, 'killed');
    assert.equal(job.exitCode, 124);
    assert.equal((await h.run(['exec', sh, '--', 'echo alive'])).stdout, 'alive\n');
  });

  test('a foreground job killed by its timeout records the signal it was sent (TERM), not the shell\'s SIGINT', async () => {
    // A limit that leaves bash time to set its trap on a busy machine.
    const r = await h.run(['exec', '--timeout', '5s', sh, '--', `bash -c 'trap "echo got-TERM; exit 1" TERM; sleep 30 & wait'`]);
    assert.equal(r.code, 124);
    assert.match(r.stdout, /got-TERM/);
    const [job] = JSON.parse(await h.ok(['jobs', sh, '--json', '-n', '1']));
    assert.deepEqual([job.status, job.exitCode, job.signal], ['killed', 124, 'SIGTERM']);
  });

  test('an exec queued behind a busy turn whose client goes away is recorded killed, with its event', async () => {
    // The blocker holds the turn until told (a file), not for a time a busy machine could outlast.
    const release = join(h.home, 'release');
    const holding = `while [ ! -e ${release} ]; do sleep 0.1; done`;
    const blocker = h.run(['exec', sh, '--', holding]);
    // The blocker's turn has begun (its row is running) before the second exec comes.
    for (let i = 0; i < 100; i++) {
      if ((JSON.parse(await h.ok(['jobs', sh, '--json'])) as any[]).some((j) => j.command === holding && j.status === 'running')) break;
      await sleep(100);
    }
    await new Promise<void>((resolve) => {
      const req = request({ socketPath: join(h.home, 'amux.sock'), method: 'POST', path: `/v1/sessions/${sh}/jobs?stream=1`, headers: { 'content-type': 'application/json' } });
      req.on('error', () => resolve());
      req.end(JSON.stringify({ command: 'echo never-ran' }));
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 300);
    });
    writeFileSync(release, '');
    assert.equal((await blocker).code, 0);
    let cancelled: any;
    for (let i = 0; i < 50 && !cancelled; i++) {
      cancelled = JSON.parse(await h.ok(['jobs', sh, '--json'])).find((j: any) => j.command === 'echo never-ran');
      if (!cancelled) await sleep(100);
    }
    assert.ok(cancelled, 'the job that never ran has a row');
    assert.equal(cancelled.status, 'killed');
    assert.match(cancelled.error, /cancelled before it started/);
    const events = (await h.ok(['events', sh])).split('\n').filter(Boolean).map((l) => JSON.parse(l));
    assert.ok(events.some((e) => e.jobId === cancelled.id && e.type === 'job_finished'), 'and its event');
  });

  test('SIGTERM to a foreground exec client is passed on to its job, and the client exits with the job\'s end', async () => {
    const child = spawn(process.execPath, [BIN, 'exec', sh, '--', `bash -c 'trap "echo got-TERM; exit 3" TERM; echo armed; sleep 30 & wait'`], {
      env: { ...process.env, AMUX_HOME: h.home, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    let running = false;
    for (let i = 0; i < 100 && !running; i++) {
      running = JSON.parse(await h.ok(['jobs', sh, '--json', '--status', 'running'])).length > 0;
      if (!running) await sleep(100);
    }
    assert.ok(running, 'the job runs');
    // Its trap is set (however long a busy machine takes to start bash).
    for (const deadline = Date.now() + 30_000; !out.includes('armed'); await sleep(100)) assert.ok(Date.now() < deadline, 'bash set its trap');
    child.kill('SIGTERM');
    assert.equal(await exited, 143);
    assert.match(out, /got-TERM/);
    const [job] = JSON.parse(await h.ok(['jobs', sh, '--json', '-n', '1']));
    assert.deepEqual([job.status, job.signal], ['killed', 'SIGTERM']);
  });

  test('killing a background job and a foreground job leaves the shell alive', async () => {
    const [bg] = (await h.ok(['exec', '-b', sh, '--', 'sleep 300'])).split(' ');
    assert.equal((await h.run(['kill', bg!])).code, 0);
    const bgJob = JSON.parse(await h.ok(['jobs', sh, '--json', '-n', '1']))[0];
    assert.equal(bgJob.id, bg);
    assert.equal(bgJob.status, 'killed');
    assert.equal((await h.run(['wait', bg!])).code, 143);

    const fg = h.run(['exec', sh, '--', 'sleep 300; echo not-reached']);
    let fgId = '';
    for (let i = 0; i < 100 && !fgId; i++) {
      const running = JSON.parse(await h.ok(['jobs', sh, '--json', '--status', 'running']));
      fgId = running[0]?.id ?? '';
      if (!fgId) await sleep(100);
    }
    assert.ok(fgId, 'the foreground job shows as running');
    await sleep(300);
    assert.equal((await h.run(['kill', fgId])).code, 0);
    const r = await fg;
    assert.equal(r.code, 143);
    assert.equal(r.stdout, '', 'the rest of the command list was not run');
    const s = await h.session(sh);
    assert.ok(['working', 'idle'].includes(s.status), `session still live: ${s.status}`);
    assert.equal((await h.run(['exec', sh, '--', 'echo $AMUX_T'])).stdout, 'exported\n', 'same shell, same state');
  });

  test('a background HTTP server answers a foreground request in the same session', async () => {
    const port = await freePort();
    const server = `node -e "require('http').createServer((q, r) => r.end('pong ' + q.url)).listen(${port}, '127.0.0.1')"`;
    const [bg] = (await h.ok(['exec', '-b', sh, '--', server])).split(' ');
    // In a subshell: a bare `exit` would end the session's shell.
    const client = installed('curl')
      ? `(for i in $(seq 50); do curl -s http://127.0.0.1:${port}/ping && exit 0; sleep 0.1; done; exit 1)`
      : `(for i in $(seq 50); do node -e "require('http').get('http://127.0.0.1:${port}/ping', r => r.pipe(process.stdout)).on('error', () => process.exit(1))" && exit 0; sleep 0.1; done; exit 1)`;
    const r = await h.run(['exec', sh, '--', client]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'pong /ping');
    await h.ok(['kill', bg!]);
  });

  test('5 concurrent foreground execs run one at a time, each with its own output', async () => {
    const runs = await Promise.all([1, 2, 3, 4, 5].map((n) => h.run(['exec', '--json', sh, '--', `echo start-${n}; sleep 0.3; echo end-${n}`])));
    const results = runs.map((r) => {
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout);
    });
    results.forEach((j, i) => {
      assert.equal(j.exitCode, 0);
      assert.equal(j.stdout, `start-${i + 1}\nend-${i + 1}\n`);
    });
    const jobs = JSON.parse(await h.ok(['jobs', sh, '--json', '-n', '5'])).reverse();
    for (let i = 1; i < jobs.length; i++) {
      assert.ok(Date.parse(jobs[i].startedAt) >= Date.parse(jobs[i - 1].endedAt), `job ${jobs[i].id} started after ${jobs[i - 1].id} ended`);
    }
  });

  test('"session busy" while a command typed into the shell runs', async () => {
    // The typed command runs until told (a file), however late the exec arrives on a busy machine.
    const go = join(h.home, 'go-busy');
    await h.ok(['send', sh, `while [ ! -e ${go} ]; do sleep 0.1; done`]);
    let r = await h.run(['exec', sh, '--', 'true']);
    for (let i = 0; i < 20 && r.code === 0; i++) {
      await sleep(100);
      r = await h.run(['exec', sh, '--', 'true']);
    }
    assert.equal(r.code, 1);
    assert.match(r.stderr, /busy/);
    assert.equal(r.stderr.trim().split('\n').length, 1);
    writeFileSync(go, '');
    await h.until(sh, (s) => s.status === 'idle');
    assert.equal((await h.run(['exec', sh, '--', 'echo free'])).stdout, 'free\n');
  });

  test('--tty runs on the terminal; its output is in the session log', async () => {
    const r = await h.run(['exec', '--tty', sh, '--', 'test -t 1 && echo on-a-tty; (exit 5)']);
    assert.equal(r.code, 5);
    assert.equal(r.stdout, 'on-a-tty\n');
    const [job] = JSON.parse(await h.ok(['jobs', sh, '--json', '-n', '1']));
    assert.equal(job.tty, true);
    assert.equal((await h.run(['logs', job.id])).stdout.trim(), 'on-a-tty');
    assert.equal((await h.run(['logs', job.id, '--stdout'])).code, 2);
  });

  test('the API: POST /v1/sessions/{ref}/jobs answers 201 with the started job; GET /v1/jobs/{id} has it', async () => {
    const call = (method: string, path: string, body?: unknown) => new Promise<{ status: number; json: any }>((resolve, reject) => {
      const req = request({ socketPath: join(h.home, 'amux.sock'), method, path, headers: { 'content-type': 'application/json' } }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => resolve({ status: res.statusCode!, json: JSON.parse(Buffer.concat(parts).toString() || 'null') }));
      });
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
    const made = await call('POST', `/v1/sessions/${sh}/jobs`, { argv: ['printf', '%s', 'api'], background: true });
    assert.equal(made.status, 201);
    assert.equal(made.json.background, true);
    assert.equal(typeof made.json.pid, 'number');
    await h.ok(['wait', made.json.id]);
    const got = await call('GET', `/v1/jobs/${made.json.id}`);
    assert.equal(got.status, 200);
    assert.equal(got.json.status, 'completed');
    assert.equal(got.json.stdoutBytes, 3);
    const out = await h.run(['logs', made.json.id, '--stdout']);
    assert.equal(out.stdout, 'api');
  });

  test('exec ID --help shows the help of exec', async () => {
    const r = await h.run(['exec', sh, '--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /Usage: amux exec/);
  });

  test('bad requests: clear one-line errors with the right exit codes', async () => {
    const cases: Array<[string[], number, RegExp]> = [
      [['exec', sh], 2, /needs a command/],
      [['exec', sh, '--bogus', '--', 'true'], 2, /unknown option/],
      [['exec', sh, '--timeout', 'soon', '--', 'true'], 2, /duration/],
      [['exec', '-b', '--tty', sh, '--', 'true'], 2, /--tty/],
      [['exec', 'nosuchsession', '--', 'true'], 1, /no such session/],
      [['logs', `job-${sh}-99999`], 1, /no such job/],
      [['wait', `job-${sh}-99999`], 1, /no such job/],
      [['kill', `job-${sh}-99999`], 1, /no such job/],
    ];
    for (const [args, code, msg] of cases) {
      const r = await h.run(args);
      assert.equal(r.code, code, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, msg);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
  });

  test('exit in a foreground job ends the shell, as in bash: the job reports its code, the session fails', async () => {
    const one = await h.ok(['run']);
    await h.until(one, (x) => x.status === 'idle');
    const r = await h.run(['exec', one, '--', 'echo bye; exit 9']);
    assert.equal(r.code, 9);
    assert.equal(r.stdout, 'bye\n');
    const s = await h.until(one, (x) => x.status === 'failed');
    assert.match(s.error, /shell/);
  });

  test('a bare wait inside a job returns (the capture pipelines are not children of the shell)', async () => {
    const r = await h.run(['exec', sh, '--', 'echo before; wait; echo after']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'before\nafter\n');
  });

  test('a background job reports its own status after exit N, set -e, or exec', async () => {
    const code = async (cmd: string) => {
      const [id] = (await h.ok(['exec', '-b', sh, '--', cmd])).split(' ');
      return (await h.run(['wait', id!])).code;
    };
    assert.equal(await code('echo x; exit 5'), 5);
    assert.equal(await code('set -e; false; echo not-reached'), 1);
    assert.equal(await code('exec sh -c "exit 6"'), 6);
    assert.equal(await code('echo $#'), 0, 'amux passes no arguments of its own to the command');
  });

  test('killing a foreground job whose background child holds its output ends it, and the shell takes the next job', async () => {
    const fg = h.run(['exec', sh, '--', 'sleep 300 & echo started']);
    let fgId = '';
    for (let i = 0; i < 100 && !fgId; i++) {
      const running = JSON.parse(await h.ok(['jobs', sh, '--json', '--status', 'running']));
      fgId = running.find((j: { background: boolean }) => !j.background)?.id ?? '';
      if (!fgId) await sleep(100);
    }
    assert.ok(fgId);
    await sleep(300);
    assert.equal((await h.run(['kill', '--grace', '2s', fgId])).code, 0);
    const r = await fg;
    assert.equal(r.stdout, 'started\n');
    assert.notEqual(r.code, 0);
    const next = await h.run(['exec', sh, '--', 'echo next']);
    assert.equal(next.stdout, 'next\n', `exit ${next.code}: ${next.stderr}`);
  });

  test('background jobs end with their session', async () => {
    const one = await h.ok(['run']);
    await h.until(one, (x) => x.status === 'idle');
    const [bg, pid] = (await h.ok(['exec', '-b', one, '--', 'sleep 300'])).split(' ');
    await h.run(['exec', one, '--', 'exit 3']);
    await h.until(one, (x) => x.status === 'failed');
    const job = JSON.parse(await h.ok(['jobs', one, '--json'])).find((j: { id: string }) => j.id === bg);
    assert.equal(job.status, 'killed');
    let alive = true;
    for (const deadline = Date.now() + 30_000; Date.now() < deadline && alive; ) {
      try {
        process.kill(-Number(pid), 0);
        await sleep(100);
      } catch {
        alive = false;
      }
    }
    assert.equal(alive, false, 'its process group is gone');
  });

  test('after a daemon restart, a running foreground job still holds the shell: the next exec waits its turn', async () => {
    const one = await h.ok(['run']);
    await h.until(one, (x) => x.status === 'idle');
    const fg = h.run(['exec', one, '--', 'read -r line; echo "got [$line]"']);
    for (let i = 0; i < 100; i++) {
      if (JSON.parse(await h.ok(['jobs', one, '--json', '--status', 'running'])).length) break;
      await sleep(100);
    }
    process.kill(h.daemonPid()!, 'SIGKILL');
    await fg; // its stream ended with the daemon
    const next = h.run(['exec', one, '--', 'echo typed']);
    await sleep(500);
    await h.ok(['send', one, 'hello']);
    const r = await next;
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'typed\n');
    const [, first] = JSON.parse(await h.ok(['jobs', one, '--json', '-n', '2']));
    assert.equal(first.status, 'completed');
    assert.equal((await h.run(['logs', first.id, '--stdout'])).stdout, 'got [hello]\n', 'nothing was typed into the waiting job');
  });

  test('exec into a finished session is refused; into a running main command: busy', async () => {
    const done = await h.ok(['run', '--', 'true']);
    await h.run(['wait', done]);
    const r = await h.run(['exec', done, '--', 'true']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /finished/);
    const busy = await h.ok(['run', '--', 'sleep 300']);
    const b = await h.run(['exec', busy, '--', 'true']);
    assert.equal(b.code, 1);
    assert.match(b.stderr, /busy/);
    await h.ok(['kill', busy]);
  });

  test('job events are recorded: job_started and job_finished', async () => {
    const r = await h.run(['exec', '--json', sh, '--', '(exit 4)']);
    assert.equal(r.code, 4, r.stderr);
    const j = JSON.parse(r.stdout);
    const rec = JSON.parse(await h.ok(['inspect', sh]));
    const mine = rec.events.filter((e: { jobId: string }) => e.jobId === j.jobId).map((e: { type: string }) => e.type);
    assert.deepEqual(mine, ['job_started', 'job_finished']);
    const fin = rec.events.find((e: { jobId: string; type: string }) => e.jobId === j.jobId && e.type === 'job_finished');
    assert.equal(fin.data.exitCode, 4);
    assert.equal(fin.data.status, 'failed');
  });

  test('the prepared capture of the next job (ADR 0026): taken by the next job; ended by the daemon when its shell is SIGKILLed', async () => {
    const one = await h.ok(['run']);
    await h.until(one, (x) => x.status === 'idle');
    const next = join(h.home, 'sessions', one, 'jobs', 'next');
    const readyPids = async () => {
      for (let i = 0; i < 100; i++) {
        const pids = existsSync(join(next, 'ready')) ? readFileSync(join(next, 'ready'), 'utf8').trim().split(' ').map(Number) : [];
        if (pids.length === 2 && pids.every((p) => p > 0)) return pids;
        await sleep(50);
      }
      throw new Error('no capture was prepared after a job');
    };
    assert.equal((await h.run(['exec', one, '--', 'echo first'])).stdout, 'first\n');
    const taken = await readyPids();
    const prepared = statSync(next).ino;
    const r = await h.run(['exec', one, '--', 'echo out; echo err >&2; (exit 3)']);
    assert.deepEqual([r.code, r.stdout, r.stderr], [3, 'out\n', 'err\n']);
    const [job] = JSON.parse(await h.ok(['jobs', one, '--json', '-n', '1']));
    // Renamed to the job's own (its `ready` and FIFOs are pruned at its end, ADR 0031).
    assert.equal(statSync(join(h.home, 'sessions', one, 'jobs', String(job.seq))).ino, prepared, 'the job ran in the prepared directory');
    const alive = (pids: number[]) => pids.filter((p) => existsSync(`/proc/${p}`) && !/\) Z /.test(readFileSync(`/proc/${p}/stat`, 'utf8')));
    assert.deepEqual(alive(taken), [], 'the pipelines of the taken capture ended with their job');
    // A shell killed without its EXIT trap leaves its new prepared capture to the daemon.
    const left = await readyPids();
    const helper = Number(readFileSync(`/proc/${left[0]}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
    const shell = (await h.session(one)).pid;
    process.kill(shell, 'SIGKILL');
    await h.until(one, (x) => !['working', 'idle'].includes(x.status));
    for (const deadline = Date.now() + 30_000; Date.now() < deadline && alive([...left, helper]).length > 0; ) await sleep(50);
    assert.deepEqual(alive([...left, helper]), [], 'the helper and its pipelines ended');
  });
});
