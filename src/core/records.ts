import type { AttentionFields } from './attention.js';
import type { JobStatus, SessionStatus } from './status.js';

/** What a session is, the same in the store and in the API (src/guides/api.md). */
export interface SessionFacts {
  id: string;
  name: string | null;
  status: SessionStatus;
  command: string | null;
  cwd: string;
  exitCode: number | null;
  signal: string | null;
  error: string | null;
  /** Why it has its status (`output changed`, `cpu`, `reading the terminal`, `command exited`, …; src/guides/statuses.md). */
  reason: string | null;
  pid: number | null;
  logBytes: number;
  logTruncated: boolean;
  autoRemove: boolean;
  /** `run --timeout`: the session expires this long after it started (null: none). */
  timeoutMs: number | null;
  /** `run --idle-timeout`: the session expires after this long without output (paused time excluded). */
  idleTimeoutMs: number | null;
  /** `run -l KEY=VALUE` (src/guides/sessions.md "Restart, labels, groups"). */
  labels: Record<string, string>;
  /** The session this one restarted (`amux restart`, a restart policy; ADR 0033). */
  restartOf: string | null;
  /** How many restarts came before this session in its chain. */
  restarts: number;
  /** How the run this one restarted ended (null: not a restart); src/guides/sessions.md "Restart, labels, groups". */
  previousEnd: PreviousEnd | null;
  /** `run --restart`: `on-failure`, `on-failure:N` or `always`; null: no restarts. */
  restartPolicy: string | null;
  /** `run -g NAME`: the group whose parallel limit it counts against (src/guides/sessions.md "Restart, labels, groups"). */
  group: string | null;
  /** `run --after`: the sessions that must complete (exit 0) before it starts (full ids). */
  after: string[];
  /** `run --on-end`: a shell command run when it ends (src/guides/sessions.md "Notices"). */
  onEnd: string | null;
}

/** The end of the run a restart replaced: the same in the store and in the API. */
export interface PreviousEnd {
  id: string;
  status: SessionStatus;
  exitCode: number | null;
  signal: string | null;
  reason: string | null;
  /** ISO-8601 UTC. */
  endedAt: string | null;
}

/** A session as stored (times in epoch ms). The store maps rows to this; the API maps it to SessionView. */
export interface SessionRecord extends SessionFacts, AttentionFields {
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
  /** A pending session starts no earlier than this (`run --delay`, a restart's backoff); null: as soon as a slot frees. */
  startAfter: number | null;
}

/** What a job is, the same in the store and in the API. */
export interface JobFacts {
  id: string;
  sessionId: string;
  seq: number;
  command: string;
  background: boolean;
  status: JobStatus;
  exitCode: number | null;
  signal: string | null;
  /** A background job's process group; null for foreground jobs. */
  pid: number | null;
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

/** A job as stored (times in epoch ms). */
export interface JobRecord extends JobFacts {
  startedAt: number;
  endedAt: number | null;
}

export interface EventRecord {
  id: number;
  sessionId: string;
  jobId: string | null;
  type: string;
  data: Record<string, unknown>;
  createdAt: number;
}
