import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, test } from 'node:test';
import { amuxHome, BIN, sleep } from '../helpers/amux.js';

describe('behaving like a terminal', () => {
  test('a user whose SHELL is not POSIX (fish, tcsh, /bin/false) still gets a full log', async (t) => {
    // The daemon (and so its tmux server) inherits the environment of the CLI that started it.
    const h = amuxHome(t, { SHELL: '/bin/false' });
    const r = await h.run(['run', '-w', '--', 'seq 1 3']);
    assert.equal(r.stdout, '1\n2\n3\n');
    const id = (await h.ok(['ps', '-q'])).split('\n')[0]!;
    assert.equal((await h.run(['logs', id])).stdout, '1\n2\n3\n');
  });

  test('Ctrl-Z suspends the main command (even mid-list); it finishes only after fg', async (t) => {
    const h = amuxHome(t);
    // Ctrl-Z once sleep runs, with time to spare on a busy machine (the send is a node start).
    const id = await h.ok(['run', '--', 'sleep 10; echo after-sleep']);
    const { startedAt } = await h.until(id, (s) => s.foreground === 'sleep');
    await h.ok(['send', id, '--keys', 'C-z']);
    // Past the end the sleep would have had (bash goes on with the rest of the list while sleep is stopped).
    await sleep(Math.max(1500, Date.parse(startedAt) + 11_500 - Date.now()));
    assert.ok(['working', 'idle'].includes((await h.session(id)).status), 'a suspended command has not finished');
    await h.ok(['send', id, 'fg']);
    const r = await h.run(['wait', '--timeout', '60s', id]);
    assert.equal(r.code, 0);
    assert.equal((await h.session(id)).status, 'completed');
  });

  test('Ctrl-C to run -w reaches the command; its exit code comes back', async (t) => {
    const h = amuxHome(t);
    await h.ok(['daemon', 'start']);
    const env: NodeJS.ProcessEnv = { ...process.env, AMUX_HOME: h.home };
    delete env.NODE_EXTRA_CA_CERTS;
    const child = spawn(process.execPath, [BIN, 'run', '-w', '--', 'echo started; sleep 30'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const code = new Promise<number | null>((resolve) => child.on('close', resolve));
    for (const deadline = Date.now() + 30_000; Date.now() < deadline && !out.includes('started'); ) await sleep(100);
    child.kill('SIGINT');
    assert.equal(await code, 130);
    const [s] = await h.json<any[]>(['ps']);
    assert.equal(s.status, 'failed');
    assert.equal(s.signal, 'SIGINT');
  });
});
