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
    const rx = new RegexThread(2000, 100);
    t.after(() => rx.stop());
    // A lookahead keeps these out of the linear engine: 2^40 backtracking steps, far past the budget.
    const costly = Array.from({ length: 6 }, () => {
      const p = rx.match('(a+)+(?=b)', `${'a'.repeat(40)}!`, {});
      const state = { done: false };
      p.then(() => (state.done = true), () => (state.done = true));
      return { p, state };
    });
    assert.equal(await rx.match('x', 'y x', {}), 2);
    const ended = costly.filter((c) => c.state.done).length;
    assert.ok(ended <= 1, `${ended} of the costly matches ended before the cheap one was answered`);
    for (const c of costly) await assert.rejects(c.p, /took longer than 2s/);
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
