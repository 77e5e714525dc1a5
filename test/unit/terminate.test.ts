import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { terminate, type Clock, type TerminateTarget } from '../../src/process/terminate.js';

/** A clock that only moves when terminate sleeps: every run is exact and instant. */
function fakeClock(start = 1000): Clock & { slept: number } {
  let now = start;
  const clock = {
    slept: 0,
    now: () => now,
    sleep: async (ms: number) => {
      now += ms;
      clock.slept += ms;
    },
  };
  return clock;
}

/** A target whose processes die `diesAfter` ms after the signal in `dieOn` (never, when absent). */
function fakeTarget(clock: Clock, dieOn: NodeJS.Signals[], diesAfter = 0) {
  const sent: { signal: NodeJS.Signals; at: number }[] = [];
  let deathAt = Infinity;
  const target: TerminateTarget = {
    signal(sig) {
      sent.push({ signal: sig, at: clock.now() });
      if (dieOn.includes(sig)) deathAt = Math.min(deathAt, clock.now() + (sig === 'SIGKILL' ? 0 : diesAfter));
    },
    ended: () => clock.now() >= deathAt,
  };
  return { target, sent };
}

describe('terminate', () => {
  test('a target that ends within the grace gets only the signal asked for', async () => {
    const clock = fakeClock();
    const { target, sent } = fakeTarget(clock, ['SIGTERM'], 100);
    const r = await terminate(target, { signal: 'SIGTERM', graceMs: 5000, clock });
    assert.deepEqual(r, { endedBy: 'SIGTERM', escalated: false });
    assert.deepEqual(sent.map((s) => s.signal), ['SIGTERM']);
    assert.ok(clock.slept >= 100 && clock.slept < 200, `waited ${clock.slept} ms, about as long as it took to end`);
  });

  test('a target that ignores the signal is killed exactly when the grace is over', async () => {
    const clock = fakeClock();
    const { target, sent } = fakeTarget(clock, []);
    const r = await terminate(target, { signal: 'SIGTERM', graceMs: 5000, clock });
    assert.deepEqual(r, { endedBy: 'SIGKILL', escalated: true });
    assert.deepEqual(sent.map((s) => s.signal), ['SIGTERM', 'SIGKILL']);
    assert.equal(sent[1]!.at - sent[0]!.at, 5000, 'SIGKILL comes after the whole grace, not before');
  });

  test('a zero grace escalates at once', async () => {
    const clock = fakeClock();
    const { target, sent } = fakeTarget(clock, []);
    assert.equal((await terminate(target, { signal: 'SIGINT', graceMs: 0, clock })).endedBy, 'SIGKILL');
    assert.equal(sent[1]!.at, sent[0]!.at);
  });

  test('polls during the grace, then runs afterGrace before SIGKILL, and mustKill decides', async () => {
    const clock = fakeClock();
    const order: string[] = [];
    let polls = 0;
    const r = await terminate({
      signal: (sig) => order.push(sig),
      ended: () => false,
      poll: (phase) => {
        assert.equal(phase, 'grace');
        polls++;
      },
      afterGrace: () => void order.push('afterGrace'),
      mustKill: () => false, // e.g. nothing survived once the tmux session was closed
    }, { signal: 'SIGTERM', graceMs: 100, pollMs: 20, clock });
    assert.deepEqual(order, ['SIGTERM', 'afterGrace']);
    assert.deepEqual(r, { endedBy: 'SIGTERM', escalated: false });
    assert.equal(polls, 5);
  });

  test('waits up to settleMs for the end to be recorded, and no longer', async () => {
    const clock = fakeClock();
    let recordedAt = Infinity;
    const phases = new Set<string>();
    const target: TerminateTarget = {
      signal: (sig) => {
        if (sig === 'SIGKILL') recordedAt = clock.now() + 300;
      },
      ended: () => false,
      poll: (phase) => void phases.add(phase),
      settled: () => clock.now() >= recordedAt,
    };
    const t0 = clock.now();
    await terminate(target, { signal: 'SIGTERM', graceMs: 1000, settleMs: 1000, pollMs: 50, clock });
    assert.equal(clock.now() - t0, 1300, 'grace, then settled 300 ms after SIGKILL');
    assert.deepEqual([...phases].sort(), ['grace', 'settle']);

    const never = fakeClock();
    const t1 = never.now();
    await terminate({ signal: () => undefined, ended: () => false, settled: () => false }, { signal: 'SIGTERM', graceMs: 200, settleMs: 1000, pollMs: 50, clock: never });
    assert.equal(never.now() - t1, 1200, 'gives up after the settle time');
  });
});
