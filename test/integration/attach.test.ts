import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { AmuxHome, amuxHome, BIN, sleep } from '../helpers/amux.js';

/** A second, unrelated tmux server plays the user's terminal, so attach gets a real TTY in CI. */
function outerTerminal(h: AmuxHome, t: { after: (fn: () => void) => void }, args: string[]) {
  const sock = join(h.home, 'outer-terminal.sock');
  const env: NodeJS.ProcessEnv = { ...process.env, AMUX_HOME: h.home };
  delete env.NODE_EXTRA_CA_CERTS;
  execFileSync('tmux', ['-S', sock, '-f', '/dev/null', 'new-session', '-d', '-x', '100', '-y', '30', '--', process.execPath, BIN, ...args], { env });
  t.after(() => {
    spawnSync('tmux', ['-S', sock, 'kill-server'], { stdio: 'ignore' });
  });
  const tmux = (...a: string[]) => spawnSync('tmux', ['-S', sock, ...a], { encoding: 'utf8' });
  return {
    screen: () => tmux('capture-pane', '-p').stdout ?? '',
    type: (...keys: string[]) => tmux('send-keys', ...keys),
    alive: () => tmux('has-session').status === 0,
  };
}

async function eventually(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(100);
  }
  assert.fail(`never happened: ${what}`);
}

describe('amux attach', () => {
  test('attaches a terminal to the session, types into it, detaches with C-b d; the session runs on', async (t) => {
    const h = amuxHome(t);
    const id = await h.ok(['run', '-n', 'att', '--', 'echo inside-the-session; cat']);
    const term = outerTerminal(h, t, ['attach', 'att']);
    await eventually('the session shows in the attached terminal', () => term.screen().includes('inside-the-session'));
    term.type('typed-through-attach', 'Enter');
    await eventually('the typed line reaches the session', async () => (await h.ok(['logs', id])).includes('typed-through-attach'));
    term.type('C-b', 'd');
    await eventually('attach returns after detaching', () => !term.alive());
    assert.ok(['working', 'idle'].includes((await h.session(id)).status));
  });

  test('-r is read-only: keys typed in the terminal do not reach the session', async (t) => {
    const h = amuxHome(t);
    const id = await h.ok(['run', '--', 'echo watch-only; cat']);
    const term = outerTerminal(h, t, ['attach', '-r', id]);
    await eventually('the session shows', () => term.screen().includes('watch-only'));
    term.type('must-not-arrive', 'Enter');
    await sleep(500);
    assert.doesNotMatch(await h.ok(['logs', id]), /must-not-arrive/);
  });

  test('attach refuses when stdin is not a terminal', async (t) => {
    const h = amuxHome(t);
    const id = await h.ok(['run', '--', 'sleep 60']);
    const r = await h.run(['attach', id]);
    assert.equal(r.code, 2, "the same usage error as top without a terminal");
    assert.match(r.stderr, /must be a terminal/);
  });
});

describe('access from other users', () => {
  test('another user cannot reach the daemon socket', async (t) => {
    const h = amuxHome(t);
    await h.ok(['daemon', 'start']);
    const probe = `require('net').connect(${JSON.stringify(join(h.home, 'amux.sock'))}).on('connect', () => { console.log('CONNECTED'); process.exit(0) }).on('error', (e) => { console.log(e.code); process.exit(0) })`;
    const r = spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, '-e', probe], { encoding: 'utf8' });
    if (r.error) assert.fail(`runuser is needed for this test: ${r.error.message}`);
    assert.equal(r.stdout.trim(), 'EACCES', r.stderr);
  });
});
