import { readdirSync } from 'node:fs';
import { nsLastPid, pidClock, pidMax, type PidClock, type PidMark } from './pid-clock.js';
import { readProc } from './proc-read.js';
import { procStat, STAT } from './process-table.js';
import { markOf, newPids, ticksAt, type MarkScan } from './session-marks.js';

/** What the index knows of one process. */
interface Entry {
  /** Start time in ticks since boot (stat field 22): with the pid, which process this is. */
  start: number;
  sid: number;
  zombie: boolean;
  /** The session id its environment marks it with; null: none; undefined: not read yet. */
  mark?: string | null;
}

/**
 * A process read under this many ticks (USER_HZ 100) after its start is read again at the next
 * update: a fork's window before its exec or `setsid` is far shorter. Should one be read as unmarked
 * past it, it is still found as a descendant of its marked parent, or in the pane's Unix session.
 */
const YOUNG_TICKS = 30;
/** Up to this many pids given out since the last update are looked up one by one rather than listing /proc. */
const RANGE_MAX = 2048;
/** /proc is listed at least this often (the processes gone are forgotten). */
const LIST_EVERY_MS = 2_000;

/**
 * How much earlier than its session's creation a marked process may seem to start: `btime` is
 * whole seconds, and a tick (USER_HZ, 100 on Linux) is 10 ms.
 */
const START_SLACK_MS = 5_000;

/**
 * The processes of the machine as the reap needs them (ADR 0045): for each, its start, Unix session
 * and (read once, when it can matter) the session id its environment carries. Each use reads only
 * the processes forked since the last use, as the kernel's pid counter tells (`PidClock`), and
 * those read while young; /proc is listed (the processes gone forgotten) when many were forked, and
 * at least every 2 s. A pid the index still holds may be gone: its users check that what they
 * signal is alive (`sessionTree`), and a reused pid is in the range read since. Under
 * churn each end's reap read every process forked since its session began, ~40 % of the daemon's
 * CPU in the soak; now it reads what the machine forked since the previous end.
 */
export class ProcessIndex {
  private readonly entries = new Map<number, Entry>();
  /**
   * The processes read while young (YOUNG_TICKS): one may still be between fork and exec (its
   * environment its parent's initial one, not the one it execs with) or before its `setsid`. Each
   * is read again at every update until it is read older.
   */
  private readonly young = new Set<number>();
  private at: PidMark | null = null;
  private listedAt = 0;

  constructor(private readonly tmuxSocket: string, private readonly clock: PidClock = pidClock()) {}

  /**
   * The marked processes by session id, and every Unix session's members, as of now. `sinceMs`:
   * the earliest creation time of the sessions looked for: a process carries a session's mark only
   * if it was forked after the session began, so only those started since have their environment
   * read (once each). 0: every process.
   */
  scan(sinceMs = 0): MarkScan {
    this.update();
    const cutoff = sinceMs > 0 ? ticksAt(sinceMs - START_SLACK_MS) : 0;
    const marked = new Map<string, number[]>();
    for (const [pid, e] of this.entries) {
      if (e.zombie || e.start < cutoff) continue;
      if (e.mark === undefined) {
        const env = readProc(`/proc/${pid}/environ`); // null: gone, or not ours to read
        e.mark = env === null ? null : markOf(env, this.tmuxSocket);
      }
      if (e.mark === null) continue;
      const ids = marked.get(e.mark);
      if (ids) ids.push(pid);
      else marked.set(e.mark, [pid]);
    }
    // Asked for a few Unix sessions per reap: each a walk of the index, not a map of them all.
    const members = (sid: number) => {
      const out: number[] = [];
      for (const [pid, e] of this.entries) if (e.sid === sid && !e.zombie) out.push(pid);
      return out;
    };
    return { marked, members };
  }

  /** Reads the processes forked since the last update (listing /proc when many, or every 2 s) and the young again. */
  private update(): void {
    const mark = this.clock.now();
    // Unknown (first use, no counter, a whole round of pids since the last use): every process is read.
    const after = this.at && mark ? this.clock.since(this.at, mark) : undefined;
    const now = ticksAt(Date.now()); // never late: a process may seem younger than it is, not older
    // The young first: those given out since are not among them (a listing reads only what is new).
    for (const pid of [...this.young]) this.read(String(pid), now, false);
    // Up to the counter as `mark` read it: the next update starts after it, so nothing falls between.
    const range = mark && Date.now() - this.listedAt < LIST_EVERY_MS ? pidRange(after, mark.lastPid, RANGE_MAX) : null;
    if (range) for (const name of range) this.read(name, now, true);
    else this.list(after, now);
    this.at = mark;
  }

  /** Lists /proc: forgets the processes gone, reads those forked since `after` and those not known. */
  private list(after: number | undefined, now: number): void {
    const names = readdirSync('/proc');
    const isNew = newPids(after, nsLastPid()); // read after the listing: every pid it holds was given out by then
    const seen = new Set<number>();
    for (const name of names) {
      const c = name.charCodeAt(0);
      if (c < 48 || c > 57) continue;
      const pid = Number(name);
      seen.add(pid);
      const known = this.entries.get(pid);
      if (!known || isNew(pid)) this.read(name, now, false);
    }
    for (const pid of this.entries.keys()) if (!seen.has(pid)) this.forget(pid);
    this.listedAt = Date.now();
  }

  /**
   * Reads one process's stat. `lookedUp`: a pid taken from the counter's range, not from the
   * listing, which may be a thread's (/proc has them too, unlisted): only processes count.
   */
  private read(name: string, now: number, lookedUp: boolean): void {
    const pid = Number(name);
    const st = procStat(name);
    if (!st || (lookedUp && /^Tgid:\s+(\d+)/m.exec(readProc(`/proc/${name}/status`) ?? '')?.[1] !== name)) {
      this.forget(pid);
      return;
    }
    const start = Number(st.fields[STAT.starttime]);
    const young = now - start < YOUNG_TICKS;
    const e: Entry = { start, sid: Number(st.fields[STAT.session]), zombie: st.fields[STAT.state] === 'Z' };
    const known = this.entries.get(pid);
    // The same process read again: its environment, read once it was old enough, still holds.
    if (known && known.start === start && !this.young.has(pid)) e.mark = known.mark;
    this.entries.set(pid, e);
    if (young) this.young.add(pid);
    else this.young.delete(pid);
  }

  private forget(pid: number): void {
    this.entries.delete(pid);
    this.young.delete(pid);
  }
}

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
