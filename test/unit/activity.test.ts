import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { judgeForeground, waitKind, waitsIndefinitely, type ProcessSample } from '../../src/core/activity.js';

/** A sleeping process; override what the case is about. */
function proc(over: Partial<ProcessSample> = {}): ProcessSample {
  return { pid: 200, comm: 'prog', state: 'S', wchan: null, indefinite: null, socket: null, ...over };
}

describe('waitKind', () => {
  test('the wait channels seen on kernel 6.x, compiler suffixes ignored', () => {
    assert.equal(waitKind('poll_schedule_timeout.constprop.0'), 'terminal'); // bash, python3, vi
    assert.equal(waitKind('do_epoll_wait'), 'terminal'); // node
    assert.equal(waitKind('wait_woken'), 'terminal'); // less, cat, read -p
    assert.equal(waitKind('hrtimer_nanosleep'), 'timer'); // sleep, watch
    assert.equal(waitKind('inet_csk_accept'), 'network');
    assert.equal(waitKind('sk_wait_data'), 'network');
    assert.equal(waitKind('do_wait'), 'children'); // make, a shell waiting for its job
    assert.equal(waitKind('pipe_read'), 'pipe');
    assert.equal(waitKind('futex_wait_queue'), 'lock');
  });

  test('unreadable, none, or unknown to this table → unknown (the screen decides)', () => {
    assert.equal(waitKind(null), 'unknown');
    assert.equal(waitKind('0'), 'unknown');
    assert.equal(waitKind('some_future_kernel_function'), 'unknown');
  });
});

describe('waitsIndefinitely', () => {
  test('x64: pselect6 with no timeout (bash, python3), epoll_pwait with -1 (node), read', () => {
    assert.equal(waitsIndefinitely('x64', '270 0x1 0x7ffd6dd2e250 0x0 0x0 0x0 0x7ffd 0x7ffd 0x7f00'), true);
    assert.equal(waitsIndefinitely('x64', '281 0xd 0x7fffa087c300 0x400 0xffffffff 0x0 0x8 0x7fff 0x7efc'), true);
    assert.equal(waitsIndefinitely('x64', '281 0xd 0x7fffa087c300 0x400 0xffffffffffffffff 0x0 0x8 0x7fff 0x7efc'), true);
    assert.equal(waitsIndefinitely('x64', '0 0x0 0x7ffd 0x1 0x0 0x0 0x0 0x7ffd 0x7f00'), true);
  });

  test('x64: a time limit (top polls every 3 s, an editor saving its swap file)', () => {
    assert.equal(waitsIndefinitely('x64', '270 0x1 0x7ffd 0x0 0x0 0x7ffd6dd2e250 0x0 0x7ffd 0x7f00'), false);
    assert.equal(waitsIndefinitely('x64', '7 0x7ffd 0x1 0xbb8 0x0 0x0 0x0 0x7ffd 0x7f00'), false);
    assert.equal(waitsIndefinitely('x64', '232 0x3 0x7ffd 0x10 0x0 0x0 0x0 0x7ffd 0x7f00'), false);
  });

  test('arm64 numbers', () => {
    assert.equal(waitsIndefinitely('arm64', '73 0x7ffd 0x1 0x0 0x0 0x8 0x0 0x7ffd 0x7f00'), true);
    assert.equal(waitsIndefinitely('arm64', '72 0x1 0x7ffd 0x0 0x0 0x7ffd 0x0 0x7ffd 0x7f00'), false);
  });

  test('unknown: running, not in a call, another call, another architecture, unreadable', () => {
    assert.equal(waitsIndefinitely('x64', 'running'), null);
    assert.equal(waitsIndefinitely('x64', '-1 0x7ffd 0x7f00'), null);
    assert.equal(waitsIndefinitely('x64', '61 0xffffffff 0x0 0x0 0x0 0x0 0x0 0x7ffd 0x7f00'), null); // wait4
    assert.equal(waitsIndefinitely('riscv64', '63 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0'), null);
    assert.equal(waitsIndefinitely('x64', null), null);
  });
});

describe('judgeForeground', () => {
  const terminal = { wchan: 'poll_schedule_timeout.constprop.0', indefinite: true, socket: false };

  test('blocked reading the terminal with no socket: input at once; the shell itself: at prompt', () => {
    assert.deepEqual(judgeForeground([proc(terminal)], false), { verdict: 'input', reason: 'reading the terminal' });
    assert.deepEqual(judgeForeground([proc({ ...terminal, pid: 100 })], false, 100), { verdict: 'input', reason: 'at prompt' });
  });

  test('running, disk, timer, network: working, with the reason', () => {
    assert.deepEqual(judgeForeground([proc({ state: 'R' })], false), { verdict: 'working', reason: 'cpu' });
    assert.deepEqual(judgeForeground([proc({ state: 'D', wchan: 'io_schedule' })], false), { verdict: 'working', reason: 'disk' });
    assert.deepEqual(judgeForeground([proc({ wchan: 'hrtimer_nanosleep' })], false), { verdict: 'working', reason: 'sleeping' });
    assert.deepEqual(judgeForeground([proc({ wchan: 'inet_wait_for_connect' })], false), { verdict: 'working', reason: 'network' });
  });

  test('make waiting for a recipe that sleeps: the busy child decides', () => {
    const make = proc({ pid: 1, comm: 'make', wchan: 'do_wait' });
    const sh = proc({ pid: 2, comm: 'sh', wchan: 'do_wait' });
    assert.deepEqual(judgeForeground([make, sh, proc({ pid: 3, comm: 'sleep', wchan: 'hrtimer_nanosleep' })], false), { verdict: 'working', reason: 'sleeping' });
  });

  test('a pipeline with a reader on the terminal and a writer blocked on the pipe: input', () => {
    assert.equal(judgeForeground([proc({ comm: 'yes', wchan: 'pipe_write' }), proc({ comm: 'less', ...terminal })], false).verdict, 'input');
  });

  test('a poll with a socket open (a server, an agent on an API) or a time limit: not input', () => {
    assert.equal(judgeForeground([proc({ ...terminal, socket: true })], false).verdict, 'unknown');
    assert.equal(judgeForeground([proc({ ...terminal, indefinite: false })], false).verdict, 'unknown');
  });

  test('the time limit unknown (syscall unreadable): still input', () => {
    assert.equal(judgeForeground([proc({ ...terminal, indefinite: null })], false).verdict, 'input');
  });

  test('CPU used since the last look while waiting on a lock (threads computing): working', () => {
    assert.deepEqual(judgeForeground([proc({ wchan: 'futex_wait_queue' })], true), { verdict: 'working', reason: 'cpu' });
    assert.deepEqual(judgeForeground([proc({ wchan: 'futex_wait_queue' })], false), { verdict: 'unknown' });
  });

  test('nothing to judge: unknown', () => {
    assert.deepEqual(judgeForeground([], false), { verdict: 'unknown' });
  });
});
