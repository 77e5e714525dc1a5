import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RegexThread } from '../../src/daemon/match/regex-thread.js';

describe('RegexThread (ADR 0029)', () => {
  test('answers the index of the first match, multi-line, or -1', async (t) => {
    const rx = new RegexThread();
    t.after(() => rx.stop());
    assert.equal(await rx.match('^ready$', 'starting\nready\n'), 9);
    assert.equal(await rx.match('ready|listening', 'nothing here'), -1);
    assert.equal(await rx.match('(\\w)\\1', 'abccd'), 2, 'a backreference (backtracking engine) still matches');
  });

  test('a linear-time expression stays linear: (a+)+$ and .*Done.* on long lines', async (t) => {
    const rx = new RegexThread(60_000);
    t.after(() => rx.stop());
    // Backtracking, these take 2^100 steps and ~10 s (146 KB line); the budget here is far above either.
    assert.equal(await rx.match('(a+)+$', `${'a'.repeat(100)}!`), -1);
    assert.equal(await rx.match('.*Done.*', `${'x'.repeat(146 * 1024)}\nDone`), 146 * 1024 + 1);
  });

  test('a match past its budget fails with invalid_argument, the main thread runs meanwhile, the next match works', async (t) => {
    const rx = new RegexThread(300);
    t.after(() => rx.stop());
    let ticks = 0;
    const tick = setInterval(() => ticks++, 20);
    t.after(() => clearInterval(tick));
    // A lookahead keeps it out of the linear engine: 2^40 backtracking steps.
    const slow = rx.match('(a+)+(?=b)', `${'a'.repeat(40)}!`);
    const queued = rx.match('x', 'y x');
    await assert.rejects(slow, (err: Error & { code?: string }) => {
      assert.equal(err.code, 'invalid_argument');
      assert.match(err.message, /took longer than 0\.3s/);
      return true;
    });
    assert.ok(ticks > 0, 'timers of the main thread ran while the expression backtracked');
    assert.equal(await queued, 2, 'a match queued behind it gets a new thread');
  });
});
