import { AmuxError } from '../errors.js';
import type { SessionStatus } from './status.js';

/**
 * `run --restart no|on-failure[:N]|always` (src/guides/sessions.md "Restart, labels, groups", ADR 0033), as docker's restart
 * policies. Pure: parsing, whether an end restarts, and the backoff before the next start.
 */
export interface RestartPolicy {
  when: 'on-failure' | 'always';
  /** At most this many restarts in a row (null: no limit). */
  max: number | null;
}

/** The first delay, its ceiling, and how long a run must last to start the doubling again. */
export const BACKOFF_FIRST_MS = 1000;
export const BACKOFF_MAX_MS = 60_000;
export const BACKOFF_RESET_AFTER_MS = 60_000;

export function parseRestartPolicy(text: string): RestartPolicy | null {
  const m = /^(no|always|on-failure)(?::(\d{1,6}))?$/.exec(text);
  if (!m || (m[2] !== undefined && m[1] !== 'on-failure') || m[2] === '0') {
    throw new AmuxError('invalid_argument', `invalid restart policy ${JSON.stringify(text.slice(0, 40))}: use no, on-failure, on-failure:N (N ≥ 1) or always`);
  }
  if (m[1] === 'no') return null;
  return { when: m[1] as RestartPolicy['when'], max: m[2] === undefined ? null : Number(m[2]) };
}

export function policyText(p: RestartPolicy | null): string {
  if (!p) return 'no';
  return p.max === null ? p.when : `${p.when}:${p.max}`;
}

/**
 * Whether a session that ended with `status` starts again: `always` after any end but a kill
 * (`stopped`: `kill`, `rm -f` and `restart` end the policy); `on-failure` after `failed` only (a
 * non-zero exit, a lost shell). `expired` (its own --timeout) is an end the user asked for, so
 * only `always` restarts it. `streak` restarts in a row so far.
 */
export function shouldRestart(p: RestartPolicy | null, status: SessionStatus, streak: number): boolean {
  if (!p || status === 'stopped') return false;
  if (p.max !== null && streak >= p.max) return false;
  return p.when === 'always' ? true : status === 'failed';
}

/** The wait before the next start: 1 s, doubling to 60 s; back to 1 s after a run of 60 s or more. */
export function nextBackoff(previousMs: number | null, ranMs: number): number {
  if (previousMs === null || ranMs >= BACKOFF_RESET_AFTER_MS) return BACKOFF_FIRST_MS;
  return Math.min(BACKOFF_MAX_MS, previousMs * 2);
}
