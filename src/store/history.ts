// The SQL behind `amux events` and `amux stats` (src/guides/sessions.md): reads only, through the Store's
// prepared statements. (`amux history` is Store.listSessions with removed sessions included.)
import type { EventRecord } from '../core/records.js';
import type { StatsView } from '../protocol/events.js';
import { SESSION_STATUSES, TERMINAL_STATUSES, type SessionStatus } from '../core/status.js';
import { toEvent } from './rows.js';
import type { Store } from './session-store.js';

type Row = Record<string, unknown>;

export interface EventQuery {
  /** Only events after this id (the cursor of a reader). */
  afterId: number;
  /** Only this session's events. */
  sessionId?: string;
  /** Only events created at or after this time (epoch ms). */
  from?: number;
  /** Only events up to this id (a snapshot taken when the reader came). */
  untilId?: number;
  limit: number;
}

/** `col op ?` conditions whose value is given (undefined ones are left out), joined by AND. */
function where(conds: readonly [string, unknown][]): { sql: string; args: unknown[] } {
  const given = conds.filter(([, v]) => v !== undefined);
  return { sql: given.map(([c]) => c).join(' AND '), args: given.map(([, v]) => v) };
}

/** Events in id order (the order they were written), from a cursor. */
export function readEvents(store: Store, q: EventQuery): EventRecord[] {
  const w = where([['id > ?', q.afterId], ['session_id = ?', q.sessionId], ['created_at >= ?', q.from], ['id <= ?', q.untilId]]);
  const rows = store.sql(`SELECT * FROM events WHERE ${w.sql} ORDER BY id LIMIT ?`).all(...w.args, q.limit) as Row[];
  return rows.map(toEvent);
}

/** The id of the newest event (0 when there is none). */
export function lastEventId(store: Store): number {
  return (store.sql('SELECT MAX(id) AS m FROM events').get() as { m: number | null }).m ?? 0;
}

/**
 * A cursor just before the first event created at or after `from` (through the time index), so
 * that reading "the last hour" does not walk every older row.
 */
export function eventCursorFrom(store: Store, from: number): number {
  const row = store.sql('SELECT MIN(id) AS m FROM events WHERE created_at >= ?').get(from) as { m: number | null };
  return row.m === null ? lastEventId(store) : row.m - 1;
}

/** The session has been removed (its `session_removed` event is then its last one), or deleted by historyRetention. */
export function isRemoved(store: Store, sessionId: string): boolean {
  const s = store.getSession(sessionId);
  return s === null || s.removedAt !== null;
}

/** Numbers over the sessions created, and the events written, at or after `from` (the API adds the window: StatsView). */
export type Stats = Omit<StatsView, 'since' | 'windowMs'> & { from: number };

const RAN = 'created_at >= ? AND started_at IS NOT NULL AND ended_at IS NOT NULL';

/** Counted, averaged and ranked in SQL: no session row is loaded into memory. */
export function computeStats(store: Store, from: number): Stats {
  const byStatus = Object.fromEntries(SESSION_STATUSES.map((s) => [s, 0])) as Record<SessionStatus, number>;
  for (const r of store.sql('SELECT status, COUNT(*) AS n FROM sessions WHERE created_at >= ? GROUP BY status').all(from) as { status: string; n: number }[]) {
    if (r.status in byStatus) byStatus[r.status as SessionStatus] = r.n;
  }
  const total = Object.values(byStatus).reduce((a, b) => a + b, 0);
  const terminal = [...TERMINAL_STATUSES].reduce((n, st) => n + byStatus[st], 0);

  const d = store.sql(`SELECT COUNT(*) AS n, AVG(ended_at - started_at) AS avg FROM sessions WHERE ${RAN}`).get(from) as { n: number; avg: number | null };
  // Nearest rank: the ceil(0.95·n)-th smallest duration (in integers: no 0.95·n rounding error).
  const rank = Math.floor((95 * d.n + 99) / 100);
  const p95 = d.n === 0 ? null : (store.sql(`SELECT ended_at - started_at AS d FROM sessions WHERE ${RAN} ORDER BY d LIMIT 1 OFFSET ?`)
    .get(from, rank - 1) as { d: number }).d;

  const eventsByType: Record<string, number> = {};
  let eventsTotal = 0;
  for (const r of store.sql('SELECT type, COUNT(*) AS n FROM events WHERE created_at >= ? GROUP BY type ORDER BY type').all(from) as { type: string; n: number }[]) {
    eventsByType[r.type] = r.n;
    eventsTotal += r.n;
  }
  return {
    from, total, byStatus, terminal,
    durationCount: d.n,
    avgDurationMs: d.avg === null ? null : Math.round(d.avg),
    p95DurationMs: p95,
    failureRate: terminal === 0 ? null : byStatus.failed / terminal,
    expiryRate: terminal === 0 ? null : byStatus.expired / terminal,
    eventsTotal, eventsByType,
  };
}

/**
 * One event of a session (`amux wait --until`, ADR 0018): of `type`, moving it to one of `to` (its
 * `data.to`) when given, of job `jobId` when given, after event `after` when given; the oldest
 * such with `after`, else the newest.
 */
export function findEvent(store: Store, sessionId: string, q: { type: string; to?: readonly string[]; jobId?: string; after?: number }): EventRecord | null {
  const w = where([['session_id = ?', sessionId], ['type = ?', q.type], ['job_id = ?', q.jobId], ['id > ?', q.after]]);
  const to = q.to ? ` AND json_extract(data, '$.to') IN (${q.to.map(() => '?').join(',')})` : '';
  const order = q.after !== undefined ? 'ASC' : 'DESC';
  const row = store.sql(`SELECT * FROM events WHERE ${w.sql}${to} ORDER BY id ${order} LIMIT 1`).get(...w.args, ...(q.to ?? [])) as Row | undefined;
  return row ? toEvent(row) : null;
}
