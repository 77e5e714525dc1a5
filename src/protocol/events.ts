// Events, history and stats on the wire (src/guides/api.md).
import type { SessionStatus } from '../core/status.js';

/** One event row. */
export interface EventView {
  id: number;
  sessionId: string;
  jobId: string | null;
  type: string;
  data: Record<string, unknown>;
  createdAt: string;
}

/** Query of `GET /v1/events` (NDJSON of EventView, oldest first). */
export interface EventsQuery {
  /** Only this session (a reference; a removed one by full id). */
  session?: string;
  /** Only events of the last `since`: ms or a duration text; or since a time (ISO-8601, epoch ms of 12+ digits). */
  since?: number | string;
  /** Only events before this time: ISO-8601, epoch ms, or a duration before now (not with follow). */
  until?: string;
  /** Then every new event as it is written, until the client leaves or the session is removed. */
  follow?: boolean;
  /** Only events after this id (a reader's cursor). */
  after?: number;
  /** At most this many (not with follow). */
  limit?: number;
  /** Only events written from now on (what `events -f` does without --since or --after). */
  new?: boolean;
}

/** Query of `GET /v1/history` (an array of SessionView, removed sessions included). */
export interface HistoryQuery {
  status?: readonly SessionStatus[] | string;
  /** Name globs and labels, as in `GET /v1/sessions` (src/guides/sessions.md "Restart, labels, groups"). */
  name?: readonly string[] | string;
  label?: readonly string[] | string;
  /** Only sessions created in the last `since`: ms or a duration text; or since a time (ISO-8601, epoch ms of 12+ digits). */
  since?: number | string;
  /** Only sessions created before this time: ISO-8601, epoch ms, or a duration before now. */
  until?: string;
  limit?: number;
}

/** Query of `GET /v1/stats`. */
export interface StatsQuery {
  /** The window: ms or a duration text; default 24h. */
  since?: number | string;
}

/** The answer of `GET /v1/stats`: numbers over the sessions created, and events written, in a window that ends now. */
export interface StatsView {
  /** Start of the window (ISO-8601 UTC). */
  since: string;
  windowMs: number;
  total: number;
  /** Every status, zeros included. */
  byStatus: Record<SessionStatus, number>;
  /** Sessions in a terminal status: the denominator of the rates. */
  terminal: number;
  /** Sessions that started and ended: the ones the durations are over. */
  durationCount: number;
  /** Mean of endedAt − startedAt, rounded to ms; null without such sessions. */
  avgDurationMs: number | null;
  /** Nearest-rank 95th percentile of endedAt − startedAt. */
  p95DurationMs: number | null;
  /** failed / terminal; null without a terminal session. */
  failureRate: number | null;
  /** expired / terminal; null without a terminal session. */
  expiryRate: number | null;
  eventsTotal: number;
  eventsByType: Record<string, number>;
}
