import { readProc } from './proc-read.js';

/**
 * Where the kernel's pid counter was at some moment (ADR 0027): the last pid it gave out, and how
 * many pids it had given out in all since the clock started (across wraps).
 */
export interface PidMark {
  lastPid: number;
  travelled: number;
}

/** How often the clock reads the counter, so that no whole round of pids passes between two reads unseen. */
const TICK_MS = 1000;
/** A round less this many pids counts as a whole round: the reads are a second apart. */
const ROUND_MARGIN = 4096;

/**
 * The kernel's pid counter (`/proc/sys/kernel/ns_last_pid`) followed over time. Pids count up to
 * `pid_max` and wrap to the bottom, skipping those in use: the processes forked after a mark have
 * the pids after its `lastPid`, up to the counter now, as long as less than a whole round passed.
 * The reap uses it to read only the processes a session can have forked (session-marks.ts).
 */
export class PidClock {
  private last: number;
  private travelled = 0;
  private readonly max: number;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly read: () => number = nsLastPid, max = pidMax()) {
    this.max = max;
    this.last = read();
  }

  /** Reads the counter every second (unref'd: it never keeps the process alive). */
  start(): this {
    this.timer ??= setInterval(() => this.now(), TICK_MS).unref();
    return this;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The counter now; null when it cannot be read (no /proc, another kernel). */
  now(): PidMark | null {
    const cur = this.read();
    if (!Number.isFinite(cur) || !Number.isFinite(this.last) || !(this.max > 0)) return null;
    this.travelled += (cur - this.last + this.max) % this.max;
    this.last = cur;
    return { lastPid: cur, travelled: this.travelled };
  }

  /**
   * The last pid given out at `mark`, if the pids given out since can still be told from older
   * ones (less than a whole round since); undefined otherwise, and then every process must be read.
   * `cur`: the counter as just read (`now()`), when the caller has it.
   */
  since(mark: PidMark | null | undefined, cur = this.now()): number | undefined {
    if (!mark || !cur || cur.travelled - mark.travelled >= this.max - ROUND_MARGIN) return undefined;
    return mark.lastPid;
  }
}

export function nsLastPid(): number {
  return Number(readProc('/proc/sys/kernel/ns_last_pid') ?? NaN);
}

let maxPid: number | undefined;
/** `/proc/sys/kernel/pid_max`: pids are below it (read once). */
export function pidMax(): number {
  maxPid ??= Number(readProc('/proc/sys/kernel/pid_max') ?? NaN);
  return maxPid;
}

/** The daemon's clock (one kernel counter per process): started on first use. */
let shared: PidClock | null = null;
export function pidClock(): PidClock {
  shared ??= new PidClock().start();
  return shared;
}
