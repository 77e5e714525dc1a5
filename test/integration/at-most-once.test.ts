import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { amuxHome, sleep } from '../helpers/amux.js';

describe('a request the CLI reported failed is never carried out later (ADR 0030)', () => {
  test('run and send to a stopped daemon exit 3, and nothing happens once it is continued', async (t) => {
    const h = amuxHome(t);
    const shell = await h.ok(['run']);
    assert.equal((await h.run(['wait', shell, '--until', 'idle', '--timeout', '30s'])).code, 0);
    const before = (await h.ok(['ps', '-q'])).split('\n').sort();
    const pid = h.daemonPid()!;
    const ran = join(h.home, 'ran');
    const sent = join(h.home, 'sent');
    process.kill(pid, 'SIGSTOP');
    try {
      const env = { AMUX_CLIENT_TIMEOUT: '2s' };
      const run = await h.run(['run', '--', `touch ${ran}`], { env });
      assert.equal(run.code, 3, run.stderr);
      const send = await h.run(['send', shell, `touch ${sent}`], { env });
      assert.equal(send.code, 3, send.stderr);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    // The daemon takes connections in order: once ps has its answer, the two before it were handled.
    assert.deepEqual((await h.ok(['ps', '-q'])).split('\n').sort(), before, 'no session was created');
    const events = (JSON.parse(await h.ok(['inspect', shell])).events as any[]).map((e) => e.type);
    assert.ok(!events.includes('input_sent'), `nothing was typed: ${events.join(' ')}`);
    // A late typed line would run at once in the idle shell: let it, if it was typed.
    assert.equal((await h.run(['exec', shell, '--', 'true'])).code, 0);
    assert.equal(existsSync(ran), false);
    assert.equal(existsSync(sent), false);
    // The daemon goes on as before.
    assert.equal((await h.run(['run', '-w', '--', 'echo ok'])).stdout, 'ok\n');
  });

  test('a request without a deadline whose client left before the daemon took it is dropped', async (t) => {
    const h = amuxHome(t);
    const before = await h.ok(['ps', '-q']);
    const pid = h.daemonPid()!;
    const ran = join(h.home, 'ran');
    process.kill(pid, 'SIGSTOP');
    try {
      const body = JSON.stringify({ command: `touch ${ran}` });
      await new Promise<void>((resolve, reject) => {
        const s = connect(join(h.home, 'amux.sock'), () => {
          s.write(`POST /v1/sessions HTTP/1.1\r\nhost: amux\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`, () => {
            s.destroy();
            resolve();
          });
        });
        s.on('error', reject);
      });
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    assert.equal(await h.ok(['ps', '-q']), before, 'no session was created');
    assert.equal(existsSync(ran), false);
  });

  test('a create whose start outlasts the client deadline is answered before it: exit 0 with the id, never exit 3 with a session (ADR 0055)', async (t) => {
    const h = amuxHome(t);
    await h.ok(['run', '--', 'sleep 120']);
    const before = new Set((await h.ok(['ps', '-q'])).split('\n'));
    const server = Number(h.tmux(['display-message', '-p', '#{pid}']).trim());
    assert.ok(server > 1, `tmux server pid: ${server}`);
    // tmux is held stopped past the client's deadline (3 s): the start cannot finish before it.
    process.kill(server, 'SIGSTOP');
    let cli!: ReturnType<typeof h.run>;
    try {
      cli = h.run(['run', '--', 'sleep 101'], { env: { AMUX_CLIENT_TIMEOUT: '3s' }, timeoutMs: 120_000 });
      await Promise.race([cli, sleep(6000)]);
    } finally {
      process.kill(server, 'SIGCONT');
    }
    const r = await cli;
    const made = (await h.ok(['ps', '-q'])).split('\n').filter((id) => !before.has(id));
    // Either not done, or its answer says it was (ADR 0030).
    if (r.code === 0) assert.deepEqual(made, [r.stdout.trim()]);
    else assert.deepEqual(made, [], `exit ${r.code} (${r.stderr.trim()}), yet the session was created`);
    assert.equal(r.code, 0, `a daemon that answers in time says it was done: ${r.stderr}`);
    assert.equal((await h.session(made[0]!)).status, 'working');
  });
});
