/** Session status (SPEC §2). */
export const SESSION_STATUSES = ['pending', 'working', 'idle', 'paused', 'completed', 'failed', 'stopped', 'expired'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const TERMINAL_STATUSES: ReadonlySet<SessionStatus> = new Set(['completed', 'failed', 'stopped', 'expired']);
export const LIVE_STATUSES: ReadonlySet<SessionStatus> = new Set(['working', 'idle', 'paused']);

export function isTerminal(status: SessionStatus): boolean {
  return TERMINAL_STATUSES.has(status);
}

export function isSessionStatus(value: string): value is SessionStatus {
  return (SESSION_STATUSES as readonly string[]).includes(value);
}

/** What a session is, the same in the store and in the API. */
export interface SessionFacts {
  id: string;
  name: string | null;
  status: SessionStatus;
  command: string | null;
  cwd: string;
  exitCode: number | null;
  signal: string | null;
  error: string | null;
  pid: number | null;
  logBytes: number;
  logTruncated: boolean;
  autoRemove: boolean;
  /** `run --timeout`: the session expires this long after it started (null: none). */
  timeoutMs: number | null;
  /** `run --idle-timeout`: the session expires after this long without output (paused time excluded). */
  idleTimeoutMs: number | null;
}

/** A session as the API returns it (SPEC §4: camelCase, ISO-8601 UTC, null where unknown). */
export interface SessionView extends SessionFacts {
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
  durationMs: number | null;
  lastActivityAt: string | null;
  removed: boolean;
  removedAt: string | null;
  /** When its tmux session was closed after finishing (finishedTtl); its log and row stay. */
  closedAt: string | null;
}

/** One event row (SPEC §6). */
export interface EventView {
  id: number;
  sessionId: string;
  jobId: string | null;
  type: string;
  data: Record<string, unknown>;
  createdAt: string;
}

/** The answer of `POST /v1/wait`: one entry per requested session, in request order. */
export interface WaitResult {
  /** The session id, or the job id when a job was waited for. */
  id: string;
  /** A session status, or a job status (`running|completed|failed|killed`). */
  status: SessionStatus | 'running' | 'killed';
  exitCode: number | null;
  signal: string | null;
}

/** The body of `POST /v1/sessions`. */
export interface CreateSessionRequest {
  /** A shell command line, run by the session's bash. Mutually exclusive with `argv`. */
  command?: string;
  /** An exact argv; each word is passed literally. */
  argv?: string[];
  name?: string;
  /** Absolute working directory; must exist. */
  cwd: string;
  /** The complete environment of the session (usually the caller's), plus `-e` overrides. */
  env?: Record<string, string>;
  /** Remove the session once it has finished. */
  autoRemove?: boolean;
  /** The caller's umask (default 0o022). */
  umask?: number;
  /** Expire the session this long after it started: ms, or a duration text such as `90s`. */
  timeoutMs?: number | string;
  /** Expire the session after this long without output: ms, or a duration text. */
  idleTimeoutMs?: number | string;
}
