import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { amuxHome } from '../helpers/amux.js';

/** Bounds the wait for an answer an old build took minutes to give (a bound, not a timed assertion). */
async function bounded<T>(p: Promise<T>, what: string, ms = 90_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer: ${what}`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** Issue 34 item 7: a wait on many references neither freezes the daemon nor grows without bound. */
describe('POST /v1/wait with many references', () => {
  const h = amuxHome({ after });

  test('100,000 copies of one name are refused at once with a 400 naming the cap', async () => {
    await h.ok(['run', '-n', 'many', '--', 'true']);
    const r = await bounded(h.api('POST', '/v1/wait', { ids: Array(100_000).fill('many'), timeoutMs: 0 }), 'wait on 100,000 names');
    assert.equal(r.status, 400, JSON.stringify(r.body).slice(0, 300));
    assert.match(r.body.error.message, /at most 1000 references/);
    assert.equal((await h.run(['ps', '-q'])).code, 0, 'the daemon answers others');
  });

  test('1000 references, repeated names, ids and prefixes of a few sessions: one result per reference, in order', async () => {
    const ids = [await h.ok(['run', '-n', 'w-a', '--', 'true']), await h.ok(['run', '-n', 'w-b', '--', 'cat'])];
    await h.ok(['wait', 'w-a']);
    const refs = Array.from({ length: 1000 }, (_, i) => [ 'w-a', ids[0]!, 'w-b', ids[1]!.slice(0, 7)][i % 4]!);
    const r = await bounded(h.api('POST', '/v1/wait', { ids: refs, until: 'exited', timeoutMs: 0 }), 'wait on 1000 references');
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    assert.equal(r.body.results.length, 1000);
    r.body.results.forEach((x: { id: string; reached: boolean }, i: number) => {
      const first = i % 4 < 2;
      assert.equal(x.id, ids[first ? 0 : 1], `result ${i}`);
      assert.equal(x.reached, first, `result ${i}`);
    });
    assert.equal(r.body.timedOut, true, 'w-b still runs');
  });

  test('amux wait with more than 1000 targets is exit 2 with one line naming the cap, before asking the daemon', async () => {
    const r = await h.run(['wait', ...Array(1001).fill('w-a')]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^amux: amux wait takes at most 1000 sessions or jobs at once[^\n]*\n$/);
    assert.equal((await h.run(['wait', ...Array(1000).fill('w-a')])).code, 0);
  });
});
