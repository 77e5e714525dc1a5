import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Client } from '../../src/client/client.js';
import { amuxPaths } from '../../src/paths.js';
import { STARTS_AT_ONCE } from '../../src/daemon/session/queue.js';
import { START_BACKLOG } from '../../src/protocol/sessions.js';
import { amuxHome } from '../helpers/amux.js';

/**
 * Back-pressure on creates (ADR 0040): beyond the sessions tmux is making now, a create is answered
 * at once, `pending` with the reason `waits for tmux`, and started in order; `amux run` gives its id
 * once it runs, and `wait --until started` waits for that.
 */
describe('start backlog', () => {
  const h = amuxHome({ after });

  test('creates beyond the start slots answer pending at once and all start; wait --until started', async () => {
    // The tmux server is held stopped (SIGSTOP) while the creates arrive: the first STARTS_AT_ONCE
    // starts cannot finish, so every later create must be answered at once as backlogged, on any
    // machine however fast its tmux (a start that finished first would free its slot).
    await h.ok(['run', '--', 'sleep 120']);
    const server = Number(h.tmux(['display-message', '-p', '#{pid}']).trim());
    assert.ok(server > 1, `tmux server pid: ${server}`);
    const client = new Client(amuxPaths(h.home), false);
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
    const count = 12;
    let answered = 0;
    let resume!: () => void;
    const allButStarting = new Promise<void>((r) => (resume = r));
    process.kill(server, 'SIGSTOP');
    const creates = Array.from({ length: count }, () =>
      client.sessions.create({ command: 'sleep 120', cwd: '/', env }).then((s) => {
        if (++answered === count - STARTS_AT_ONCE) resume();
        return s;
      }));
    try {
      // Those beyond the start slots are answered while tmux is stopped; then tmux goes on.
      await Promise.race([allButStarting, Promise.all(creates)]);
      assert.equal(answered, count - STARTS_AT_ONCE, 'creates answered while the tmux server was stopped');
    } finally {
      process.kill(server, 'SIGCONT');
    }
    const made = await Promise.all(creates);
    const backlogged = made.filter((s) => s.status === 'pending');
    assert.equal(backlogged.length, count - STARTS_AT_ONCE, made.map((s) => `${s.status}${s.reason ? ` (${s.reason})` : ''}`).join(', '));
    for (const s of backlogged) assert.equal(s.reason, START_BACKLOG);
    const started = JSON.parse(await h.ok(['wait', '--until', 'started', '--timeout', '60s', '--json', ...backlogged.map((s) => s.id)])) as { status: string; reached: boolean }[];
    assert.equal(started.length, backlogged.length);
    for (const r of started) {
      assert.equal(r.reached, true);
      assert.ok(r.status === 'working' || r.status === 'idle', r.status);
    }
  });

  test('amux run gives the id of a session that runs, also when its create waited for tmux', async () => {
    const ids = await Promise.all(Array.from({ length: 8 }, () => h.ok(['run', '--', 'sleep 120'])));
    for (const id of ids) {
      const s = await h.session(id);
      assert.notEqual(s.status, 'pending', `${id} was given while pending`);
      assert.ok(s.startedAt, `${id} has no start time`);
    }
  });

  test('wait --until started on a session that ended without starting answers (not reached: it never ran)', async () => {
    const dep = await h.ok(['run', '--', 'exit 3']);
    assert.equal((await h.run(['wait', dep])).code, 3);
    const never = await h.ok(['run', '--after', dep, '--', 'true']);
    const r = await h.run(['wait', '--until', 'started', '--timeout', '30s', '--json', never]);
    const [res] = JSON.parse(r.stdout) as { status: string; reached: boolean }[];
    assert.equal(res!.status, 'failed');
    assert.equal(res!.reached, true);
  });
});
