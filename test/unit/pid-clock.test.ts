import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PidClock, nsLastPid } from '../../src/process/pid-clock.js';

/** A clock over a scripted counter (pid_max 32768). */
function scripted(...values: number[]) {
  let i = 0;
  return new PidClock(() => values[Math.min(i++, values.length - 1)]!, 32768);
}

describe('PidClock: the pid counter followed across wraps (ADR 0027)', () => {
  test('travelled counts the pids given out, also over the wrap', () => {
    const c = scripted(100, 300, 32000, 50);
    assert.deepEqual(c.now(), { lastPid: 300, travelled: 200 });
    assert.deepEqual(c.now(), { lastPid: 32000, travelled: 31900 });
    assert.deepEqual(c.now(), { lastPid: 50, travelled: 31900 + 818 });
  });

  test('since: the mark’s last pid while less than a round passed; undefined after (every process is read)', () => {
    const c = scripted(1000, 1000, 5000, 20000, 31000, 900);
    const mark = c.now()!;
    assert.equal(c.since(mark), 1000); // 4000 pids since
    assert.equal(c.since(mark), 1000); // 19000
    assert.equal(c.since(mark), undefined); // 30000: within the margin of a whole round
    assert.equal(c.since(mark), undefined); // a whole round and more
  });

  test('no mark, or a counter that cannot be read: undefined', () => {
    assert.equal(scripted(5, 6).since(undefined), undefined);
    const broken = new PidClock(() => NaN, 32768);
    assert.equal(broken.now(), null);
    assert.equal(broken.since({ lastPid: 1, travelled: 0 }), undefined);
  });

  test('the real counter moves forward when a process is forked', async () => {
    const before = nsLastPid();
    const { execFileSync } = await import('node:child_process');
    execFileSync('true');
    const after = nsLastPid();
    assert.ok(Number.isFinite(before) && Number.isFinite(after));
    assert.notEqual(after, before);
  });
});
