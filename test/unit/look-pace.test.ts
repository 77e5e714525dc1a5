import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { judgeForeground, type ProcessSample } from '../../src/core/activity.js';
import { lookDue, passedBy, REST_AFTER_MS, REST_PACE_MS, rests, settles, SLOW_MS, STEADY_MS, tickBase } from '../../src/core/look-pace.js';
import { sameMarks } from '../../src/process/run-marks.js';

test('lookDue: every tick while the processes ran lately; once a second after STEADY_MS still', () => {
  assert.equal(lookDue(0, 250, 250), true);
  assert.equal(lookDue(STEADY_MS - 1, 250, 250), true, 'still, but not for long: every tick');
  assert.equal(lookDue(STEADY_MS, 250, 250), false, 'long still: not at the next tick');
  assert.equal(lookDue(60_000, 500, 250), false);
  assert.equal(lookDue(60_000, SLOW_MS - 125, 250), true, 'half a tick early is due: a late look does not push the next a tick later');
  assert.equal(lookDue(60_000, SLOW_MS - 126, 250), false);
});

test('rests: only when nobody has called and the processes have not run, each for the rest time (ADR 0071)', () => {
  assert.equal(rests(REST_AFTER_MS, REST_AFTER_MS), true);
  assert.equal(rests(REST_AFTER_MS - 1, 10 * REST_AFTER_MS), false, 'nobody calls, but it ran lately');
  assert.equal(rests(10 * REST_AFTER_MS, REST_AFTER_MS - 1), false, 'still for long, but somebody called lately');
  assert.equal(rests(10 * REST_AFTER_MS, 0), false, 'a request is open');
  assert.equal(rests(2000, 2000, 2000), true, 'the rest time is a setting (AMUX_TEST_REST_AFTER)');
});

test('lookDue: a resting session every REST_PACE_MS; a call brings it back to once a second', () => {
  const still = REST_AFTER_MS + 60_000;
  assert.equal(lookDue(still, SLOW_MS, 250, REST_AFTER_MS), false, 'resting: a second is not enough');
  assert.equal(lookDue(still, REST_PACE_MS - 126, 250, REST_AFTER_MS), false);
  assert.equal(lookDue(still, REST_PACE_MS - 125, 250, REST_AFTER_MS), true, 'half a tick early, as at every pace');
  assert.equal(lookDue(still, SLOW_MS, 250, 0), true, 'somebody calls: once a second again');
  assert.equal(lookDue(still, SLOW_MS, 250), true, 'no quiet given: never rests');
  assert.equal(lookDue(STEADY_MS - 1, 250, 250, REST_AFTER_MS), true, 'it ran lately: every tick, whoever calls');
});

test('passedBy: the refresh passes a resting session by between visits, never one an idle timeout or a declaration times', () => {
  const still = REST_AFTER_MS + 1;
  const v = { settled: true, stillMs: still, sinceVisitMs: 1000, timed: false };
  assert.equal(passedBy(v, REST_AFTER_MS), true);
  assert.equal(passedBy({ ...v, sinceVisitMs: REST_PACE_MS - 125 }, REST_AFTER_MS), false, 'due for its visit (half a tick early)');
  assert.equal(passedBy({ ...v, sinceVisitMs: null }, REST_AFTER_MS), false, 'never visited');
  assert.equal(passedBy({ ...v, settled: false }, REST_AFTER_MS), false, 'its evidence changes with time (cpu, network, unknown)');
  assert.equal(passedBy({ ...v, timed: true }, REST_AFTER_MS), false, 'an idle timeout reads its output at every refresh');
  assert.equal(passedBy(v, REST_AFTER_MS - 1), false, 'somebody called lately');
  assert.equal(passedBy({ ...v, stillMs: REST_AFTER_MS - 1 }, REST_AFTER_MS), false, 'it ran lately');
});

test('sameMarks: the same threads with the same marks; any difference, or no marks, is not', () => {
  const m = (paths: string[], marks: string[]) => ({ paths, marks });
  const a = m(['/proc/1/schedstat', '/proc/2/schedstat'], ['1 2 3\n', '4 5 6\n']);
  assert.equal(sameMarks(a, m([...a.paths], [...a.marks])), true);
  assert.equal(sameMarks(a, m([...a.paths], ['1 2 3\n', '4 5 7\n'])), false, 'a thread ran');
  assert.equal(sameMarks(a, m(['/proc/1/schedstat'], ['1 2 3\n'])), false, 'a thread fewer');
  assert.equal(sameMarks(a, m(['/proc/1/schedstat', '/proc/3/schedstat'], [...a.marks])), false, 'another thread');
  assert.equal(sameMarks(m([], []), m([], [])), false, 'no marks prove nothing');
  assert.equal(sameMarks(null, a), false);
});

test('settles: a wait the kernel named holds while nothing runs; cpu, network and unknown change with time', () => {
  assert.equal(settles({ verdict: 'input', reason: 'reading the terminal' }), true);
  assert.equal(settles({ verdict: 'input', reason: 'at prompt' }), true);
  assert.equal(settles({ verdict: 'working', reason: 'sleeping' }), true);
  assert.equal(settles({ verdict: 'working', reason: 'pipe' }), true);
  assert.equal(settles({ verdict: 'working', reason: 'cpu' }), false, 'judged on ticks over time');
  assert.equal(settles({ verdict: 'working', reason: 'network' }), false, 'idle after a quiet time');
  assert.equal(settles({ verdict: 'unknown' }), false, 'idle after the threshold');
  assert.equal(settles(undefined), false);
});

describe('tickBase: CPU measured over a quick look at least (a look 4 ms after another sees no tick)', () => {
  // Traced on Claude Code 2.1.197 starting a turn: a quick look at t=0 read 191 ticks (158 at the
  // look before, 250 ms earlier: its main thread 127 → 149, a worker 14 → 23); the refresh's look 4
  // ms later found its main thread back on the terminal, measured 0 ticks used, and made the
  // session idle 8 s before the answer's last byte.
  const claude = (ticks: number, mainTicks: number, worker: number, waiting: boolean): ProcessSample => ({
    pid: 10, comm: 'claude', ticks,
    threads: [
      { tid: 10, state: waiting ? 'S' : 'R', wait: waiting ? 'descriptors' : 'unknown', on: waiting ? ['timer', 'terminal'] : null, timed: waiting, ticks: mainTicks },
      { tid: 11, state: 'S', wait: 'unknown', on: null, ticks: worker },
    ],
  });
  const ticksOf = (p: ProcessSample) => ({ procs: new Map([[p.pid, p.ticks]]), threads: new Map(p.threads.map((t) => [t.tid, t.ticks] as const)) });
  const before = { at: -250, ...ticksOf(claude(158, 127, 14, false)) };
  const quick = { at: 0, ...ticksOf(claude(191, 149, 23, false)), base: before };
  const onTerminal = claude(191, 149, 23, true);
  const judgeAt = (now: number, base: ReturnType<typeof tickBase>) =>
    judgeForeground([onTerminal], { ticks: base ?? null, elapsedMs: base ? Math.max(now - base.at, 250) : 250, quietMs: 0 }).activity;

  test('a look 4 ms after the last measures against the one before it: still working (cpu)', () => {
    const base = tickBase(quick, 4, 250);
    assert.equal(base, before);
    assert.deepEqual(judgeAt(4, base), { verdict: 'working', reason: 'cpu' });
    // What the look did before: measured against the quick look's own ticks, none used.
    assert.deepEqual(judgeAt(4, { at: 0, procs: quick.procs, threads: quick.threads }), { verdict: 'input', reason: 'reading the terminal' });
  });
  test('a look a quick look after the last measures against it', () => {
    const base = tickBase(quick, 250, 250)!;
    assert.equal(base.at, 0);
    assert.equal(base.procs, quick.procs);
    assert.deepEqual(judgeAt(250, base), { verdict: 'input', reason: 'reading the terminal' });
  });
  test('the first look has none; a short look after a first look measures against that one', () => {
    assert.equal(tickBase(undefined, 0, 250), undefined);
    assert.equal(tickBase({ at: 0, procs: new Map(), threads: new Map() }, 4, 250)!.at, 0);
  });
});
