// `POST /v1/wait` (README "API").
import type { JobStatus, SessionStatus } from '../core/status.js';

/** The body: sessions or jobs (job 1 of a command session stands for the session). */
export interface WaitRequest {
  ids: string[];
  /** Give up after this long (then `timedOut`): ms, or a duration text. */
  timeoutMs?: number | string;
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
}

export interface WaitAnswer {
  results: WaitResult[];
  timedOut: boolean;
}
