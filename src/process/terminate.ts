import { setTimeout as sleep } from 'node:timers/promises';

/** How long `kill`, `rm -f` and an expiry wait before SIGKILL, unless told otherwise (src/guides/sessions.md: kill). */
export const DEFAULT_GRACE_MS = 5000;

/** Time as terminate sees it; tests pass a controlled one. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = { now: () => Date.now(), sleep: (ms) => sleep(ms) };

/** What is being terminated: a session's processes, or one job's. */
export interface TerminateTarget {
  /** Sends `signal` to the target's processes as they are now (the first signal, then SIGKILL). */
  signal(signal: NodeJS.Signals): void;
  /** Nothing is left to wait for: the grace ends early. */
  ended(): boolean;
  /** Called at every look while waiting (e.g. an exit to record, a process group that started meanwhile). */
  poll?(phase: 'grace' | 'settle'): void;
  /** Called once the grace is over, before any SIGKILL (e.g. take the survivors, close the tmux session). */
  afterGrace?(): Promise<void> | void;
  /** Whether SIGKILL is needed once the grace is over; default: not ended. */
  mustKill?(): boolean;
  /** After a SIGKILL (or none), whether the end is recorded; waited for up to `settleMs`. */
  settled?(): boolean;
}

export interface TerminateOptions {
  signal: NodeJS.Signals;
  graceMs: number;
  /** How long to wait for `settled` after the grace (default 0: not at all). */
  settleMs?: number;
  pollMs?: number;
  clock?: Clock;
}

export interface Termination {
  /** What ended the target: the signal asked for, or SIGKILL when something outlived the grace. */
  endedBy: NodeJS.Signals;
  escalated: boolean;
}

/**
 * The one terminate routine (src/guides/sessions.md: kill; ADR 0010): `signal`, wait up to the grace
 * for the target to end, then SIGKILL what is left. Used by `kill` of sessions and jobs, by
 * `--timeout` and `--idle-timeout`, by `rm -f`, and for a background job whose session ended.
 */
export async function terminate(target: TerminateTarget, opts: TerminateOptions): Promise<Termination> {
  const clock = opts.clock ?? systemClock;
  const pollMs = opts.pollMs ?? 20;
  target.signal(opts.signal);
  const deadline = clock.now() + opts.graceMs;
  while (!target.ended() && clock.now() < deadline) {
    await clock.sleep(pollMs);
    target.poll?.('grace');
  }
  await target.afterGrace?.();
  const escalated = target.mustKill ? target.mustKill() : !target.ended();
  if (escalated) target.signal('SIGKILL');
  if (target.settled) {
    const until = clock.now() + (opts.settleMs ?? 0);
    while (!target.settled() && clock.now() < until) {
      await clock.sleep(pollMs);
      target.poll?.('settle');
    }
  }
  return { endedBy: escalated ? 'SIGKILL' : opts.signal, escalated };
}
