import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { amuxHome } from '../helpers/amux.js';

/** Far past the Date range (8.64e15 ms from the epoch) once added to now. */
const HUGE_MS = 8.64e15;

/** Issue 34 item 6: a duration past what a date can hold is refused before anything is stored. */
describe('durations past the Date range (ADR 0054)', () => {
  const h = amuxHome({ after });

  test('the CLI refuses them with exit 2 and one line naming the longest, and stores nothing', async () => {
    await h.ok(['ps']);
    const id = await h.ok(['run', '--', 'cat']);
    for (const args of [
      ['run', '--delay', '99999999d', '--', 'true'],
      ['run', '--timeout', '99999999d', '--', 'true'],
      ['run', '--idle-timeout', '36501d', '--', 'true'],
      ['wait', '--timeout', '99999999d', id],
      ['state', 'working', '--ttl', '99999999d', '--session', id],
      ['kill', '--grace', '9999999999999999999', id],
      ['history', '--since', '99999999d'],
    ]) {
      const r = await h.run(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /^amux: [^\n]*the longest is 36500d[^\n]*\n$/, args.join(' '));
    }
    const all = await h.json<{ id: string }[]>(['ps']);
    assert.deepEqual(all.map((s) => s.id), [id], 'nothing was stored');
    assert.equal((await h.session(id)).declared, null);
  });

  test('the API answers 400 naming the longest, and stores nothing', async () => {
    const before = (await h.api('GET', '/v1/sessions?all=1')).body.length;
    for (const body of [{ command: 'true', delayMs: HUGE_MS }, { command: 'true', timeoutMs: '99999999d' }, { command: 'true', idleTimeoutMs: HUGE_MS }]) {
      const r = await h.api('POST', '/v1/sessions', body);
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.match(r.body.error.message, /the longest is 36500d/);
    }
    const id = await h.ok(['run', '--', 'cat']);
    const ttl = await h.api('POST', `/v1/sessions/${id}/state`, { state: 'working', ttlMs: HUGE_MS });
    assert.equal(ttl.status, 400, JSON.stringify(ttl.body));
    const wait = await h.api('POST', '/v1/wait', { ids: [id], timeoutMs: HUGE_MS });
    assert.equal(wait.status, 400, JSON.stringify(wait.body));
    assert.equal((await h.api('GET', '/v1/sessions?all=1')).body.length, before + 1);
    assert.equal((await h.session(id)).declared, null);
  });

  test('a start 30 days away waits quietly: no timer fires at once, nothing floods daemon.log', async () => {
    const id = await h.ok(['run', '--delay', '30d', '--', 'true']);
    const s = await h.session(id);
    assert.equal(s.status, 'pending');
    assert.ok(Date.parse(s.startAfter) > Date.now() + 29 * 86_400_000, s.startAfter);
    // The overflowing timer of the old build re-armed itself at once, over and over: by the time
    // two more requests are answered its warning is in the log.
    await h.ok(['ps']);
    await h.ok(['ps']);
    assert.doesNotMatch(readFileSync(join(h.home, 'daemon.log'), 'utf8'), /TimeoutOverflowWarning/);
    await h.ok(['rm', id]);
  });

  test('a row stored by an older build with a time past the range is listed, not a failure of every listing', async () => {
    const id = await h.ok(['run', '--delay', '1h', '--', 'true']);
    const busy = await h.ok(['run', '--', 'cat']);
    await h.ok(['daemon', 'stop']);
    const db = new Database(join(h.home, 'amux.db'));
    const far = Date.now() + HUGE_MS;
    db.prepare('UPDATE sessions SET start_after = ? WHERE id = ?').run(far, id);
    db.prepare("UPDATE sessions SET declared_state = 'working', declared_at = ?, declared_until = ? WHERE id = ?").run(Date.now(), far, busy);
    db.close();

    const listed = await h.json<{ id: string; startAfter: string | null }[]>(['ps']);
    const row = listed.find((s) => s.id === id)!;
    assert.equal(row.startAfter, '+275760-09-13T00:00:00.000Z', 'the end of the Date range');
    for (const args of [['ps'], ['history'], ['inspect', id], ['inspect', busy]]) {
      const r = await h.run(args);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    }
    const api = await h.api('GET', '/v1/sessions');
    assert.equal(api.status, 200, JSON.stringify(api.body));
    assert.ok(api.body.some((s: { id: string }) => s.id === busy));
    assert.doesNotMatch(readFileSync(join(h.home, 'daemon.log'), 'utf8'), /TimeoutOverflowWarning/);
  });
});
