import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Client } from '../../src/client/client.js';
import { amuxPaths } from '../../src/paths.js';
import { START_BACKLOG } from '../../src/protocol/sessions.js';
import { amuxHome } from '../helpers/amux.js';

/**
 * Back-pressure on creates (ADR 0040): beyond the sessions tmux is making now, a create is answered
 * at once, `pending` with the reason `waits for tmux`, and started in order; `amux run` gives its id
 * once it runs, and `wait --until started` waits for that.
 */
describe('start backlog', () => {
  // A tmux process per call (ADR 0046), and 24 creates: through the control client (or a fast tmux)
  // a start can take so little that 12 never found the start slots all taken; the backlog's logic
  // is the same either way.
  const h = amuxHome({ after }, { AMUX_TMUX_CONTROL: 'off' });

  test('creates beyond the start slots answer pending at once and all start; wait --until started', async () => {
    await h.ok(['daemon', 'start']);
    const client = new Client(amuxPaths(h.home), false);
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
    const made = await Promise.all(Array.from({ length: 24 }, () => client.sessions.create({ command: 'sleep 120', cwd: '/', env })));
    const backlogged = made.filter((s) => s.status === 'pending');
    assert.ok(backlogged.length >= 1, `24 creates at once: none waited for tmux (${made.map((s) => s.status).join(' ')})`);
    for (const s of backlogged) assert.equal(s.reason, START_BACKLOG);
    const started = JSON.parse(await h.ok(['wait', '--until', 'started', '--timeout', '60s', '--json', ...backlogged.map((s) => s.id)])) as { status: string; reached: boolean }[];
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
