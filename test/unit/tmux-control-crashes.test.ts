import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { controlClientWanted, tmuxAtLeast } from '../../src/tmux/tmux.js';
import { probeClose, probeDestroyUnattached, probeForeignServer, probeHalfIdentified, probeLostBeforeIdentified, probeOwnServer } from '../helpers/tmux-crashes.js';

/**
 * The tmux server crashes of control mode, against the tmux on PATH (CI: Debian's 3.3a; another
 * version first on PATH tests that one), each on a private server (ADR 0067). First the crashes
 * themselves, made certain, so that this tmux is shown to have them; then amux's way of using the
 * client on this tmux, which stays out of them.
 */
const version = execFileSync('tmux', ['-V'], { encoding: 'utf8' }).trim();
const fixed = tmuxAtLeast(version, 3, 7);

describe(`the control-mode crashes on ${version}`, () => {
  test('a notification reaching a control client that has not finished identifying kills a server before 3.7 (tmux #4980)', async () => {
    const r = await probeHalfIdentified();
    assert.equal(r.crashed, !fixed, r.detail);
  });

  test('a control client that leaves before it has identified kills a server before 3.7 (tmux #5004)', async () => {
    assert.equal((await probeLostBeforeIdentified()).crashed, !fixed);
  });

  test('destroy-unattached on a control client\'s session, the client leaving as another client leaves, kills the server (tmux #5497, fixed after 3.7c)', async (t) => {
    if (tmuxAtLeast(version, 3, 8)) return t.skip(`${version} may have the fix`);
    // A race between two clients' ends (not made certain as the two above): tried up to 10 times.
    let crashed = false;
    for (let i = 0; i < 10 && !crashed; i++) crashed = (await probeDestroyUnattached()).crashed;
    assert.equal(crashed, true, 'not reproduced in 10 tries');
  });
});

describe(`amux's control client on ${version} (ADR 0067)`, () => {
  const use = controlClientWanted(undefined, version);

  test('the default: on a server of its own before 3.7, on any server from 3.7', () => {
    assert.equal(use, fixed ? 'any-server' : 'own-server');
  });

  test('own-server: the client starts the server, its session is the first; creates and kills by it and by others around it lose nothing', async () => {
    const r = await probeOwnServer('tmux', 3);
    assert.equal(r.crashed, false, r.detail);
    assert.equal(r.controlled, true);
    assert.match(r.first, /^\$0 _amux-control$/);
  });

  test('own-server: on a server it did not start, while another client creates sessions, no client joins and the server lives', async () => {
    const r = await probeForeignServer('tmux', 'own-server');
    assert.equal(r.controlled, false, 'no control client identified on a busy server');
    assert.equal(r.crashed, false, r.detail);
  });

  test('own-server: close() (the client kills its own session and leaves) while other clients come and go', async () => {
    assert.equal((await probeClose()).crashed, false);
  });
});
