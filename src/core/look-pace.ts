import type { Activity } from './activity.js';

/**
 * How often the quick look looks at a working session (ADR 0044): at every tick while its
 * processes have run lately, less often the longer none of them has. A program that has slept
 * STEADY_MS and more and then starts to read the terminal is idle within SLOW_MS rather than a tick;
 * one that asks soon after it ran (a prompt after output, a REPL after a command) within a tick.
 */
export const STEADY_MS = 5_000;
/** The longest between two quick looks at a session whose processes have not run for STEADY_MS. */
export const SLOW_MS = 1_000;

/**
 * Resting (ADR 0071): once nobody has called the daemon for `restAfterMs` (REST_AFTER_MS; no
 * request open, none ended since) and none of a session's processes has run for as long, its looks
 * come every REST_PACE_MS and a look stands for the next up to REST_STAND_MS. The first call ends
 * every rest, and is answered after a refresh that looked at every session (`Monitor.ensureFresh`).
 */
export const REST_AFTER_MS = 30_000;
/** The pace of a resting session's looks: the quick look's and the refresh's visit. */
export const REST_PACE_MS = 3_000;
/** How long a resting session's look may stand for the next (REUSE_MAX_MS of ADR 0041 otherwise). */
export const REST_STAND_MS = 15_000;

/** Whether a session rests: nobody has called for `quietMs`, and its processes have not run for `stillMs`. */
export function rests(stillMs: number, quietMs: number, restAfterMs = REST_AFTER_MS): boolean {
  return stillMs >= restAfterMs && quietMs >= restAfterMs;
}

/** What the refresh knows of a session when it may pass it by (ADR 0071). */
export interface RestingVisit {
  /** Its last decision's evidence settles (`settles`) and a look of it is kept. */
  settled: boolean;
  /** How long none of its processes has run (its looks' stillness). */
  stillMs: number;
  /** Since a refresh last visited it; null when none has. */
  sinceVisitMs: number | null;
  /** Something is timed by the refresh's reads of it: an idle timeout (its output's time), a declaration whose time ran out. */
  timed: boolean;
}

/** Whether the refresh passes a resting session by this time, reading nothing of it (ADR 0071). */
export function passedBy(v: RestingVisit, quietMs: number, restAfterMs = REST_AFTER_MS, tickMs = 250): boolean {
  if (!v.settled || v.timed || v.sinceVisitMs === null) return false;
  return rests(v.stillMs, quietMs, restAfterMs) && v.sinceVisitMs < REST_PACE_MS - tickMs / 2;
}

/**
 * Whether a session is due for a quick look: `stillMs`, how long none of its processes has run (as
 * its run marks tell); `sinceLookMs`, how long since its last look; `tickMs`, the quick look's tick;
 * `quietMs`, how long nobody has called the daemon (0 while a request is open).
 */
export function lookDue(stillMs: number, sinceLookMs: number, tickMs: number, quietMs = 0, restAfterMs = REST_AFTER_MS): boolean {
  if (stillMs < STEADY_MS) return true;
  const pace = rests(stillMs, quietMs, restAfterMs) ? REST_PACE_MS : SLOW_MS;
  // Half a tick early: a look that ran a little late must not push the next one a whole tick later.
  return sinceLookMs >= pace - tickMs / 2;
}

/**
 * Whether an activity stays what it is for as long as none of the processes runs: a wait the kernel
 * named (the terminal, a timer, a pipe, …). Not `cpu` (judged on ticks used over time) nor `network`
 * (idle after a quiet time), nor one the kernel could not tell (idle after the threshold).
 */
export function settles(a: Activity | undefined): boolean {
  if (!a) return false;
  return a.verdict === 'input' || (a.verdict === 'working' && a.reason !== 'cpu' && a.reason !== 'network');
}

/** CPU ticks per process and per thread at one look, and when it read them. */
export interface TickBase {
  at: number;
  procs: ReadonlyMap<number, number>;
  threads: ReadonlyMap<number, number>;
}

/**
 * The ticks a look measures CPU against (ADR 0048 amended): the last look's, unless that one is
 * younger than `minWindowMs`; then the ones the last look measured against. Ticks count in 10 ms:
 * a look 4 ms after the last (a refresh's, right after a quick look) sees none of a program that used
 * a whole core, and would find it waiting on its prompt.
 */
export function tickBase(last: (TickBase & { base?: TickBase }) | undefined, now: number, minWindowMs: number): TickBase | undefined {
  if (!last) return undefined;
  if (now - last.at < minWindowMs && last.base) return last.base;
  return { at: last.at, procs: last.procs, threads: last.threads };
}
