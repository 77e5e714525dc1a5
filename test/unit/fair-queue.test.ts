import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FairQueue } from '../../src/daemon/match/fair-queue.js';
import { RegexThread } from '../../src/daemon/match/regex-thread.js';

describe('FairQueue (ADR 0056)', () => {
  test('serves clients in turns, each client\'s items oldest first', () => {
    const q = new FairQueue<string>();
    const a = {};
    const b = {};
    const c = {};
    for (const x of ['a1', 'a2', 'a3']) q.push(a, x);
    q.push(b, 'b1');
    q.push(c, 'c1');
    q.push(b, 'b2');
    assert.equal(q.size, 6);
    const order: string[] = [];
    for (let x = q.shift(); x !== undefined; x = q.shift()) order.push(x);
    assert.deepEqual(order, ['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
    assert.equal(q.size, 0);
  });

  test('a client that comes back later waits for the turns of those already in line', () => {
    const q = new FairQueue<string>();
    const a = {};
    const b = {};
    q.push(a, 'a1');
    q.push(b, 'b1');
    assert.equal(q.shift(), 'a1');
    q.push(a, 'a2');
    assert.equal(q.shift(), 'b1');
    assert.equal(q.shift(), 'a2');
    q.push(a, 'a3');
    assert.deepEqual(q.drain(), ['a3']);
    assert.equal(q.size, 0);
  });
});

describe('RegexThread: expensive matches do not hold others (ADR 0056)', () => {
  test('a cheap match of another client is answered while costly ones queued before it are still running', async (t) => {
    // A budget no load reaches (ADR 0058): a costly match ends only by its budget, so if the cheap one
    // had to wait for any of them (no slices), a costly one would end first. Each slice hands over or
    // restarts a thread (~0.1 s idle, seconds on a busy machine); the budget is a wall-clock timer.
    const rx = new RegexThread(60_000, 100);
    t.after(() => rx.stop());
    // A lookahead keeps these out of the linear engine: 2^40 backtracking steps, far past the budget.
    const costly = Array.from({ length: 6 }, () => {
      const p = rx.match('(a+)+(?=b)', `${'a'.repeat(40)}!`, {});
      const state = { done: false };
      p.then(() => (state.done = true), () => (state.done = true));
      return { p, state };
    });
    const first = await Promise.race([
      rx.match('x', 'y x', {}).then((index) => ({ cheap: index })),
      ...costly.map((c) => c.p.then((index) => ({ costly: String(index) }), (err: Error) => ({ costly: err.message }))),
    ]);
    assert.deepEqual(first, { cheap: 2 }, 'the cheap match is answered before any costly one ends');
    const ended = costly.filter((c) => c.state.done).length;
    assert.equal(ended, 0, `${ended} of the costly matches ended before the cheap one was answered`);
    // Still running (or queued for the long thread) until the thread stops; the budget itself: regex-thread.test.
    rx.stop();
    for (const c of costly) await assert.rejects(c.p, /the daemon is stopping/);
  });

  test('an expression that went long for a client starts in the long thread next time, and still answers', async (t) => {
    const rx = new RegexThread(60_000, 1);
    t.after(() => rx.stop());
    const me = {};
    const text = `${'x'.repeat(146 * 1024)}\nDone`;
    assert.equal(await rx.match('.*Done.*', text, me), 146 * 1024 + 1);
    assert.equal(await rx.match('.*Done.*', text, me), 146 * 1024 + 1);
  });
});
