import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { amuxHome, sleep } from '../helpers/amux.js';

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('amux.db lost (ADR 0027, src/guides/internals.md)', () => {
  test('a session whose shell had exited is adopted as ended, not left unseen in tmux', async (t) => {
    const h = amuxHome(t);
    const shell = await h.ok(['run']);
    await h.until(shell, (s) => s.status === 'idle');
    await h.ok(['send', shell, 'exit 3']);
    await h.until(shell, (s) => s.endedAt !== null);
    assert.ok(h.tmuxSessions().includes(`amux-${shell}`), 'its tmux session stays (finishedTtl), its pane dead');
    const pid = h.daemonPid()!;
    for (const f of ['amux.db', 'amux.db-wal', 'amux.db-shm']) rmSync(join(h.home, f), { force: true });
    const deadline = Date.now() + 60_000;
    while (isAlive(pid) && Date.now() < deadline) await sleep(100);
    assert.ok(!isAlive(pid), 'the daemon stopped');
    const adopted = await h.until(shell, (s) => s.endedAt !== null, 60_000);
    assert.ok(['failed', 'completed', 'stopped'].includes(adopted.status), JSON.stringify(adopted));
    assert.match(JSON.stringify((await h.ok(['events', shell]))), /adopted/);
  });
});
