import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lookDue, settles, SLOW_MS, STEADY_MS } from '../../src/core/look-pace.js';
import { sameMarks } from '../../src/process/run-marks.js';

test('lookDue: every tick while the processes ran lately; once a second after STEADY_MS still', () => {
  assert.equal(lookDue(0, 250, 250), true);
  assert.equal(lookDue(STEADY_MS - 1, 250, 250), true, 'still, but not for long: every tick');
  assert.equal(lookDue(STEADY_MS, 250, 250), false, 'long still: not at the next tick');
  assert.equal(lookDue(60_000, 500, 250), false);
  assert.equal(lookDue(60_000, SLOW_MS - 125, 250), true, 'half a tick early is due: a late look does not push the next a tick later');
  assert.equal(lookDue(60_000, SLOW_MS - 126, 250), false);
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
