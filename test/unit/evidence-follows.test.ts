import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { judgeForeground, type Activity, type ProcessSample, type Since, type ThreadSample, type WorkingReason } from '../../src/core/activity.js';
import { BURST_GAP_MS, CPU_BLIP_LOOKS, CPU_BLIP_MS, holdBlip, nextStreak, type CpuStreak } from '../../src/core/cpu-blip.js';
import { decodeSyscall, targetOf, waitKind } from '../../src/core/waits.js';
import { tickBase, type TickBase } from '../../src/core/look-pace.js';

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
  const none = { procs: new Map<number, number>(), threads: new Map<number, number>() };
  const at = (since: number, looks: number, last = since): CpuStreak => ({ since, looks, at: last, ticks: none });
  /** A look that found `used` ticks since `from`, a thread running or not. */
  const look = (used: number | undefined, from: number, running = true) => ({ ticks: none, from, burst: used === undefined ? undefined : { used, running } });
  test('the streak starts with cpu used and ends with anything else', () => {
    assert.deepEqual(nextStreak(undefined, cpu, 100, look(3, -150)), at(100, 1));
    assert.equal(nextStreak(at(100, 2), { verdict: 'input', reason: 'reading the terminal' }, 600, look(undefined, 100)), undefined);
    assert.equal(nextStreak(at(100, 2), { verdict: 'working', reason: 'sleeping' }, 600, look(undefined, 100)), undefined);
  });
  test('a thread runnable with no tick used yet starts nothing', () => {
    assert.equal(nextStreak(undefined, cpu, 100, look(0, -150)), undefined);
  });
  test('a look that finds the burst going on extends it; one sooner than BURST_GAP_MS leaves it as it is', () => {
    // 25 ticks (250 ms of CPU) over 500 ms: going on
    assert.deepEqual(nextStreak(at(100, 1), cpu, 600, look(25, 100)), at(100, 2, 600));
    assert.deepEqual(nextStreak(at(100, 1), cpu, 100 + BURST_GAP_MS - 1, look(0, 100)), at(100, 1));
  });
  test('a look with no thread running goes on only with BURST_SHARE of a core used since the last', () => {
    assert.deepEqual(nextStreak(at(100, 1), cpu, 600, look(25, 100, false)), at(100, 2, 600));
    assert.equal(nextStreak(at(100, 1), cpu, 600, look(24, 100, false)), undefined);
    // nor does it start one: CPU a long window found, with nothing running now, is a burst's tail
    assert.equal(nextStreak(undefined, cpu, 2000, look(24, 100, false)), undefined);
  });
  test('a look BURST_GAP_MS or more later that finds no real share of CPU since ends it', () => {
    assert.equal(nextStreak(at(100, 2, 500), cpu, 500 + BURST_GAP_MS, look(0, 500)), undefined);
    // 1 tick (10 ms) over 800 ms is a timer, not a burst going on
    assert.equal(nextStreak(at(100, 2, 500), cpu, 1300, look(1, 500)), undefined);
  });
  // The daemon's looks at the truth table's blip program (0.4 s of CPU every 2 s) beside 20 busy
  // loops and 200 other sessions on 2 cores (AMUX_LOOK_TRACE): [ms, its thread's state, its
  // ticks]. The old rule made each `working (cpu)` at the last look.
  const traced: [number, 'R' | 'S', number][][] = [
    // the first look's 1.8 s window held the tail of one blip; the look at 4742 found the next starting
    [[2136, 'S', 397], [3945, 'S', 421], [4006, 'S', 421], [4742, 'R', 421], [5000, 'R', 434], [5491, 'S', 441], [5631, 'S', 441], [5749, 'S', 441]],
    // the daemon looked nowhere for 1.9 s: the rest of one blip in that window, then the next
    [[800, 'R', 380], [1063, 'R', 400], [2955, 'S', 424], [3011, 'S', 424], [3515, 'R', 427], [4000, 'S', 446], [4242, 'S', 446]],
    // looks a quick look apart whose windows reached back to the last blip, then a blip of 0.5 s
    [[2300, 'S', 1240], [2519, 'S', 1262], [2746, 'S', 1262], [2995, 'S', 1262], [3250, 'R', 1264], [3501, 'R', 1282], [3752, 'S', 1292], [4000, 'S', 1292]],
  ];
  /** Plays looks at one python process (a thread on the terminal, the blip's thread) as the daemon makes them; the verdict of each once held. */
  function play(looks: [number, 'R' | 'S', number][]): Activity[] {
    const found = (ticks: number) => ({ procs: new Map([[10, ticks]]), threads: new Map([[10, 10], [11, ticks - 10]]) });
    const QUICK_MS = 250; // the quick look's interval: a look sooner than it after the last measures from that one's base
    const [[t0, , k0]] = looks as [[number, 'R' | 'S', number]];
    let last: TickBase & { base?: TickBase } = { at: t0, ...found(k0) };
    let streak: CpuStreak | undefined;
    return looks.slice(1).map(([now, state, ticks]) => {
      const base = tickBase(last, now, QUICK_MS)!;
      const p: ProcessSample = { pid: 10, comm: 'python3', ticks, threads: [
        { tid: 10, state: 'S', wait: 'descriptors', on: ['terminal'], ticks: 10 },
        { tid: 11, state, wait: 'timer', on: null, timed: true, ticks: ticks - 10 },
      ] };
      const j = judgeForeground([p], { ticks: base, elapsedMs: Math.max(now - base.at, QUICK_MS), quietMs: 0, burst: streak?.ticks ?? base });
      streak = nextStreak(streak, j.activity, now, { ticks: found(ticks), from: streak?.at ?? base.at, burst: j.burst });
      last = { at: now, ...found(ticks), base };
      return holdBlip('idle', j.activity, streak, 'reading the terminal', now);
    });
  }
  test('a blip every 2 s on a machine so busy the looks came late stays a blip (traced)', () => {
    for (const looks of traced) assert.deepEqual(play(looks), looks.slice(1).map(() => idle), JSON.stringify(looks));
  });
  test('a burst that goes on turns working once it used CPU over CPU_BLIP_MS, looks a quick look or a second apart', () => {
    // runnable at the first look after the baseline, a tick every 10 ms from then on
    const burst = (every: number, n: number) => Array.from({ length: n }, (_, i) => [i * every, 'R', 100 + (Math.max(0, i - 1) * every) / 10] as [number, 'R', number]);
    assert.deepEqual(play(burst(250, 7)).map((a) => a.verdict), ['input', 'input', 'input', 'input', 'input', 'working']);
    assert.deepEqual(play(burst(1000, 5)).map((a) => a.verdict), ['input', 'input', 'input', 'working']);
  });
  test('held as the prompt while shorter than CPU_BLIP_MS or fewer than CPU_BLIP_LOOKS looks', () => {
    assert.deepEqual(holdBlip('idle', cpu, at(0, 1), 'reading the terminal', 0), idle);
    // no streak: runnable with no tick used yet, or the tail of a burst that stopped
    assert.deepEqual(holdBlip('idle', cpu, undefined, 'reading the terminal', 0), idle);
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
