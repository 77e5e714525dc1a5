import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { amuxHome, BIN, sleep } from '../helpers/amux.js';

describe('hardening', () => {
  const h = amuxHome({ after });

  test('wait --timeout longer than 2^31-1 ms waits for the session, not for nothing', async () => {
    const id = await h.ok(['run', '--', 'sleep 1; exit 3']);
    const r = await h.run(['wait', '--timeout', '25d', id]);
    assert.equal(r.code, 3, `wait must end with the command's code, not 124 at once: ${r.stderr}`);
    const id2 = await h.ok(['run', '--', 'sleep 1; exit 4']);
    const api = await h.api('POST', '/v1/wait', { ids: [id2], timeoutMs: 2 ** 31 + 5 });
    assert.equal(api.status, 200);
    assert.equal(api.body.timedOut, false);
    assert.equal(api.body.results[0].exitCode, 4);
  });

  test('exec whose session dies says why on stderr, in one amux: line', async () => {
    const shell = await h.ok(['run']);
    await h.until(shell, (s) => s.status === 'idle');
    const running = h.run(['exec', shell, '--', 'sleep 50']);
    await h.until(shell, () => h.tmuxSessions().includes(`amux-${shell}`));
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !(await h.json(['jobs', shell])).some((j: any) => j.status === 'running')) await sleep(100);
    h.tmux(['kill-session', '-t', `amux-${shell}`]);
    const r = await running;
    assert.equal(r.code, 1);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, /^amux: job job-[0-9a-f]{8}-\d+ failed: the session ended/);
  });

  test('kill reaches a loop of the shell itself with TERM and honours the grace: stopped by SIGTERM, wait 143', async () => {
    const id = await h.ok(['run', '--', 'while :; do sleep 0.1; done']);
    await h.until(id, (s) => s.status === 'working');
    assert.equal((await h.run(['kill', '--grace', '5s', id])).code, 0);
    const s = await h.session(id);
    assert.equal(s.status, 'stopped');
    assert.equal(s.signal, 'SIGTERM', 'TERM ended it; no SIGKILL was needed');
    assert.equal(s.exitCode, 143);
    assert.equal((await h.run(['wait', id])).code, 143);
  });

  test('--timeout ends a shell loop with TERM too: expired, wait 143', async () => {
    const id = await h.ok(['run', '--timeout', '1s', '--', 'while :; do date >/dev/null; sleep 0.05; done']);
    const r = await h.run(['wait', id]);
    assert.equal(r.code, 143, r.stderr);
    const s = await h.session(id);
    assert.equal(s.status, 'expired');
    assert.equal(s.signal, 'SIGTERM');
  });

  test('an end seen by a restarted daemon keeps its real time (sessions and jobs)', async (t) => {
    const d = amuxHome(t);
    // Both end about 1 s in, while no daemon runs; the next daemon starts 3 s after they are gone
    // (however long a busy machine took them), so an end dated by it would be 3 s late at least.
    const sleeping = (arg: string) => readdirSync('/proc').some((p) => {
      try {
        return /^\d+$/.test(p) && readFileSync(`/proc/${p}/cmdline`, 'utf8') === `sleep\0${arg}\0`;
      } catch {
        return false;
      }
    });
    const id = await d.ok(['run', '--', 'sleep 1.01; exit 7']);
    const shell = await d.ok(['run']);
    await d.until(shell, (s) => s.status === 'idle');
    const [job] = (await d.ok(['exec', '-b', shell, '--', 'sleep 1.02; exit 5'])).split(' ');
    process.kill(d.daemonPid()!, 'SIGKILL');
    for (const deadline = Date.now() + 30_000; sleeping('1.01') || sleeping('1.02'); await sleep(100)) assert.ok(Date.now() < deadline, 'the sleeps end');
    await sleep(3000);
    const restartAt = Date.now();
    assert.equal((await d.run(['wait', id])).code, 7);
    assert.equal((await d.run(['wait', job!])).code, 5);
    const s = await d.session(id);
    const late = (x: any) => Date.parse(x.startedAt) + x.durationMs > restartAt - 2500;
    assert.ok(s.durationMs >= 900 && !late(s), `the session ran about 1 s, not until the restart: ${s.durationMs} ms`);
    const j = (await d.json(['jobs', shell])).find((x: any) => x.id === job);
    assert.ok(j.durationMs >= 900 && !late(j), `the job ran about 1 s, not until the restart: ${j.durationMs} ms`);
  });

  test('a hung daemon: a short request ends with exit 3 and a line naming its pid', async (t) => {
    const d = amuxHome(t);
    await d.ok(['daemon', 'start']);
    const pid = d.daemonPid()!;
    process.kill(pid, 'SIGSTOP');
    try {
      const r = await d.run(['ps'], { env: { AMUX_CLIENT_TIMEOUT: '1s' }, timeoutMs: 20_000 });
      assert.equal(r.code, 3, r.stderr);
      assert.match(r.stderr, new RegExp(`^amux: the amux daemon \\(pid ${pid}\\) is not answering .*\n$`));
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    assert.equal((await d.run(['ps'])).code, 0, 'it answers again once continued');
  });

  test('a daemon that cannot start (amux.db is no database): exit 3 with the reason', async (t) => {
    const d = amuxHome(t);
    writeFileSync(join(d.home, 'amux.db'), 'hello, this is not SQLite\n'.repeat(100), { mode: 0o600 });
    const r = await d.run(['ps']);
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /^amux: the amux daemon cannot start: .+\n$/);
  });

  test('logs --raw --json pages of binary output put together are byte-exact', async () => {
    const bytes = randomBytes(3000);
    const file = join(h.home, 'random.bin');
    writeFileSync(file, bytes);
    const id = await h.ok(['run', '--', 'cat', file]);
    await h.run(['wait', id]);
    const raw = (await h.run(['logs', '--raw', id])).raw;
    let offset = 0;
    const parts: Buffer[] = [];
    for (let i = 0; i < 100; i++) {
      const page = JSON.parse(await h.ok(['logs', '--raw', '--json', '--limit', '700', '--since-offset', String(offset), id]));
      assert.ok(page.encoding === 'utf8' || page.encoding === 'base64', page.encoding);
      parts.push(Buffer.from(page.data, page.encoding));
      if (page.nextOffset === offset) break;
      offset = page.nextOffset;
    }
    assert.ok(Buffer.concat(parts).equals(raw), 'the pages are the exact bytes of logs --raw');
    assert.ok(raw.length >= 3000, 'the terminal stream holds the random bytes');
  });

  test('Ctrl-C in run -w works before the command has printed anything: once forwarded, twice leaves', async (t) => {
    const d = amuxHome(t);
    await d.ok(['daemon', 'start']);
    const env: NodeJS.ProcessEnv = { ...process.env, AMUX_HOME: d.home, NO_COLOR: '1' };
    delete env.NODE_EXTRA_CA_CERTS;
    const start = (cmd: string) => {
      const child = spawn(process.execPath, [BIN, 'run', '-w', '--', cmd], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr.on('data', (b) => (err += b));
      const done = new Promise<{ code: number | null; err: string }>((resolve) => child.on('close', (code) => resolve({ code, err })));
      return { child, done };
    };
    const working = async () => {
      for (let i = 0; i < 100; i++) {
        const ps = await d.json<any[]>(['ps']);
        if (ps.length && ps.every((s) => s.status !== 'pending') && ps.some((s) => s.status === 'working')) return ps;
        await sleep(100);
      }
      throw new Error('no session started');
    };
    const quiet = start('sleep 30');
    await working();
    await sleep(300);
    quiet.child.kill('SIGINT');
    assert.equal((await quiet.done).code, 130, 'the first Ctrl-C reached sleep');

    const stubborn = start(`trap '' INT; sleep 30`);
    await sleep(300);
    const ps = await working();
    await sleep(300);
    stubborn.child.kill('SIGINT');
    await sleep(300);
    stubborn.child.kill('SIGINT');
    const r = await stubborn.done;
    assert.equal(r.code, 130, 'the second Ctrl-C leaves');
    assert.match(r.err, /left session [0-9a-f]{8} running/);
    assert.ok(ps.some((s) => s.status === 'working'));
  });

  test('the API checks every body and query against its route: 400 naming the field, 405, 413', async () => {
    const cases: [string, string, unknown, number, RegExp][] = [
      ['POST', '/v1/sessions', { name: ['x'], cwd: '/tmp' }, 400, /'name'/],
      ['POST', '/v1/sessions', { autoRemove: 'yes', cwd: '/tmp' }, 400, /'autoRemove'/],
      ['POST', '/v1/sessions', { cwd: '/tmp', bogus: 1 }, 400, /unknown field 'bogus'/],
      ['POST', '/v1/sessions', { cwd: '/tmp', command: 'x'.repeat(1024 * 1024 + 1) }, 400, /longer than/],
      ['POST', '/v1/sessions', { cwd: '/tmp', name: 'job-1' }, 400, /reads as a session or job id/],
      ['POST', '/v1/sessions', { cwd: '/tmp', timeoutMs: '5m5m' }, 400, /5m5m/],
      ['POST', '/v1/wait', { ids: 'abc' }, 400, /'ids'/],
      ['GET', '/v1/sessions?status=working&bogus=1', undefined, 400, /unknown query parameter 'bogus'/],
      ['GET', '/v1/sessions?all=maybe', undefined, 400, /'all'/],
      ['DELETE', '/v1/health', undefined, 405, /not allowed/],
      ['POST', '/v1/sessions', 'x'.repeat(9 * 1024 * 1024), 413, /larger than/],
    ];
    await h.ok(['daemon', 'start']);
    const shell = await h.ok(['run']);
    cases.push(['POST', `/v1/sessions/${shell}/input`, { text: 'a', keys: ['b'] }, 400, /either text or keys/]);
    cases.push(['POST', `/v1/sessions/${shell}/input`, { text: 'x'.repeat(1024 * 1024 + 1) }, 400, /'text'/]);
    for (const [method, path, body, status, message] of cases) {
      const r = await h.api(method, path, body);
      assert.equal(r.status, status, `${method} ${path}: ${JSON.stringify(r.body).slice(0, 200)}`);
      assert.match(r.body.error.message, message);
      assert.equal(r.body.error.message.split('\n').length, 1);
    }
    assert.equal((await h.api('GET', '/v1/sessions?status=working')).status, 200, 'a good query still passes');
  });

  test('the CLI refuses what could never work: -C \'\', a duration with a unit twice, a name that reads as an id', async () => {
    for (const args of [['run', '-C', '', '--', 'true'], ['run', '--timeout', '5m5m', '--', 'true'], ['run', '-n', 'deadbeef', '--', 'true']]) {
      const r = await h.run(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
  });

  test('a session keeps the caller\'s environment file no longer than its shell needs it', async () => {
    const id = await h.ok(['run', '-e', 'SECRET_TOKEN=abc123', '--', 'echo "$SECRET_TOKEN"; sleep 30']);
    await h.until(id, (s) => s.status === 'working');
    assert.match((await h.run(['logs', id])).stdout, /abc123/, 'the shell has the environment');
    // Emptied once read (ADR 0066: by a redirection of the shell itself, no `rm` forked).
    const env = join(h.home, 'sessions', id, 'env.bash');
    assert.equal(existsSync(env) ? readFileSync(env, 'utf8') : '', '', 'nothing of the environment is left on disk');
    await h.ok(['kill', id]);
  });

  test('an argv command is shown quoted, so that it means the same argv', async () => {
    const id = await h.ok(['run', '--', 'printf', '', 'a b']);
    assert.equal((await h.session(id)).command, "printf '' 'a b'");
  });

  test('a home someone else controls is refused with one line and exit 2, and nothing is written through a link', async (t) => {
    const victim = join(h.home, 'victim.txt');
    writeFileSync(victim, 'root-owned\n', { mode: 0o600 });
    const cases: [string, (home: string) => void, RegExp][] = [
      ['writable by others', (home) => chmodSync(home, 0o777), /is writable by others \(mode 777\)/],
      ['a linked daemon.log', (home) => symlinkSync(victim, join(home, 'daemon.log')), /daemon\.log is a symbolic link/],
      ['a linked sessions/', (home) => symlinkSync('/tmp', join(home, 'sessions')), /sessions is a symbolic link/],
      ['sessions/ writable by others', (home) => {
        mkdirSync(join(home, 'sessions'));
        chmodSync(join(home, 'sessions'), 0o777);
      }, /sessions is writable by others/],
    ];
    if (process.getuid?.() === 0) cases.push(['owned by another user', (home) => chownSync(home, 65534, 65534), /belongs to uid 65534/]);
    for (const [what, plant, message] of cases) {
      const d = amuxHome(t);
      plant(d.home);
      const r = await d.run(['run', '--', 'echo hi']);
      assert.equal(r.code, 2, `${what}: ${r.stderr}`);
      assert.match(r.stderr, message, what);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.equal(existsSync(join(d.home, 'amux.sock')), false, `${what}: no daemon started`);
    }
    assert.equal(readFileSync(victim, 'utf8'), 'root-owned\n', 'nothing was appended through the link');
    const rel = await h.run(['ps'], { env: { AMUX_HOME: 'relative/home' } });
    assert.equal(rel.code, 2);
    assert.match(rel.stderr, /AMUX_HOME must be an absolute path/);
  });

  test('a session whose shell is killed by SIGKILL is recorded with the signal', async () => {
    const id = await h.ok(['run', '--', 'sleep 300']);
    const s = await h.until(id, (x) => x.status === 'working' && x.pid);
    process.kill(s.pid, 'SIGKILL');
    assert.equal((await h.run(['wait', id])).code, 137);
    const done = await h.session(id);
    assert.equal(done.status, 'failed');
    assert.equal(done.signal, 'SIGKILL');
    assert.match(done.error, /SIGKILL/);
  });

  test('sessions a deleted database forgot are adopted, not left running unseen', async (t) => {
    const d = amuxHome(t);
    const id = await d.ok(['run', '-C', '/tmp', '--', 'sleep 300']);
    await d.until(id, (s) => s.status === 'working');
    await d.ok(['daemon', 'stop']);
    for (const f of ['amux.db', 'amux.db-wal', 'amux.db-shm']) rmSync(join(d.home, f), { force: true });
    const ps = await d.json<any[]>(['ps']);
    assert.deepEqual(ps.map((s) => s.id), [id]);
    assert.ok(['working', 'idle'].includes(ps[0].status), ps[0].status);
    assert.equal(ps[0].cwd, '/tmp');
    const events = (await d.ok(['events', id])).trim().split('\n').map((l) => JSON.parse(l));
    assert.ok(events.some((e) => e.type === 'error' && /adopted/.test(e.data.message)), JSON.stringify(events));
    await d.ok(['kill', id]);
    assert.equal((await d.session(id)).status, 'stopped');
    assert.equal(d.tmuxSessions().length, 0, 'nothing is left running');
  });
});
