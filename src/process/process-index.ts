import { readdirSync } from 'node:fs';
import { nsLastPid, pidClock, type PidClock, type PidMark } from './pid-clock.js';
import { readProc } from './proc-read.js';
import { procStat, STAT } from './process-table.js';
import { markOf, newPids, ticksAt, type MarkScan } from './session-marks.js';

/** What the index knows of one process. */
interface Entry {
  /** Start time in ticks since boot (stat field 22): with the pid, which process this is. */
  start: number;
  sid: number;
  zombie: boolean;
  /**
   * Read when it was under a second old: it may still be between fork and exec (its environment
   * the parent's initial one, not the one it execs with) or before its `setsid`. Read again at
   * every update until it is read older.
   */
  young: boolean;
  /** The session id its environment marks it with; null: none; undefined: not read yet. */
  mark?: string | null;
}

/** A process read under this many ticks (USER_HZ 100) after its start is read again later. */
const YOUNG_TICKS = 100;

/**
 * How much earlier than its session's creation a marked process may seem to start: `btime` is
 * whole seconds, and a tick (USER_HZ, 100 on Linux) is 10 ms.
 */
const START_SLACK_MS = 5_000;

/**
 * The processes of the machine as the reap needs them (ADR 0045): for each, its start, Unix session
 * and (read once, when it can matter) the session id its environment carries. Each use lists /proc
 * (one `readdir`, ~1 ms at 2000 processes) and reads only the processes forked since the last use,
 * as the kernel's pid counter tells (`PidClock`), and those read when under a second old. Under
 * churn each end's reap read every process forked since its session began, ~40 % of the daemon's
 * CPU in the soak; now it reads what the machine forked since the previous end.
 */
export class ProcessIndex {
  private readonly entries = new Map<number, Entry>();
  private at: PidMark | null = null;

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
    const bySid = new Map<number, number[]>();
    for (const [pid, e] of this.entries) {
      if (e.zombie) continue;
      const list = bySid.get(e.sid);
      if (list) list.push(pid);
      else bySid.set(e.sid, [pid]);
      if (e.start < cutoff) continue;
      if (e.mark === undefined) {
        const env = readProc(`/proc/${pid}/environ`); // null: gone, or not ours to read
        e.mark = env === null ? null : markOf(env, this.tmuxSocket);
      }
      if (e.mark === null) continue;
      const ids = marked.get(e.mark);
      if (ids) ids.push(pid);
      else marked.set(e.mark, [pid]);
    }
    return { marked, members: (sid) => bySid.get(sid) ?? [] };
  }

  /** Lists /proc: forgets the processes gone, reads the new ones (and the young). */
  private update(): void {
    const mark = this.clock.now();
    // Unknown (first use, no counter, a whole round of pids since the last use): every process is read.
    const after = this.at && mark ? this.clock.since(this.at) : undefined;
    const names = readdirSync('/proc');
    const isNew = newPids(after, nsLastPid()); // read after the listing: every pid it holds was given out by then
    const now = ticksAt(Date.now()); // never late: a process may seem younger than it is, not older
    const seen = new Set<number>();
    for (const name of names) {
      const c = name.charCodeAt(0);
      if (c < 48 || c > 57) continue;
      const pid = Number(name);
      seen.add(pid);
      const known = this.entries.get(pid);
      if (known && !known.young && !isNew(pid)) continue;
      const st = procStat(name);
      if (!st) {
        this.entries.delete(pid);
        continue;
      }
      const start = Number(st.fields[STAT.starttime]);
      const young = now - start < YOUNG_TICKS;
      const e: Entry = { start, sid: Number(st.fields[STAT.session]), zombie: st.fields[STAT.state] === 'Z', young };
      // The same process read again: its environment, read once it was old enough, still holds.
      if (known && known.start === start && !known.young) e.mark = known.mark;
      this.entries.set(pid, e);
    }
    for (const pid of this.entries.keys()) if (!seen.has(pid)) this.entries.delete(pid);
    this.at = mark;
  }
}
