import { readdirSync } from 'node:fs';
import { nsLastPid, pidMax } from './pid-clock.js';
import { readProc } from './proc-read.js';
import { descendantsOf, isAlive, procStat, sessionOf, STAT } from './process-table.js';

/** The variable every process of an amux session inherits (README "How it works": ends). */
export const SESSION_MARK = 'AMUX_SESSION_ID';

/** What one pass over /proc found: the marked processes by session id, and every Unix session's members. */
export interface MarkScan {
  marked: Map<string, number[]>;
  /** The last pid the kernel had given out when the pass began (`afterPid` of a later pass). */
  lastPid: number;
  /** The live members of Unix session `sid` (as `sessionMembers` finds them), from the same pass. */
  members(sid: number): number[];
}

/** Boot time in ms since the epoch: `btime` of /proc/stat (whole seconds). */
function bootMs(): number {
  return Number(/^btime (\d+)/m.exec(readProc('/proc/stat') ?? '')?.[1] ?? 0) * 1000;
}

/** This process's start, in ticks since boot (field 22 of /proc/self/stat), read once. */
let selfStartTicks: number | undefined;

/**
 * The start time, in ticks since boot (as /proc/PID/stat counts them), of a process forked at
 * wall-clock time `wallMs`, or earlier. Two estimates, the earlier taken (an early cutoff only reads
 * more environments; a late one would miss a session's processes): `btime` plus the time since, and
 * this process's own start plus the time since it. The second holds where `btime` does not (a
 * container whose /proc/stat is virtualised, a clock stepped since boot).
 */
export function ticksAt(wallMs: number): number {
  selfStartTicks ??= Number(procStat('self')?.fields[STAT.starttime] ?? 0);
  const byBoot = (wallMs - bootMs()) / 10;
  const bySelf = selfStartTicks > 0 ? selfStartTicks + (wallMs - performance.timeOrigin) / 10 : byBoot;
  return Math.floor(Math.min(byBoot, bySelf));
}

/**
 * How much earlier than its session's creation a marked process may seem to start: `btime` is
 * whole seconds, and a tick (USER_HZ, 100 on Linux) is 10 ms.
 */
const START_SLACK_MS = 5_000;

/**
 * The processes marked as an amux session's, by session id, from one pass over /proc: those whose
 * environment holds AMUX_SESSION_ID and, when it holds TMUX, names this home's tmux socket (a
 * session of another AMUX_HOME with the same id is not ours). It finds them wherever they went:
 * reparented to init, in a Unix session of their own (`setsid`), after the tmux server died.
 *
 * `sinceMs`: the earliest creation time of the sessions looked for. A process carries a session's
 * mark only if it was forked after the session began, so only processes started since then have
 * their environment read (ADR 0027: reading every process's environment for each end was most of
 * the daemon's CPU per `run --rm` beside 200 live sessions). 0: every process. `afterPid`: only
 * the processes forked since the pass that returned it as `lastPid` (pids the kernel gave out since;
 * more than a whole round of pids, 32768 by default, between the two passes is not allowed for).
 */
export function scanMarks(tmuxSocket: string, sinceMs = 0, afterPid?: number): MarkScan {
  const marked = new Map<string, number[]>();
  const bySid = new Map<number, number[]>();
  const cutoffTicks = sinceMs > 0 ? ticksAt(sinceMs - START_SLACK_MS) : 0;
  const lastPid = nsLastPid();
  // Few pids given out since `afterPid`: each is looked up, and /proc (every process) is not listed.
  const range = pidRange(afterPid, lastPid, RANGE_MAX);
  const names = range ?? readdirSync('/proc');
  const isNew = range ? () => true : newPids(afterPid, nsLastPid()); // read after the listing: every pid it holds was given out by then
  for (const name of names) {
    const c = name.charCodeAt(0);
    if (c < 48 || c > 57 || !isNew(Number(name))) continue;
    const st = procStat(name);
    if (!st || st.fields[STAT.state] === 'Z') continue;
    // A pid of the range may be a thread's (/proc has them too, unlisted): only processes count.
    if (range && /^Tgid:\s+(\d+)/m.exec(readProc(`/proc/${name}/status`) ?? '')?.[1] !== name) continue;
    const sid = Number(st.fields[STAT.session]);
    const list = bySid.get(sid);
    if (list) list.push(Number(name));
    else bySid.set(sid, [Number(name)]);
    if (Number(st.fields[STAT.starttime]) < cutoffTicks) continue;
    const env = readProc(`/proc/${name}/environ`); // null: gone, or not ours to read
    const id = env === null ? null : markOf(env, tmuxSocket);
    if (id === null) continue;
    const ids = marked.get(id);
    if (ids) ids.push(Number(name));
    else marked.set(id, [Number(name)]);
  }
  return { marked, lastPid, members: (sid) => bySid.get(sid) ?? [] };
}

/**
 * Which pids the kernel gave out after `afterPid` (pids count up, then wrap to the bottom), given
 * the last one it gave out by now: a second pass (after the first TERM) reads only what was forked
 * since the first. Unknown (no `afterPid`, or /proc/sys/kernel/ns_last_pid unreadable): every pid.
 */
export function newPids(afterPid: number | undefined, lastPid: number): (pid: number) => boolean {
  if (afterPid === undefined || !Number.isFinite(afterPid) || !Number.isFinite(lastPid)) return () => true;
  return lastPid >= afterPid ? (pid) => pid > afterPid && pid <= lastPid : (pid) => pid > afterPid || pid <= lastPid;
}

/** Up to this many pids given out since a pass are looked up one by one rather than listing /proc. */
const RANGE_MAX = 2048;

/**
 * The pids given out after `afterPid` up to `lastPid` (wrapping at pid_max), as /proc names, when
 * they are at most `max`; null otherwise (or when either is unknown): then /proc is listed.
 */
export function pidRange(afterPid: number | undefined, lastPid: number, max: number, top = pidMax()): string[] | null {
  if (afterPid === undefined || !Number.isFinite(afterPid) || !Number.isFinite(lastPid) || !(top > 0)) return null;
  const span = lastPid >= afterPid ? lastPid - afterPid : top - 1 - afterPid + lastPid;
  if (span > max) return null;
  const out: string[] = [];
  for (let p = afterPid + 1, n = 0; n < span; n++, p++) {
    if (p >= top) p = 1;
    out.push(String(p));
  }
  return out;
}

/** The marked processes of every session (one pass over every process's environment). */
export function markedProcesses(tmuxSocket: string): Map<string, number[]> {
  return scanMarks(tmuxSocket).marked;
}

/** The session id a process's environment (NUL-separated `NAME=value`) marks it with, for this tmux socket; null: none. */
export function markOf(environ: string, tmuxSocket: string): string | null {
  let id: string | null = null;
  let tmux: string | null = null;
  for (const entry of environ.split('\0')) {
    if (entry.startsWith(`${SESSION_MARK}=`)) id = entry.slice(SESSION_MARK.length + 1);
    else if (entry.startsWith('TMUX=')) tmux = entry.slice(5);
  }
  if (!id || (tmux !== null && tmux !== '' && !tmux.startsWith(`${tmuxSocket},`))) return null;
  return id;
}

/**
 * Every process of one session, given its marked processes (and its shell, while it runs): them,
 * their descendants, and the other members of the Unix sessions they are in (a program that
 * cleared its environment still shares the session's) where that Unix session is the pane's
 * (`paneSid`), led by a marked process (`setsid` in the session), or left without its leader (the
 * pane's, once its process is gone). A Unix session led by anything else (a terminal where someone
 * exported the mark by hand) is not the session's. `spare`: never counted (the daemon).
 */
export function sessionTree(
  roots: readonly number[], paneSid: number | null, spare: readonly number[], members: (sid: number) => number[],
): number[] {
  const found = new Set<number>(roots);
  const sids = new Set<number>();
  for (const pid of roots) {
    const sid = sessionOf(pid);
    if (sid && sid > 1 && (sid === paneSid || roots.includes(sid) || !isAlive(sid))) sids.add(sid);
  }
  for (const sid of sids) for (const pid of members(sid)) found.add(pid);
  for (const pid of [...found]) for (const d of descendantsOf(pid)) found.add(d);
  return [...found].filter((p) => p > 1 && !spare.includes(p) && isAlive(p));
}
