import { readdirSync } from 'node:fs';
import { readProc } from './proc-read.js';
import { heldOnTerminal, onPeer, onSocket, onTerminal, settles, type ProcessSample, type ThreadSample } from '../core/activity.js';
import { decodeSyscall, waitKind, type Target, type WaitKind } from '../core/waits.js';
import { openTargets, unsureCount, waitTargets, type Scope } from './descriptors.js';
import { procStat, STAT } from './process-table.js';
import { scopeOf, trafficOf, unrunThreads } from './look-scope.js';
import { addMark, canReuse, newMarks, REUSE_MAX_MS, type RunMarks } from './run-marks.js';

/** The terminal's foreground process group of a session, as the kernel shows it (ADR 0015). */
export interface Foreground {
  /** The group that owns the terminal (`tpgid`). */
  pgid: number;
  /**
   * Its processes that descend from the session's shell (the shell itself when it owns the
   * terminal), parents first; with every descendant of theirs, whatever group or terminal it has
   * (a tool on a pty of its own is the session's work, ADR 0048).
   */
  procs: ProcessSample[];
  /**
   * The traffic so far of the members that converse (wait on the terminal and a socket, in one
   * thread or two): bytes read (`rchar` of `/proc/PID/io`) plus the times their socket threads
   * woke (schedstat timeslices: `recv()` is not in rchar); null when none converses (only then is
   * it read).
   */
  rchar: number | null;
  /** The members that converse, whose TCP sockets may await a reply (ADR 0048). */
  conversing: number[];
  /** The shell looked at, whether a job of amux ran, and when: what a reuse must match (ADR 0041). */
  shell: number;
  jobRunning: boolean;
  readAt: number;
  /** The schedstat of every thread of the shell and its descendants before this look read them; null: not reusable. */
  marks: RunMarks | null;
}

/** A small /proc file, through the one reused buffer (ADR 0038). */
const read = readProc;

/**
 * The last wait seen per thread, for the one a stopped and continued program resumes: the kernel
 * then shows `restart_syscall` and no wait channel of its own (`amux pause`, then `resume`).
 */
const lastWaits = new Map<number, Wait & { at: number }>();
type Wait = { wait: WaitKind; on: Target[] | null; timed?: boolean };
/** A thread `stat` showed asleep that runs by the time its system call is read. */
const RAN = 'ran' as const;

/**
 * What a sleeping thread waits on: its blocking system call, and for a wait on descriptors what
 * they are; the wait channel when the call is unreadable (another user's process, Yama) or
 * outside the table, and then every descriptor it has open stands in for those it waits on.
 */
function waitOf(pid: number, task: string, tid: number, arch: string, scope?: Scope): Wait | typeof RAN {
  const line = read(`${task}/syscall`);
  const call = decodeSyscall(arch, line);
  if (call) {
    switch (call.call) {
      // It woke between the two reads: running, not an unknown wait. `yes` beside a busy tmux shows
      // this at about one read in thirty; taken as unknown, the screen decided, and `yes`'s screen
      // never changes: `idle (screen stable)` for that look.
      case 'running': return RAN;
      case 'restart': return lastWaits.get(tid) ?? { wait: 'timer', on: null }; // nanosleep is what most programs resume
      case 'sleep': return remember(tid, { wait: 'timer', on: null });
      case 'other': return remember(tid, { wait: call.wait, on: null });
      case 'write': return remember(tid, { wait: 'write', on: waitTargets(pid, call, `${tid} ${line}`, scope) });
      default: return remember(tid, { wait: 'descriptors', on: waitTargets(pid, call, `${tid} ${line}`, scope), timed: call.timed });
    }
  }
  const kind = waitKind(read(`${task}/wchan`));
  if (kind === 'descriptors') return { wait: kind, on: openTargets(pid, scope) };
  return kind === 'unknown' ? { wait: kind, on: null } : remember(tid, { wait: kind, on: null });
}

function remember(tid: number, w: Wait): Wait {
  const now = Date.now();
  if (lastWaits.size > 10_000) for (const [t, v] of lastWaits) if (now - v.at > 60_000) lastWaits.delete(t);
  lastWaits.set(tid, { ...w, at: now });
  return w;
}

/** A reused look's waits stay remembered as if read again (for a `restart_syscall` after a long sleep). */
function keepWaits(procs: readonly ProcessSample[], now: number): void {
  for (const p of procs) for (const t of p.threads) {
    const w = lastWaits.get(t.tid);
    if (w) w.at = now;
  }
}

/** The previous look at a foreground group: its pgid, and its members' CPU ticks then. */
export interface Before {
  pgid: number;
  procs: ReadonlyMap<number, number>;
  /** The previous look itself, which stands for this one when none of its threads has run since (ADR 0041). */
  fg?: Foreground;
}

/** What a look knows while it reads a process's threads. */
interface Reading {
  arch: string;
  scope: Scope;
  /** The process's CPU ticks at the previous look of the same group. */
  before: number | undefined;
  /** A thread's sample at the previous look, when it has not run since (its run mark is the same). */
  unrun: (pid: number, tid: number) => ThreadSample | undefined;
  /** The main thread of `pid` at the previous look of the same group. */
  mainBefore?: (pid: number) => ThreadSample | undefined;
}

const ticksOf = (f: string[]) => Number(f[STAT.utime]) + Number(f[STAT.stime]);

/**
 * Every thread of `pid`. One thread: its process's own files. More: the main thread's own files;
 * the others' state and CPU ticks (`task/TID/stat`) unless the process used no CPU since the last
 * look (`before`, its ticks then) and the main thread's wait settles what it does; the others'
 * waits only when it does not (a main thread in `join()`), or when it waits on the terminal or on
 * another process of the session (a thread may receive on a socket meanwhile, ADR 0048; its other
 * waits say nothing then, as before; ADR 0062): then a thread that has not run since the last look is that look's sample again, and
 * only those that ran are read.
 */
function threadsOf(pid: number, fields: string[], r: Reading, tids?: string[]): ThreadSample[] {
  const sample = (tid: number, f: string[], task: string, readWait = true): ThreadSample => {
    const state = f[STAT.state]!;
    const w: Wait | typeof RAN = state === 'S' && readWait ? waitOf(pid, task, tid, r.arch, r.scope) : { wait: state === 'D' ? 'disk' : 'unknown', on: null };
    if (w === RAN) return { tid, state: 'R', wait: 'unknown', on: null, ticks: ticksOf(f) };
    return { tid, state, ...w, ticks: ticksOf(f) };
  };
  if (Number(fields[STAT.threads]) <= 1) return [sample(pid, fields, `/proc/${pid}`)];
  const own = procStat(`${pid}/task/${pid}`);
  const got = own ? sample(pid, own.fields, `/proc/${pid}/task/${pid}`) : null;
  const main = got && heldOnTerminal(got, r.mainBefore?.(pid));
  // The main thread on the terminal, or on another process of the session (ADR 0062).
  const terminal = main !== null && (onTerminal(main) || onPeer(main));
  const settled = main !== null && settles(main) && !terminal;
  if (settled && r.before === ticksOf(fields)) return [main];
  const out: ThreadSample[] = main ? [main] : [];
  for (const tid of tids ?? tasksOf(pid)) {
    if (Number(tid) === pid) continue;
    const kept = terminal ? r.unrun(pid, Number(tid)) : undefined;
    if (kept) {
      out.push(kept);
      continue;
    }
    const st = procStat(`${pid}/task/${tid}`);
    if (!st) continue;
    const t = sample(Number(tid), st.fields, `/proc/${pid}/task/${tid}`, !settled);
    // Beside a main thread on the terminal, only a socket wait says more than state and ticks.
    out.push(terminal && t.state === 'S' && !onSocket(t) ? { ...t, wait: 'unknown', on: null, timed: undefined } : t);
  }
  return out;
}

export type Stat = NonNullable<ReturnType<typeof procStat>>;

/**
 * The shell and its descendants, parents first, each with its `stat` read once: a process with one
 * thread has its children in `task/PID/children`, read without listing its tasks. Each thread's
 * run mark is read into `marks` before its stat (ADR 0041); `marks.whole` turns false when one
 * could not be read.
 */
function tree(shell: number, sh: Stat, marks: Marking): { pid: number; st: Stat; tids?: string[] }[] {
  const out: { pid: number; st: Stat; tids?: string[] }[] = [{ pid: shell, st: sh }];
  for (let i = 0; i < out.length; i++) {
    const node = out[i]!;
    const { pid, st } = node;
    let tids = [String(pid)];
    if (Number(st.fields[STAT.threads]) > 1) {
      tids = node.tids = tasksOf(pid);
      for (const tid of tids) if (Number(tid) !== pid) marks.mark(`/proc/${pid}/task/${tid}`);
    }
    for (const tid of tids) {
      for (const child of (read(`/proc/${pid}/task/${tid}/children`) ?? '').split(' ')) {
        if (!child) continue;
        marks.mark(`/proc/${child}`);
        const cst = procStat(child);
        if (cst) out.push({ pid: Number(child), st: cst });
      }
    }
  }
  return out;
}

/** Run marks being read, and whether every one could be. */
class Marking {
  readonly marks = newMarks();
  whole = true;
  mark(task: string): void {
    if (!addMark(this.marks, task)) this.whole = false;
  }
}

function tasksOf(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
}

/**
 * The foreground group of the terminal of `shell` (a session's bash): found from the shell's
 * `tpgid`, among the shell and its descendants, with no scan of /proc and no process spawned;
 * every thread of each member, and what each waits on. null when the shell is gone. `before`: the
 * previous look's group and CPU ticks per member, which spare reading idle threads again; and the
 * previous look itself, returned as it is when no thread of the shell's tree has run since
 * (ADR 0041: a thread that has not run has changed nothing a look reads), if younger than
 * `standMs` (ADR 0071: longer for a session that rests).
 */
export function readForeground(shell: number, jobRunning = true, before?: Before, standMs = REUSE_MAX_MS, arch: string = process.arch): Foreground | null {
  const now = Date.now();
  if (canReuse(before?.fg, shell, jobRunning, now, undefined, standMs)) {
    keepWaits(before!.fg!.procs, now);
    return before!.fg!;
  }
  const marking = new Marking();
  marking.mark(`/proc/${shell}`);
  const sh = procStat(shell);
  if (!sh) return null;
  const pgid = Number(sh.fields[STAT.tpgid]);
  const base = { shell, jobRunning, readAt: now };
  // When the shell owns the terminal only the shell is read, and its mark is its main thread's
  // alone: with more threads the look cannot stand for the next.
  if (pgid === shell && Number(sh.fields[STAT.threads]) > 1) marking.whole = false;
  if (pgid === shell && !jobRunning) {
    // The shell owns the terminal and runs no job of amux's: at its prompt (reading the terminal)
    // unless it computes a builtin. Its state alone tells; nothing more is read. Its one thread's
    // mark, read before its stat, lets this look stand for the next while the shell has not run.
    const state = sh.fields[STAT.state]!;
    const thread: ThreadSample = { tid: shell, state, wait: 'descriptors', on: ['terminal'], ticks: ticksOf(sh.fields) };
    return { pgid, procs: [{ pid: shell, comm: sh.comm, ticks: thread.ticks, threads: [thread] }], rchar: null, conversing: [], ...base, marks: marking.whole ? marking.marks : null };
  }
  const procs: ProcessSample[] = [];
  let rchar: number | null = null;
  const conversing: number[] = [];
  const unsureBefore = unsureCount();
  const members = pgid === shell ? [{ pid: shell, st: sh, tids: undefined }] : tree(shell, sh, marking);
  const scope = scopeOf(shell, sh, members);
  const unrun = unrunThreads(marking.marks, before?.pgid === pgid ? before.fg : undefined);
  const then = before?.pgid === pgid ? before.fg : undefined;
  const mainBefore = (pid: number) => then?.procs.find((p) => p.pid === pid)?.threads.find((t) => t.tid === pid);
  const reading = (pid: number): Reading => ({ arch, scope, before: before?.pgid === pgid ? before.procs.get(pid) : undefined, unrun, mainBefore });
  // The foreground group, and every descendant of its members whatever its group (ADR 0048).
  const inside = new Set<number>();
  for (const { pid, st, tids } of members) {
    if (Number(st.fields[STAT.pgrp]) !== pgid && !inside.has(Number(st.fields[STAT.ppid]))) continue;
    inside.add(pid);
    if (st.fields[STAT.state] === 'Z') continue;
    const threads = threadsOf(pid, st.fields, reading(pid), tids);
    procs.push({ pid, comm: st.comm, ticks: ticksOf(st.fields), threads });
    const traffic = trafficOf(pid, threads, marking.marks);
    if (traffic !== null) {
      rchar = (rchar ?? 0) + traffic;
      conversing.push(pid);
    }
  }
  // The group's last member just ended (or is a zombie) and the shell has yet to take the terminal
  // back: the shell is what runs, reaps or reads next (a loop between two commands). Judged as the
  // foreground; not a look the next can stand on. (A shell with no terminal, tpgid -1, has none.)
  if (procs.length === 0 && pgid > 0) {
    procs.push({ pid: shell, comm: sh.comm, ticks: ticksOf(sh.fields), threads: threadsOf(shell, sh.fields, reading(shell), undefined) });
    return { pgid, procs, rchar, conversing, ...base, marks: null };
  }
  // A socket not yet in the tables may be found listening at the next look: that one reads again.
  const sure = unsureCount() === unsureBefore;
  return { pgid, procs, rchar, conversing, ...base, marks: marking.whole && sure ? marking.marks : null };
}
