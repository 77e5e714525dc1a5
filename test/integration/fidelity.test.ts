import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { amuxHome, BIN, sleep } from '../helpers/amux.js';

describe('what amux reports is what happened', () => {
  const h = amuxHome({ after });

  test('run -w --json: stdout is one JSON object, the output inside it, the exit code the command\'s', async () => {
    const r = await h.run(['run', '-w', '--json', '--', "printf 'one\\n\\033[1mtwo\\033[0m\\n'; exit 3"]);
    assert.equal(r.code, 3, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.exitCode, 3);
    assert.equal(j.status, 'failed');
    assert.equal(j.output, 'one\ntwo\n');
    assert.equal(r.stderr, '');
  });

  test('a running background job that has printed reports the bytes so far (jobs, inspect, the job)', async () => {
    const sh = await h.ok(['run']);
    await h.until(sh, (s) => s.status === 'idle');
    const [id] = (await h.ok(['exec', '-b', sh, '--', "printf '12345'; printf 'abc' >&2; sleep 30"])).split(' ');
    let job: any;
    for (let i = 0; i < 100; i++) {
      job = JSON.parse(await h.ok(['jobs', sh, '--json', '-n', '1']))[0];
      if (job.stdoutBytes === 5 && job.stderrBytes === 3) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(job.status, 'running');
    assert.equal(job.stdoutBytes, 5);
    assert.equal(job.stderrBytes, 3);
    const inspected = JSON.parse(await h.ok(['inspect', sh, '--json'])).jobs.find((j: any) => j.id === id);
    assert.equal(inspected.stdoutBytes, 5);
    assert.equal((await h.api('GET', `/v1/jobs/${id}`)).body.stderrBytes, 3);
    await h.ok(['kill', id!]);
  });

  test('a removed session gets one answer from every verb that acts on it: session_removed, exit 1, saying when', async () => {
    const id = await h.ok(['run', '--', 'echo gone']);
    await h.run(['wait', id]);
    const sh = await h.ok(['run']);
    await h.until(sh, (s) => s.status === 'idle');
    await h.ok(['exec', sh, '--', 'echo x']);
    await h.ok(['rm', id]);
    await h.ok(['rm', '-f', sh]);
    const verbs = [
      ['logs', id], ['logs', '--raw', id], ['logs', '--screen', id], ['rm', id], ['rm', '-f', id], ['kill', id], ['kill', `job-${sh}-1`],
      ['send', id, 'x'], ['pause', id], ['resume', id], ['exec', sh, '--', 'true'], ['logs', `job-${sh}-1`], ['logs', `job-${id}-1`],
    ];
    for (const args of verbs) {
      const r = await h.run(args);
      assert.equal(r.code, 1, `${args.join(' ')}: exit ${r.code} ${r.stdout} ${r.stderr}`);
      assert.match(r.stderr, /was removed \d+[smhd] ago \(\d{4}-\d\d-\d\dT[\d:]+Z\)/, `${args.join(' ')}: ${r.stderr}`);
    }
    const api = await h.api('DELETE', `/v1/sessions/${id}`);
    assert.equal(api.status, 410);
    assert.equal(api.body.error.code, 'session_removed');
    // What reads history still finds it.
    assert.equal((await h.run(['wait', id])).code, 0);
    assert.equal((await h.run(['inspect', id])).code, 0);
    assert.equal((await h.run(['jobs', sh])).code, 0);
    assert.equal((await h.run(['events', id])).code, 0);
  });

  test('exec -i whose CLI is killed mid-upload: the job gets EOF, and its record and events say its stdin was cut, after how many bytes', async () => {
    const sh = await h.ok(['run']);
    await h.until(sh, (s) => s.status === 'idle');
    const got = join(h.home, 'got');
    const cli = spawn(process.execPath, [BIN, 'exec', '-i', sh, '--', `cat > '${got}'; wc -c < '${got}'`], { env: { ...process.env, AMUX_HOME: h.home }, stdio: ['pipe', 'ignore', 'ignore'] });
    cli.stdin.write(Buffer.alloc(200_000, 'x'));
    // Killed once the job has some of it (and the CLI still holds its stdin open).
    for (const deadline = Date.now() + 30_000; Date.now() < deadline && !(existsSync(got) && statSync(got).size > 0); ) await sleep(50);
    const job = JSON.parse(await h.ok(['jobs', sh, '--json']))[0];
    assert.equal(job.status, 'running');
    cli.kill('SIGKILL');
    assert.equal((await h.run(['wait', job.id])).code, 0, 'EOF: wc ends as usual');
    const ended = JSON.parse(await h.ok(['jobs', sh, '--json'])).find((j: any) => j.id === job.id);
    assert.equal(ended.status, 'completed');
    assert.match(ended.error ?? '', /stdin cut after (\d+) bytes/);
    const n = Number(/after (\d+) bytes/.exec(ended.error)![1]);
    assert.ok(n > 0 && n <= 200_000, String(n));
    assert.equal((await h.ok(['logs', '--stdout', job.id])).trim(), String(n), 'the job read every byte that reached the daemon, then EOF');
    const events = (await h.ok(['events', sh])).split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const cut = events.find((e) => e.jobId === job.id && e.type === 'error');
    assert.ok(cut, JSON.stringify(events));
    assert.equal(cut.data.stdinBytes, n);
    assert.match(cut.data.message, /stdin cut after \d+ bytes/);
  });
});
