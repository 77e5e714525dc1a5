import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { judgeForeground, type ProcessSample, type Since, type ThreadSample, type WorkingReason } from '../../src/core/activity.js';
import { CPU_BLIP_LOOKS, CPU_BLIP_MS, holdBlip, nextStreak, type CpuStreak } from '../../src/core/cpu-blip.js';
import { decodeSyscall, targetOf, waitKind } from '../../src/core/waits.js';

/** The rules of ADR 0048, as data: evidence that follows the work. */

function proc(pid: number, ...threads: Partial<ThreadSample>[]): ProcessSample {
  return { pid, comm: 'prog', ticks: 0, threads: threads.map((t, i) => ({ tid: pid + i, state: 'S', wait: 'unknown', on: null, ticks: 0, ...t })) };
}
const first: Since = { ticks: null, elapsedMs: 250, quietMs: 0 };
const quiet: Since = { ticks: null, elapsedMs: 250, quietMs: 5000 };
const judge = (procs: ProcessSample[], since = first) => judgeForeground(procs, since).activity;
const idle = { verdict: 'input', reason: 'reading the terminal' } as const;
const working = (reason: WorkingReason) => ({ verdict: 'working', reason }) as const;

describe('a listening socket in the same wait as the terminal (a), ADR 0048', () => {
  test("is not serving: Codex's TUI listens on a port of its own and waits for you", () => {
    assert.deepEqual(judge([proc(10, { wait: 'descriptors', on: ['terminal', 'listening', 'other'] })]), idle);
    // with its API connection open too: a conversation, idle once quiet
    assert.deepEqual(judge([proc(10, { wait: 'descriptors', on: ['terminal', 'listening', 'socket'] })], quiet), idle);
  });
  test('a listening socket without the terminal still serves', () => {
    assert.deepEqual(judge([proc(10, { wait: 'descriptors', on: ['listening', 'pipe'] })]), working('serving'));
  });
});

describe('a socket or pty whose other end is a process of the session (b, c)', () => {
  test("Gemini's relaunch: the parent waits on a socket to its child, which reads the terminal: idle", () => {
    const parent = proc(10, { wait: 'descriptors', on: ['peer', 'pipe', 'other'] });
    const child = proc(20, { wait: 'descriptors', on: ['terminal', 'peer'] });
    assert.deepEqual(judge([parent, child]), idle);
  });
  test("Gemini's relaunch parent has a timer pending (node's epoll_wait with a time limit): still its child decides, ADR 0062", () => {
    const parent = proc(10, { wait: 'descriptors', on: ['pipe', 'other', 'peer', 'other'], timed: true });
    const child = proc(20, { wait: 'descriptors', on: ['terminal', 'pipe', 'other'], timed: true });
    assert.deepEqual(judge([parent, child]), idle);
    assert.deepEqual(judge([parent, proc(20, { state: 'R' })]), working('cpu'));
    assert.deepEqual(judge([proc(10, { wait: 'descriptors', on: ['peer', 'timer'] }), child]), idle);
    // alone: a wait on another process of the session; a timer on its own pipes still sleeps
    assert.deepEqual(judge([parent]), working('child'));
    assert.deepEqual(judge([proc(10, { wait: 'descriptors', on: ['pipe', 'other'], timed: true }), child]), working('sleeping'));
  });
  test('the same parent with a socket to the outside is on the network, as before', () => {
    assert.deepEqual(judge([proc(10, { wait: 'descriptors', on: ['socket'] }), proc(20, { wait: 'descriptors', on: ['terminal'] })]), working('network'));
  });
  test('a wait on peers only: the peer decides; alone, working (child)', () => {
    assert.deepEqual(judge([proc(10, { wait: 'descriptors', on: ['peer'] }), proc(20, { wait: 'timer' })]), working('sleeping'));
    assert.deepEqual(judge([proc(10, { wait: 'descriptors', on: ['peer'] })]), working('child'));
  });
  test('a tool on a pty of its own: its work counts; the parent copying the terminal does not hide it', () => {
    const parent = proc(10, { wait: 'descriptors', on: ['terminal', 'other'] }); // the session's terminal and the tool's master
    assert.deepEqual(judge([parent, proc(20, { wait: 'timer' })]), working('sleeping'));
    assert.deepEqual(judge([parent, proc(20, { state: 'R' })]), working('cpu'));
    // the tool waiting on its own pty waits on its parent, not on you
    assert.deepEqual(judge([proc(20, { wait: 'descriptors', on: ['peer'] })]), working('child'));
  });
  test('targetOf: a pty not the session\'s is a peer; a socket to the same process is plumbing, to another of the session a peer', () => {
    const ours = (l: string) => l === '/dev/pts/3';
    assert.equal(targetOf('/dev/pts/3', { ours }), 'terminal');
    assert.equal(targetOf('/dev/pts/9', { ours }), 'peer');
    assert.equal(targetOf('socket:[5]', { peer: () => 'self' }), 'other'); // asyncio's self-pipe
    assert.equal(targetOf('socket:[5]', { peer: () => 'session' }), 'peer');
    assert.equal(targetOf('socket:[5]', { peer: () => 'outside' }), 'socket');
    assert.equal(targetOf('socket:[5]', { listening: () => true, peer: () => 'session' }), 'listening');
  });
  test("asyncio awaiting stdin: the terminal and its self-pipe (plumbing) is the terminal alone: idle at once", () => {
    assert.deepEqual(judge([proc(10, { wait: 'descriptors', on: ['terminal', 'other', 'other'], timed: true })]), idle);
  });
});

describe('a thread receiving on a socket while the main thread reads the terminal (d)', () => {
  const streaming = proc(10, { wait: 'descriptors', on: ['terminal', 'pipe'] }, { wait: 'descriptors', on: ['socket'] });
  test('bytes arriving (or its socket thread waking) within a second: working (network)', () => {
    assert.deepEqual(judge([streaming], first), working('network'));
  });
  test('quiet for a second, nothing awaited: idle', () => {
    assert.deepEqual(judge([streaming], quiet), idle);
  });
  test('recv() in a thread is a socket wait too', () => {
    assert.deepEqual(decodeSyscall('x64', '45 0x5 0x7f00 0x64 0x0 0x0 0x0 0x7ffd 0x7f00'), { call: 'read', fd: 5, timed: false });
  });
  test('a thread on a timer beside the main thread on the terminal says nothing more (its process is idle)', () => {
    assert.deepEqual(judge([proc(10, { wait: 'descriptors', on: ['terminal'] }, { wait: 'unknown' })]), idle);
  });
});

describe('a request awaiting its reply (f)', () => {
  const conversing = proc(10, { wait: 'descriptors', on: ['terminal', 'socket'] });
  test('quiet, but the request has had no reply: working (network); answered: idle', () => {
    assert.deepEqual(judge([conversing], { ...quiet, awaitingReply: () => true }), working('network'));
    assert.deepEqual(judge([conversing], { ...quiet, awaitingReply: () => false }), idle);
  });
  test('asked only when the quiet time alone would make it idle', () => {
    let asked = 0;
    judge([conversing], { ...first, awaitingReply: () => (asked++, true) });
    assert.equal(asked, 0);
  });
});

describe('locks, named pipes and writes blocked on the terminal (f)', () => {
  test('flock and fcntl waits are locks (x64 73/72, arm64 32/25; their wait channels)', () => {
    assert.deepEqual(decodeSyscall('x64', '73 0x3 0x2 0x0 0x0 0x0 0x0 0x7ffd 0x7f00'), { call: 'other', wait: 'lock' });
    assert.deepEqual(decodeSyscall('x64', '72 0x4 0x7 0x7ffd 0x0 0x0 0x0 0x7ffd 0x7f00'), { call: 'other', wait: 'lock' });
    assert.deepEqual(decodeSyscall('arm64', '32 0x3 0x2 0x0 0x0 0x0 0x0 0x7ffd 0x7f00'), { call: 'other', wait: 'lock' });
    assert.equal(waitKind('locks_lock_inode_wait'), 'lock');
    assert.equal(waitKind('fcntl_setlk'), 'lock');
    assert.deepEqual(judge([proc(10, { wait: 'lock' })]), working('lock'));
  });
  test('a named pipe: its path is a FIFO; the wait channel anon_pipe_read', () => {
    assert.equal(targetOf('/tmp/x/fifo', { fifo: () => true }), 'pipe');
    assert.equal(targetOf('/tmp/x/file', { fifo: () => false }), 'other');
    assert.equal(waitKind('anon_pipe_read'), 'pipe');
    assert.deepEqual(judge([proc(10, { wait: 'descriptors', on: ['pipe'] })]), working('pipe'));
  });
  test('write() blocked on the terminal is output, never reading the terminal (yes, seq, find /)', () => {
    assert.deepEqual(decodeSyscall('x64', '1 0x1 0x55b0 0x2000 0x0 0x0 0x0 0x7ffd 0x7f00'), { call: 'write', fd: 1 });
    assert.deepEqual(decodeSyscall('x64', '20 0x2 0x55b0 0x2 0x0 0x0 0x0 0x7ffd 0x7f00'), { call: 'write', fd: 2 });
    assert.deepEqual(decodeSyscall('arm64', '64 0x1 0x55b0 0x2000 0x0 0x0 0x0 0x7ffd 0x7f00'), { call: 'write', fd: 1 });
    assert.equal(waitKind('n_tty_write'), 'write');
    assert.deepEqual(judge([proc(10, { wait: 'write', on: ['terminal'] })]), working('output'));
    assert.deepEqual(judge([proc(10, { wait: 'write', on: null })]), working('output'));
    // beside a program reading the terminal, the writer still works
    assert.deepEqual(judge([proc(10, { wait: 'write', on: ['terminal'] }), proc(20, { wait: 'descriptors', on: ['terminal'] })]), working('output'));
    // `yes | less`: yes blocked on the pipe, less on the terminal: idle
    assert.deepEqual(judge([proc(10, { wait: 'write', on: ['pipe'] }), proc(20, { wait: 'descriptors', on: ['terminal'] })]), idle);
    assert.deepEqual(judge([proc(10, { wait: 'write', on: ['socket'] })]), working('network'));
  });
});

describe('a blip of CPU at an idle prompt (e)', () => {
  const cpu = { verdict: 'working', reason: 'cpu' } as const;
  const at = (since: number, looks: number): CpuStreak => ({ since, looks });
  test('the streak starts with cpu and ends with anything else', () => {
    assert.deepEqual(nextStreak(undefined, cpu, 100), at(100, 1));
    assert.deepEqual(nextStreak(at(100, 1), cpu, 350), at(100, 2));
    assert.equal(nextStreak(at(100, 2), { verdict: 'input', reason: 'reading the terminal' }, 600), undefined);
    assert.equal(nextStreak(at(100, 2), { verdict: 'working', reason: 'sleeping' }, 600), undefined);
  });
  test('held as the prompt while shorter than CPU_BLIP_MS or fewer than CPU_BLIP_LOOKS looks', () => {
    assert.deepEqual(holdBlip('idle', cpu, at(0, 1), 'reading the terminal', 0), idle);
    assert.deepEqual(holdBlip('idle', cpu, at(0, 5), 'at prompt', CPU_BLIP_MS - 1), { verdict: 'input', reason: 'at prompt' });
    // a daemon that stalled: two looks a second apart are not work yet
    assert.deepEqual(holdBlip('idle', cpu, at(0, CPU_BLIP_LOOKS - 1), 'reading the terminal', 5 * CPU_BLIP_MS), idle);
  });
  test('work that lasts turns the session working', () => {
    assert.deepEqual(holdBlip('idle', cpu, at(0, CPU_BLIP_LOOKS), 'reading the terminal', CPU_BLIP_MS), cpu);
  });
  test('never for a session that is working (input was sent), nor one not seen at a prompt', () => {
    assert.deepEqual(holdBlip('working', cpu, at(0, 1), 'reading the terminal', 0), cpu);
    assert.deepEqual(holdBlip('idle', cpu, at(0, 1), undefined, 0), cpu);
  });
  test('other evidence is never held', () => {
    assert.deepEqual(holdBlip('idle', working('output'), at(0, 1), 'reading the terminal', 0), working('output'));
  });
});
