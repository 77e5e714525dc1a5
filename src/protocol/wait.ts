// `POST /v1/wait` (src/guides/api.md).
import type { JobStatus, SessionStatus } from '../core/status.js';

/** The most references one wait takes (src/guides/api.md): more are a 400; wait for them in several calls. */
export const MAX_WAIT_IDS = 1000;

/** The body: sessions or jobs (job 1 of a command session stands for the session), at most MAX_WAIT_IDS. */
export interface WaitRequest {
  ids: string[];
  /** Give up after this long (then `timedOut`): ms, or a duration text. */
  timeoutMs?: number | string;
  /**
   * What to wait for: `exited` (default; sessions and jobs), `idle`, `working`, or `output:REGEX`
   * (sessions only). Returns at once when it already holds.
   */
  until?: string;
  /** Only a change after this event id counts (a reader's cursor: the `cursor` of a previous answer, a send receipt's `eventId`). */
  after?: number;
  /** Answer when the first target gets there, instead of all of them. */
  any?: boolean;
  /** `output:` only: search the output from this log offset (e.g. a send receipt's `offset`) instead of all of it and the screen. */
  sinceOffset?: number;
}

/** The event that decided a target's answer. */
export interface WaitEvent {
  id: number;
  type: string;
  /** The status it moved to (state_changed) or the job's (job_finished). */
  to: string | null;
  reason: string | null;
  createdAt: string;
}

/** One entry per requested target, in request order. */
export interface WaitResult {
  /** The session id, or the job id when a job was waited for. */
  id: string;
  status: SessionStatus | JobStatus;
  exitCode: number | null;
  signal: string | null;
  /** Why it ended without its own exit code (killed, its session gone, …); null otherwise. */
  error: string | null;
  /** Why it has its status (a session's `reason`, e.g. `command exited`, `killed with SIGTERM`); null for a job. */
  reason: string | null;
  /** It got where the request asked. False: not yet (timed out, or `any` answered for another), or it ended without. */
  reached: boolean;
  /** The event that decided it (the status change, the job's end); null when none did (not reached, an output match). */
  event: WaitEvent | null;
  /** `output:` only: the plain-text line that matched; null otherwise. */
  match: string | null;
  /** The session's log size at the answer: the `sinceOffset` of a next `output:` wait. Null for a job. */
  logOffset: number | null;
}

export interface WaitAnswer {
  results: WaitResult[];
  timedOut: boolean;
  /** The newest event id at the answer: pass it as `after` to wait for the next change without missing one. */
  cursor: number;
}
