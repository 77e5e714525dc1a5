import type { SessionFacts } from './types.js';

/** A session as stored (times in epoch ms). The store maps rows to this; the API maps it to SessionView. */
export interface SessionRecord extends SessionFacts {
  createdAt: number;
  startedAt: number | null;
  endedAt: number | null;
  lastActivityAt: number | null;
  paneId: string | null;
  nonce: string;
  removedAt: number | null;
  lastOutput: string | null;
  /** Size of one log chunk and the cap in force when the session started (ADR 0005). */
  logChunkBytes: number;
  logCapBytes: number;
  /** The session has a main command (job 1); otherwise it is a shell session. */
  hasCommand: boolean;
  /** When the retention sweep closed its tmux session (finishedTtl). */
  closedAt: number | null;
}

export type JobStatus = 'running' | 'completed' | 'failed' | 'killed';

export interface JobRecord {
  id: string;
  sessionId: string;
  seq: number;
  command: string;
  background: boolean;
  status: JobStatus;
  exitCode: number | null;
  signal: string | null;
  pid: number | null;
  startedAt: number;
  endedAt: number | null;
  /** Runs on the terminal (its output is in the session log); otherwise stdout and stderr are captured. */
  tty: boolean;
  timeoutMs: number | null;
  error: string | null;
  /** Total bytes each captured stream received (null for tty jobs). */
  stdoutBytes: number | null;
  stderrBytes: number | null;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
}

export interface EventRecord {
  id: number;
  sessionId: string;
  jobId: string | null;
  type: string;
  data: Record<string, unknown>;
  createdAt: number;
}
