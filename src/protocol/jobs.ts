// Jobs on the wire (src/guides/api.md).
import type { JobFacts } from '../core/records.js';
import type { JobStatus } from '../core/status.js';

export type { JobStatus };

/** A job as the API returns it: ISO-8601 UTC times. */
export interface JobView extends JobFacts {
  startedAt: string | null;
  endedAt: string | null;
  durationMs: number;
}

/** The body of `POST /v1/sessions/{ref}/jobs`. */
export interface ExecRequest {
  command?: string;
  argv?: string[];
  background?: boolean;
  /** Run on the terminal (foreground only). */
  tty?: boolean;
  /** The job is killed (TERM, grace, KILL) and ends `killed` with exit code 124: ms, or a duration text. */
  timeoutMs?: number | string;
  /**
   * The job's stdin comes from `POST /v1/jobs/{id}/stdin` (foreground, captured jobs only;
   * ADR 0017): it ends (EOF) when that request's body ends, or when its client goes away.
   */
  stdin?: boolean;
}

/** Query of `POST /v1/sessions/{ref}/jobs`. */
export interface ExecQuery {
  /** Answer with the job's frames until it ends (foreground, captured jobs): one request for the whole job. */
  stream?: boolean;
}

/** Query of `GET /v1/sessions/{ref}/jobs`. */
export interface JobListQuery {
  status?: readonly JobStatus[] | string;
  background?: boolean;
  limit?: number;
}

/**
 * The answer of `POST /v1/jobs/{id}/stdin`, once the body has ended or the job has: how many bytes
 * of the body were read, and whether the job's stdin was closed at its end (false: the job ended
 * first, or the client went away, and the rest was not taken).
 */
export interface StdinAnswer {
  bytes: number;
  eof: boolean;
}

export type JobStream = 'stdout' | 'stderr';

/**
 * Query of `GET /v1/jobs/{id}/output`. With one `stream` and no `follow`: that stream's bytes
 * (headers as for logs, plus `x-amux-total`); otherwise frames (see frames.ts).
 */
export interface JobOutputQuery {
  stream?: JobStream;
  follow?: boolean;
  sinceOffset?: number;
  limit?: number;
}
