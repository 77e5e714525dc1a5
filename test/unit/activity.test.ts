import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { foregroundName, judgeForeground, type ProcessSample, type Since, type ThreadSample } from '../../src/core/activity.js';

/** A one-thread process sleeping on nothing known; override what the case is about. */
function proc(over: Partial<ThreadSample> & { pid?: number; comm?: string; ticks?: number } = {}): ProcessSample {
  const { pid = 200, comm = 'prog', ticks = 0, ...t } = over;
  return { pid, comm, ticks, threads: [{ tid: pid, state: 'S', wait: 'unknown', on: null, ticks, ...t }] };
}
const first: Since = { ticks: null, elapsedMs: 250, quietMs: 0 };
const judge = (procs: ProcessSample[], since = first, shell: number | null = null) => judgeForeground(procs, since, shell).activity;
const terminal: Partial<ThreadSample> = { wait: 'descriptors', on: ['terminal'] };

describe('judgeForeground', () => {
  test('a wait on the terminal alone: input at once, time limit or not; the shell itself: at prompt', () => {
    assert.deepEqual(judge([proc(terminal)]), { verdict: 'input', reason: 'reading the terminal' });
    assert.deepEqual(judge([proc({ ...terminal, pid: 100 })], first, 100), { verdict: 'input', reason: 'at prompt' });
    // node's REPL: the pty among its own pipes and eventfds
    assert.deepEqual(judge([proc({ wait: 'descriptors', on: ['terminal', 'pipe', 'other'] })]), { verdict: 'input', reason: 'reading the terminal' });
  });

  test('running, disk, timer, network: working, with the reason', () => {
    assert.deepEqual(judge([proc({ state: 'R' })]), { verdict: 'working', reason: 'cpu' });
    assert.deepEqual(judge([proc({ state: 'D', wait: 'disk' })]), { verdict: 'working', reason: 'disk' });
    assert.deepEqual(judge([proc({ wait: 'timer' })]), { verdict: 'working', reason: 'sleeping' });
    assert.deepEqual(judge([proc({ wait: 'network' })]), { verdict: 'working', reason: 'network' });
    // Blocked writing to the terminal (`cat big.txt`): output the terminal has not taken yet, even beside a reader of it.
    assert.deepEqual(judge([proc({ wait: 'write', on: ['terminal'] })]), { verdict: 'working', reason: 'output' });
    assert.deepEqual(judge([proc({ wait: 'write', on: ['terminal'] }), proc({ pid: 2, wait: 'descriptors', on: ['terminal'] })]), { verdict: 'working', reason: 'output' });
  });

  test('what descriptors a wait is on: a listening socket serves, inotify follows, a socket alone is the network', () => {
    assert.deepEqual(judge([proc({ wait: 'descriptors', on: ['listening'] })]), { verdict: 'working', reason: 'serving' }); // http.server
    // The terminal beside a listening socket of its own (Codex's TUI, ADR 0048): waiting for you, not serving.
    assert.deepEqual(judge([proc({ wait: 'descriptors', on: ['terminal', 'listening', 'pipe'] })]), { verdict: 'input', reason: 'reading the terminal' });
    assert.deepEqual(judge([proc({ wait: 'descriptors', on: ['inotify'] })]), { verdict: 'working', reason: 'watching files' }); // tail -f
    assert.deepEqual(judge([proc({ wait: 'descriptors', on: ['socket'] })]), { verdict: 'working', reason: 'network' }); // curl
    assert.deepEqual(judge([proc({ wait: 'descriptors', on: ['pipe'] })]), { verdict: 'working', reason: 'pipe' });
    assert.deepEqual(judge([proc({ wait: 'accept' })]), { verdict: 'working', reason: 'serving' }); // a blocking accept()
    // node with a timer pending: its own pipes and eventfds, with a time limit
    assert.deepEqual(judge([proc({ wait: 'descriptors', on: ['pipe', 'other'], timed: true })]), { verdict: 'working', reason: 'sleeping' });
    assert.deepEqual(judge([proc({ wait: 'descriptors', on: ['terminal', 'pipe'], timed: true })]), { verdict: 'input', reason: 'reading the terminal' });
    assert.deepEqual(judge([proc({ wait: 'descriptors', on: ['other'] })]), { verdict: 'unknown' });
    assert.deepEqual(judge([proc({ wait: 'descriptors', on: null })]), { verdict: 'unknown' });
  });

  test('the terminal and a socket at once: working while bytes arrive, input once quiet for 1 s', () => {
    const ssh = [proc({ wait: 'descriptors', on: ['terminal', 'socket'] })];
    assert.deepEqual(judge(ssh, { ...first, quietMs: 300 }), { verdict: 'working', reason: 'network' });
    assert.deepEqual(judge(ssh, { ...first, quietMs: 1000 }), { verdict: 'input', reason: 'reading the terminal' });
  });

  test('any thread computing makes the group cpu, whatever the main thread waits on', () => {
    const py: ProcessSample = { pid: 5, comm: 'python3', ticks: 800, threads: [
      { tid: 5, state: 'S', wait: 'lock', on: null, ticks: 4 },
      { tid: 6, state: 'R', wait: 'unknown', on: null, ticks: 796 },
    ] };
    assert.deepEqual(judge([py]), { verdict: 'working', reason: 'cpu' });
    // between two looks the worker happened to sleep: its ticks since tell
    const later: ProcessSample = { ...py, ticks: 850, threads: [py.threads[0]!, { ...py.threads[1]!, state: 'S', ticks: 846 }] };
    const since: Since = { ticks: { procs: new Map([[5, 800]]), threads: new Map([[5, 4], [6, 796]]) }, elapsedMs: 250, quietMs: 0 };
    assert.deepEqual(judge([later], since), { verdict: 'working', reason: 'cpu' });
  });

  test('ticks since the last look: a real share of a core counts; a thread now on the terminal spent them on its redraw', () => {
    const since = (t: number): Since => ({ ticks: { procs: new Map([[200, t]]), threads: new Map([[200, t]]) }, elapsedMs: 250, quietMs: 0 });
    assert.deepEqual(judge([proc({ wait: 'lock', ticks: 10 })], since(8)), { verdict: 'working', reason: 'cpu' });
    assert.deepEqual(judge([proc({ wait: 'lock', ticks: 10 })], since(10)), { verdict: 'working', reason: 'lock' }); // a reason needs its evidence now
    assert.deepEqual(judge([proc({ ...terminal, ticks: 30 })], since(8)), { verdict: 'input', reason: 'reading the terminal' }); // vim after a keystroke
  });

  test('make waiting for a recipe that sleeps: the busy child decides', () => {
    const make = proc({ pid: 1, comm: 'make', wait: 'children' });
    const sh = proc({ pid: 2, comm: 'sh', wait: 'children' });
    assert.deepEqual(judge([make, sh, proc({ pid: 3, comm: 'sleep', wait: 'timer' })]), { verdict: 'working', reason: 'sleeping' });
    assert.deepEqual(judge([make, sh]), { verdict: 'working', reason: 'child' });
  });

  test('a pipeline with a reader on the terminal and a writer blocked on the pipe: input', () => {
    assert.equal(judge([proc({ pid: 1, comm: 'yes', wait: 'pipe' }), proc({ pid: 2, comm: 'less', ...terminal })]).verdict, 'input');
  });

  test('nothing to judge: unknown', () => {
    assert.deepEqual(judge([]), { verdict: 'unknown' });
  });
});

describe('foregroundName', () => {
  test('the member using the CPU, not the first of the pipeline', () => {
    const head = proc({ pid: 2, comm: 'head', state: 'R', ticks: 100 });
    const xz = { ...proc({ pid: 3, comm: 'xz', state: 'R', ticks: 900 }) };
    const since: Since = { ticks: { procs: new Map([[2, 95], [3, 850]]), threads: new Map() }, elapsedMs: 250, quietMs: 0 };
    const j = judgeForeground([head, xz], since, null);
    assert.equal(foregroundName([head, xz], j, 1), 'xz');
  });

  test('the one doing the work over time, not the copier that had a busier quarter second', () => {
    const head = proc({ pid: 2, comm: 'head', state: 'R', ticks: 300 });
    const xz = proc({ pid: 3, comm: 'xz', state: 'R', ticks: 4000 });
    const since: Since = { ticks: { procs: new Map([[2, 288], [3, 3992]]), threads: new Map() }, elapsedMs: 250, quietMs: 0 };
    assert.equal(foregroundName([head, xz], judgeForeground([head, xz], since, null), 1), 'xz');
    const idleRepl = proc({ pid: 4, comm: 'node', wait: 'children', ticks: 9000 });
    const child = proc({ pid: 5, comm: 'cc1', state: 'R', ticks: 20 });
    const since2: Since = { ticks: { procs: new Map([[4, 9000], [5, 5]]), threads: new Map() }, elapsedMs: 250, quietMs: 0 };
    assert.equal(foregroundName([idleRepl, child], judgeForeground([idleRepl, child], since2, null), 1), 'cc1', 'a member idle now is not named for its past');
  });

  test('a member new since the last look used all its ticks since then: not a just-forked bash', () => {
    const fork = proc({ pid: 2, comm: 'bash', state: 'R', ticks: 0 });
    const xz = proc({ pid: 3, comm: 'xz', state: 'R', ticks: 40 });
    const since: Since = { ticks: { procs: new Map([[9, 5]]), threads: new Map() }, elapsedMs: 250, quietMs: 0 };
    assert.equal(foregroundName([fork, xz], judgeForeground([fork, xz], since, null), 1), 'xz');
  });

  test('else the one reading the terminal, else the first that is not plumbing; null for the shell itself', () => {
    const members = [proc({ pid: 2, comm: 'bash', wait: 'children' }), proc({ pid: 3, comm: 'yes', wait: 'pipe' }), proc({ pid: 4, comm: 'less', ...terminal })];
    assert.equal(foregroundName(members, judgeForeground(members, first, null), 1), 'less');
    const waiting = [proc({ pid: 2, comm: 'bash', wait: 'children' }), proc({ pid: 3, comm: 'make', wait: 'children' })];
    assert.equal(foregroundName(waiting, judgeForeground(waiting, first, null), 1), 'make');
    const shell = [proc({ pid: 1, comm: 'bash', ...terminal })];
    assert.equal(foregroundName(shell, judgeForeground(shell, first, 1), 1), null);
  });
});
