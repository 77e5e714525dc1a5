import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { readProc } from './proc-read.js';
import { descendantsOf, isAlive, procStat, sessionOf, STAT } from './process-table.js';

/** The variable every process of an amux session inherits (src/guides/internals.md: ends). */
export const SESSION_MARK = 'AMUX_SESSION_ID';

/**
 * What a look at /proc found: the marked processes by session id, and every Unix session's members
 * (either may hold a pid gone since: `sessionTree` keeps the live ones).
 */
export interface MarkScan {
  marked: Map<string, number[]>;
  /** The members of Unix session `sid` (as `sessionMembers` finds them). */
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
 * Which pids the kernel gave out after `afterPid` (pids count up, then wrap to the bottom), given
 * the last one it gave out by now: a later pass reads only what was forked since an earlier one.
 * Unknown (no `afterPid`, or /proc/sys/kernel/ns_last_pid unreadable): every pid.
 */
export function newPids(afterPid: number | undefined, lastPid: number): (pid: number) => boolean {
  if (afterPid === undefined || !Number.isFinite(afterPid) || !Number.isFinite(lastPid)) return () => true;
  return lastPid >= afterPid ? (pid) => pid > afterPid && pid <= lastPid : (pid) => pid > afterPid || pid <= lastPid;
}

/**
 * Whether the tmux socket SOCKET is another amux home's (`HOME/tmux.sock`) that has a session ID:
 * the one way a process marked with an id of ours is not ours (ADR 0027).
 */
export function anotherHomeHas(socket: string, id: string): boolean {
  return basename(socket) === 'tmux.sock' && /^[0-9a-f]{8}$/.test(id) && existsSync(join(dirname(socket), 'sessions', id));
}

/**
 * The session id a process's environment (NUL-separated `NAME=value`) marks it with, for this tmux
 * socket; null: none. A TMUX naming another socket makes it another's only when that socket is another
 * amux home's with a session of that id: a nested tmux, or a TMUX set to anything else, is no way out.
 */
export function markOf(environ: string, tmuxSocket: string, others: (socket: string, id: string) => boolean = anotherHomeHas): string | null {
  let id: string | null = null;
  let tmux: string | null = null;
  for (const entry of environ.split('\0')) {
    if (entry.startsWith(`${SESSION_MARK}=`)) id = entry.slice(SESSION_MARK.length + 1);
    else if (entry.startsWith('TMUX=')) tmux = entry.slice(5);
  }
  if (!id) return null;
  const socket = tmux ? (/^(.*),\d+,\d+$/.exec(tmux)?.[1] ?? tmux) : null;
  if (socket !== null && socket !== tmuxSocket && others(socket, id)) return null;
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
