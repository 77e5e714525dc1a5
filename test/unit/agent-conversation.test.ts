import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { heldOnTerminal, judgeForeground, onTerminal, type ProcessSample, type Since, type ThreadSample, type WorkingReason } from '../../src/core/activity.js';
import { lastDataAt, type TcpTimes } from '../../src/core/socket-tables.js';

/** The rules of ADR 0061: the terminal beside a watch, a main thread on a passing lock, a conversation by its bytes. */

function thread(tid: number, t: Partial<ThreadSample>): ThreadSample {
  return { tid, state: 'S', wait: 'unknown', on: null, ticks: 0, ...t };
}
function proc(pid: number, ...threads: Partial<ThreadSample>[]): ProcessSample {
  return { pid, comm: 'prog', ticks: 0, threads: threads.map((t, i) => thread(pid + i, t)) };
}
const since = (more: Partial<Since> = {}): Since => ({ ticks: null, elapsedMs: 250, quietMs: 0, ...more });
const judge = (procs: ProcessSample[], s = since()) => judgeForeground(procs, s).activity;
const idle = { verdict: 'input', reason: 'reading the terminal' } as const;
const working = (reason: WorkingReason) => ({ verdict: 'working', reason }) as const;
const terminalWait: Partial<ThreadSample> = { wait: 'descriptors', on: ['timer', 'terminal', 'other'], timed: true };

describe('the terminal and an inotify watch in one wait (ADR 0061)', () => {
  test('waits for you: a watcher with keys between two changes', () => {
    assert.deepEqual(judge([proc(10, { wait: 'descriptors', on: ['terminal', 'inotify'] })]), idle);
    assert.deepEqual(judge([proc(10, { wait: 'descriptors', on: ['terminal', 'inotify', 'timer'], timed: true })]), idle);
  });
  test('with a socket too: a conversation, working while bytes move', () => {
    assert.deepEqual(judge([proc(10, { wait: 'descriptors', on: ['terminal', 'inotify', 'socket'] })]), working('network'));
    assert.deepEqual(judge([proc(10, { wait: 'descriptors', on: ['terminal', 'inotify', 'socket'] })], since({ quietMs: 5000 })), idle);
  });
  test('without the terminal: still watching files (tail -f)', () => {
    assert.deepEqual(judge([proc(10, { wait: 'descriptors', on: ['inotify'] })]), working('watching files'));
  });
});

describe('a main thread on a passing lock where the look before found it on the terminal (ADR 0061)', () => {
  const before = thread(10, terminalWait);
  const lock = thread(10, { wait: 'lock' });
  test('is taken as still on the terminal for one look: a helper thread watching files does not decide', () => {
    const held = heldOnTerminal(lock, before);
    assert.equal(held.held, true);
    assert.equal(onTerminal(held), true);
    // Beside a main thread on the terminal, the look reads a helper's state only (ADR 0048): unknown.
    assert.deepEqual(judge([{ pid: 10, comm: 'claude', ticks: 0, threads: [held, thread(11, {})] }]), idle);
    // As it was found, the helper's watch decided: what Claude Code showed at its prompt.
    assert.deepEqual(judge([{ pid: 10, comm: 'claude', ticks: 0, threads: [lock, thread(11, { wait: 'descriptors', on: ['inotify'] })] }]), working('watching files'));
  });
  test('not twice in a row, not after another wait, not for a thread that runs', () => {
    assert.equal(heldOnTerminal(lock, heldOnTerminal(lock, before)), lock);
    assert.equal(heldOnTerminal(lock, thread(10, { wait: 'descriptors', on: ['inotify'] })), lock);
    assert.equal(heldOnTerminal(lock, undefined), lock);
    const running = thread(10, { state: 'R', wait: 'lock' });
    assert.equal(heldOnTerminal(running, before), running);
  });
});

describe('a conversation kept by its connection (ADR 0061)', () => {
  // Main on the terminal; its HTTP thread handing a chunk over (a futex), not on its socket at this look.
  const agent = proc(10, terminalWait, { wait: 'lock' });
  test('a member that conversed at an earlier look converses while bytes move', () => {
    assert.deepEqual(judge([agent], since({ conversed: new Set([10]) })), working('network'));
    assert.deepEqual(judge([agent], since({ conversed: new Set([10]), quietMs: 1500 })), idle);
  });
  test('without it, the look alone says the terminal: the wrong idle mid-stream', () => {
    assert.deepEqual(judge([agent]), idle);
    assert.deepEqual(judge([agent], since({ conversed: new Set([99]) })), idle);
  });
});

describe('lastDataAt: when bytes last moved on TCP connections (TCP_INFO, ADR 0061)', () => {
  const t = (lastSendMs: number, lastReceiveMs: number): TcpTimes => ({ lastSendMs, lastReceiveMs, bytesSent: 10, bytesReceived: 10 });
  test('the newest move on any socket, sent or received, from the time the table was read', () => {
    assert.equal(lastDataAt([t(5000, 300)], 10_000), 9700);
    assert.equal(lastDataAt([t(5000, 4000), t(200, 9000)], 10_000), 9800);
  });
  test('a keep-alive connection at rest: its last bytes long ago, whatever woke its thread', () => {
    assert.equal(lastDataAt([t(60_000, 60_000)], 100_000), 40_000);
  });
  test('no socket: null', () => {
    assert.equal(lastDataAt([], 10_000), null);
  });
});
