/**
 * What the kernel says the terminal's foreground processes are doing (src/guides/statuses.md, ADR
 * 0015): pure rules over samples that `process/foreground.ts` reads from /proc. They tell "waiting
 * for you" (blocked on the terminal alone) from "busy but quiet" (computing in any thread,
 * sleeping on a timer, serving, following files, on the network, on the disk), which the screen
 * alone cannot.
 */
import type { Target, WaitKind } from './waits.js';
import type { WorkingReason } from './working-reasons.js';

/** One thread of a process of the foreground group, as read from /proc. */
export interface ThreadSample {
  tid: number;
  /** Scheduler state: R running, S sleeping, D disk, T stopped, Z zombie, … */
  state: string;
  /** What its wait channel and blocking call say it waits on (a resumed call: the wait it resumed). */
  wait: WaitKind;
  /** For a `descriptors` wait, the kinds of the descriptors it waits on; null when they could not be read. */
  on: Target[] | null;
  /** For a `descriptors` wait, it has a time limit (a timer of its own). */
  timed?: boolean;
  /** CPU ticks (utime + stime) it used so far. */
  ticks: number;
  /** A main thread found on a lock, taken as still on the terminal where the look before found it (ADR 0061). */
  held?: boolean;
}

/** One process of the terminal's foreground group. */
export interface ProcessSample {
  pid: number;
  /** Its command name (`comm`). */
  comm: string;
  /** CPU ticks of all its threads so far, those that ended included. */
  ticks: number;
  threads: ThreadSample[];
}

/** Why a session is working or idle, from its foreground processes; `unknown` leaves it to the screen. */
export type Activity =
  | { verdict: 'working'; reason: WorkingReason }
  | { verdict: 'input'; reason: 'reading the terminal' | 'at prompt' }
  | { verdict: 'unknown' };

export type { WorkingReason } from './working-reasons.js';

/** CPU ticks per process and per thread, as one look found them. */
export type Ticks = { procs: ReadonlyMap<number, number>; threads: ReadonlyMap<number, number> };

/** What the previous look saw, and what happened since (kept per session by the caller). */
export interface Since {
  /** CPU ticks per process and per thread at the previous look of the same group; null on the first look. */
  ticks: Ticks | null;
  /** The ticks at the look that last found a burst of CPU at an idle prompt going on (ADR 0048 amended); absent: none timed. */
  burst?: Ticks;
  /** Time since the previous look. */
  elapsedMs: number;
  /** Time since bytes last arrived or were printed (the group's rchar, the session's log); 0 when just now. */
  quietMs: number;
  /**
   * Whether a program on the terminal and a TCP socket sent a request that has had no reply yet
   * (TCP_INFO, ADR 0048); asked only when the quiet time alone would make it idle. Absent: no.
   */
  awaitingReply?: () => boolean;
  /**
   * Members an earlier look found conversing that still hold a TCP connection (ADR 0061): a thread
   * of theirs on the terminal is in the conversation even when this look did not find the other
   * thread waiting on its socket (it was handing a chunk over). Absent: none.
   */
  conversed?: ReadonlySet<number>;
}

/** Linux reports CPU time in ticks of 1/100 s (USER_HZ) whatever the kernel's own HZ. */
export const MS_PER_TICK = 10;
/** The share of one CPU since the last look that makes a group `cpu`: a real share, not a redraw or a timer tick. */
const CPU_SHARE = 0.05;
/**
 * How long a program on both the terminal and a socket must see nothing arrive (and print nothing)
 * to be waiting for you: two quick looks. The agent CLIs print while they stream (the longest quiet
 * traced inside a stream: 250 ms, Claude Code; 32 ms, Gemini CLI), ADR 0061 amended.
 */
export const QUIET_MS = 500;

/**
 * What one thread's wait says, before the group's threads are weighed together. `peer`: a wait on
 * another process of the session (a socket to it, a pty of a tool's own), which is judged itself.
 */
type ThreadVerdict = WorkingReason | 'terminal' | 'conversing' | 'peer' | 'unknown';

const FROM_WAIT: Partial<Record<WaitKind, ThreadVerdict>> = {
  timer: 'sleeping', accept: 'serving', network: 'network', disk: 'disk', children: 'child', pipe: 'pipe', lock: 'lock',
};

/**
 * A wait on descriptors: the terminal alone is a program waiting for you, also beside a listening
 * socket of its own (Codex's TUI, ADR 0048) or an inotify watch (a watcher's keys, ADR 0061); the
 * terminal with a socket a conversation (decided by whether bytes arrive); an inotify watch without
 * the terminal a follower; a listening socket a server; a socket alone a client waiting for an
 * answer; else a peer (a socket to another process of the session) defers to that process, with or
 * without a time limit (ADR 0062); else a time limit (or a timerfd) is a timer and a pipe what it
 * says. Eventfds, signalfds, files and sockets to the same process are a
 * program's own plumbing and say nothing.
 */
export function descriptorVerdict(on: readonly Target[], timed = false): ThreadVerdict {
  // The terminal outranks every other descriptor in the same wait (ADR 0061): an inotify watch
  // beside it is a watcher with keys, which waits for you between changes.
  if (on.includes('terminal')) return on.includes('socket') ? 'conversing' : 'terminal';
  if (on.includes('listening')) return 'serving';
  if (on.includes('inotify')) return 'watching files';
  if (on.includes('socket')) return 'network';
  // A time limit beside another process of the session is that process's business, which is
  // judged itself (Gemini's relaunch parent: a timer pending while it waits on its child, ADR 0062).
  if (on.includes('peer')) return 'peer';
  // An event loop's own pipes and eventfds with a time limit: it waits for its timer.
  if (timed || on.includes('timer')) return 'sleeping';
  if (on.includes('pipe')) return 'pipe';
  return 'unknown';
}

/**
 * A write that blocks until the other end takes more: the terminal is `output` (tmux drains slower
 * than `yes` prints: never "reading the terminal"), a pipe or a socket what they are, a pty of a
 * tool's own its parent's business. Unreadable (the wait channel alone): the terminal's writer.
 */
export function writeVerdict(on: readonly Target[] | null): ThreadVerdict {
  if (!on || on.includes('terminal')) return 'output';
  if (on.includes('socket')) return 'network';
  if (on.includes('pipe')) return 'pipe';
  if (on.includes('peer')) return 'peer';
  return 'unknown';
}

function threadVerdict(t: ThreadSample): ThreadVerdict {
  if (t.state === 'R') return 'cpu';
  if (t.state === 'D') return 'disk';
  if (t.state !== 'S') return 'unknown';
  if (t.wait === 'descriptors') return t.on ? descriptorVerdict(t.on, t.timed) : 'unknown';
  if (t.wait === 'write') return writeVerdict(t.on);
  return FROM_WAIT[t.wait] ?? 'unknown';
}

/**
 * Whether a sleeping main thread's wait settles what its process does, so that its other threads
 * need only their state and CPU ticks (R, D, ticks decide whatever the main thread waits on):
 * not for a wait on a lock, a child, a pipe or an unknown channel (python's `join()`, a JVM's
 * launcher), where another thread holds the real wait.
 */
export function settles(t: Pick<ThreadSample, 'state' | 'wait' | 'on' | 'timed'>): boolean {
  const v = threadVerdict({ tid: 0, ticks: 0, ...t });
  return v !== 'lock' && v !== 'child' && v !== 'pipe' && v !== 'peer' && v !== 'unknown';
}

/**
 * Whether a thread waits on the terminal alone: its process's other threads are read too, for one
 * that receives on a socket meanwhile (Claude Code's HTTP client, ADR 0048).
 */
export function onTerminal(t: Pick<ThreadSample, 'state' | 'wait' | 'on' | 'timed'>): boolean {
  return threadVerdict({ tid: 0, ticks: 0, ...t }) === 'terminal';
}

/**
 * A main thread `now` on a lock (a futex: it waits a moment for a thread of its own) where the
 * previous look found it on the terminal (`before`): taken as still on the terminal for this one
 * look, so that its helper threads (an inotify watcher: Claude Code's `fs.watch` thread) do not
 * decide what it does (ADR 0061). Not twice in a row: a lock found at two looks is judged as such.
 */
export function heldOnTerminal(now: ThreadSample, before: ThreadSample | undefined): ThreadSample {
  if (now.state !== 'S' || now.wait !== 'lock' || !before || before.held || !onTerminal(before)) return now;
  return { ...now, wait: before.wait, on: before.on, timed: before.timed, held: true };
}

/**
 * Whether a thread waits on another process of the session (a socket or pty to it) and nothing
 * the rules name: its process defers to that process, and its other threads say only their state,
 * CPU ticks and socket waits, as beside the terminal (node's timer thread beside Gemini's
 * relaunch parent, ADR 0062).
 */
export function onPeer(t: Pick<ThreadSample, 'state' | 'wait' | 'on' | 'timed'>): boolean {
  return threadVerdict({ tid: 0, ticks: 0, ...t }) === 'peer';
}

/** A thread waiting on a socket: the network, as a client. */
export function onSocket(t: Pick<ThreadSample, 'state' | 'wait' | 'on' | 'timed'>): boolean {
  return threadVerdict({ tid: 0, ticks: 0, ...t }) === 'network';
}

/** Busy reasons first, strongest first; then the terminal; then waits on other processes. */
const RANK: ThreadVerdict[] = ['cpu', 'disk', 'output', 'serving', 'watching files', 'network', 'sleeping', 'terminal', 'conversing', 'pipe', 'peer', 'child', 'lock'];

/** CPU ticks the group used since a look (`ticks`), but for threads now waiting on the terminal alone (their redraw). */
function ticksUsed(procs: readonly ProcessSample[], ticks: Ticks | null, verdicts: Map<number, ThreadVerdict>): number {
  if (!ticks) return 0;
  let used = 0;
  for (const p of procs) {
    const before = ticks.procs.get(p.pid);
    if (before === undefined) continue;
    used += p.ticks - before;
    for (const t of p.threads) {
      const tb = ticks.threads.get(t.tid);
      if (verdicts.get(t.tid) === 'terminal' && tb !== undefined) used -= t.ticks - tb;
    }
  }
  return used;
}

/** The judgement and the process that decided it (for `foreground`). */
export interface Judgement {
  activity: Activity;
  /** The member using the CPU, else the one on the terminal, else the one whose wait decided; null: none. */
  pid: number | null;
  /** For a `cpu` verdict with `since.burst`: the ticks used since that look, and whether a thread runs now (ADR 0048 amended). */
  burst?: { used: number; running: boolean };
}

/** Whether `used` ticks over `elapsedMs` are a real share of a core (CPU_SHARE), not a redraw or a timer tick. */
export function usedCpu(used: number, elapsedMs: number): boolean {
  return used > 0 && used * MS_PER_TICK >= CPU_SHARE * elapsedMs;
}

/**
 * Judges the terminal's foreground group from every thread of every member (src/guides/statuses.md):
 * 1. a thread running (R), in disk wait (D), or CPU used by the group since the last look (at
 *    least 5 % of a core): working, `cpu`/`disk`, whatever the others wait on;
 * 2. a thread blocked printing to the terminal, serving, following files, on the network,
 *    sleeping on a timer: working;
 * 3. a thread waiting on the terminal alone: input, at once, time limit or not (`at prompt` for
 *    the session's own shell, `shellPid`);
 * 4. a thread waiting on the terminal and a socket (or one thread on the terminal while another
 *    waits on a socket, or did at an earlier look and its connection lives: `since.conversed`):
 *    input once nothing arrived for QUIET_MS and no request awaits its reply, else working,
 *    `network`;
 * 5. waits on a pipe, another process of the session, a child, a lock: working with that reason;
 * 6. else unknown: the screen decides.
 */
export function judgeForeground(procs: readonly ProcessSample[], since: Since, shellPid: number | null = null): Judgement {
  const verdicts = new Map<number, ThreadVerdict>();
  const owner = new Map<ThreadVerdict, number>();
  for (const p of procs) {
    const own = p.threads.map(threadVerdict);
    // One thread on the terminal while another receives on a socket: the process converses (ADR 0048).
    if (own.includes('terminal') && (own.includes('network') || since.conversed?.has(p.pid))) for (let i = 0; i < own.length; i++) if (own[i] === 'terminal' || own[i] === 'network') own[i] = 'conversing';
    p.threads.forEach((t, i) => {
      const v = own[i]!;
      verdicts.set(t.tid, v);
      if (!owner.has(v)) owner.set(v, p.pid);
    });
  }
  const busiest = busiestMember(procs, since);
  const used = ticksUsed(procs, since.ticks, verdicts);
  if (owner.has('cpu') || usedCpu(used, since.elapsedMs)) {
    const burst = since.burst && { used: since.burst === since.ticks ? used : ticksUsed(procs, since.burst, verdicts), running: owner.has('cpu') };
    return { activity: { verdict: 'working', reason: 'cpu' }, pid: busiest ?? owner.get('cpu') ?? null, ...(burst && { burst }) };
  }
  for (const v of RANK) {
    const pid = owner.get(v);
    if (pid === undefined) continue;
    if (v === 'terminal') return { activity: { verdict: 'input', reason: pid === shellPid ? 'at prompt' : 'reading the terminal' }, pid };
    if (v === 'conversing') {
      const quiet = since.quietMs >= QUIET_MS && !(since.awaitingReply?.() ?? false);
      return { activity: quiet ? { verdict: 'input', reason: 'reading the terminal' } : { verdict: 'working', reason: 'network' }, pid };
    }
    // A wait on another process of the session only: that process waits on something no rule names.
    return { activity: { verdict: 'working', reason: v === 'peer' ? 'child' : (v as WorkingReason) }, pid };
  }
  return { activity: { verdict: 'unknown' }, pid: null };
}

/**
 * The member doing the work: of those that used CPU since the last look (or run now), the one
 * with the most since then plus an eighth of all it ever used, so that in `head | xz` the
 * compressor is named at every look, not the copier that had a busier quarter second. A member
 * that appeared since the last look used all its ticks since then (not a just-forked bash that
 * has yet to exec). null when none used any.
 */
function busiestMember(procs: readonly ProcessSample[], since: Since): number | null {
  let best: number | null = null;
  let most = 0;
  for (const p of procs) {
    const before = since.ticks ? (since.ticks.procs.get(p.pid) ?? 0) : undefined;
    const recent = (before === undefined ? 0 : p.ticks - before) + (p.threads.some((t) => t.state === 'R') ? 0.5 : 0);
    if (recent <= 0) continue;
    const score = recent + p.ticks / 8;
    if (score > most) [best, most] = [p.pid, score];
  }
  return best;
}

/** Names of the plumbing a job runs through, never what a person would call the foreground command. */
const PLUMBING = new Set(['bash', 'sh', 'tee', 'split', 'timeout']);

/**
 * The command name a person would give the foreground (`foreground` in the API): the member using
 * the CPU, else the one on the terminal, else the first that is not plumbing (bash, tee, …), else
 * the first. null when the session's own shell is the foreground, and for no member.
 */
export function foregroundName(procs: readonly ProcessSample[], j: Judgement, shellPid: number): string | null {
  const members = procs.filter((p) => p.pid !== shellPid);
  const decided = j.activity.verdict === 'input' || (j.activity.verdict === 'working' && j.activity.reason === 'cpu');
  const named = decided ? members.find((p) => p.pid === j.pid) : undefined;
  return (named ?? members.find((p) => !PLUMBING.has(p.comm)) ?? members[0])?.comm ?? null;
}
