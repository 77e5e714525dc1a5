// The SQL behind `amux events`, `amux history` and `amux stats` (SPEC §4, §6): reads only.
import type { Statement } from 'better-sqlite3';
import type { EventRecord, SessionRecord } from '../core/records.js';
import { SESSION_STATUSES, type SessionStatus } from '../core/types.js';
import type { Db } from './database.js';
import { SESSION_SELECT, toEvent, toSession } from './session-store.js';

type Row = Record<string, unknown>;

const cache = new WeakMap<Db, Map<string, Statement<unknown[]>>>();

/** Prepared once per database and SQL text (the texts vary only by the number of statuses). */
function sql(db: Db, text: string): Statement<unknown[]> {
  let byText = cache.get(db);
  if (!byText) cache.set(db, (byText = new Map()));
  let st = byText.get(text);
  if (!st) byText.set(text, (st = db.prepare<unknown[]>(text)));
  return st;
}

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

/** Events in id order (the order they were written), from a cursor. */
export function readEvents(db: Db, q: EventQuery): EventRecord[] {
  const where = ['id > ?'];
  const args: unknown[] = [q.afterId];
  if (q.sessionId !== undefined) {
    where.push('session_id = ?');
    args.push(q.sessionId);
  }
  if (q.from !== undefined) {
    where.push('created_at >= ?');
    args.push(q.from);
  }
  if (q.untilId !== undefined) {
    where.push('id <= ?');
    args.push(q.untilId);
  }
  args.push(q.limit);
  const rows = sql(db, `SELECT * FROM events WHERE ${where.join(' AND ')} ORDER BY id LIMIT ?`).all(...args) as Row[];
  return rows.map(toEvent);
}

/** The id of the newest event (0 when there is none). */
export function lastEventId(db: Db): number {
  return (sql(db, 'SELECT MAX(id) AS m FROM events').get() as { m: number | null }).m ?? 0;
}

/**
 * A cursor just before the first event created at or after `from` (through the time index), so
 * that reading "the last hour" does not walk every older row.
 */
export function eventCursorFrom(db: Db, from: number): number {
  const row = sql(db, 'SELECT MIN(id) AS m FROM events WHERE created_at >= ?').get(from) as { m: number | null };
  return row.m === null ? lastEventId(db) : row.m - 1;
}

/** The session has been removed (its `session_removed` event is then its last one). */
export function isRemoved(db: Db, sessionId: string): boolean {
  const row = sql(db, 'SELECT removed_at AS r FROM sessions WHERE id = ?').get(sessionId) as { r: number | null } | undefined;
  return row === undefined || row.r !== null; // no row: deleted by historyRetention, gone for good
}

export interface HistoryQuery {
  statuses?: readonly SessionStatus[];
  /** Only sessions created at or after this time (epoch ms). */
  from?: number;
  limit?: number;
}

/** Sessions, removed ones included, newest first. */
export function listHistory(db: Db, q: HistoryQuery = {}): SessionRecord[] {
  const where: string[] = [];
  const args: unknown[] = [];
  if (q.from !== undefined) {
    where.push('created_at >= ?');
    args.push(q.from);
  }
  if (q.statuses?.length) {
    where.push(`status IN (${q.statuses.map(() => '?').join(',')})`);
    args.push(...q.statuses);
  }
  args.push(q.limit ?? -1); // LIMIT -1: no limit
  const text = `${SESSION_SELECT} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, rowid DESC LIMIT ?`;
  return (sql(db, text).all(...args) as Row[]).map(toSession);
}

/** Numbers over the sessions created, and the events written, at or after `from`. */
export interface Stats {
  from: number;
  total: number;
  /** Every status of SPEC §2, zeros included. */
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

const RAN = 'created_at >= ? AND started_at IS NOT NULL AND ended_at IS NOT NULL';

/** Counted, averaged and ranked in SQL: no session row is loaded into memory. */
export function computeStats(db: Db, from: number): Stats {
  const byStatus = Object.fromEntries(SESSION_STATUSES.map((s) => [s, 0])) as Record<SessionStatus, number>;
  for (const r of sql(db, 'SELECT status, COUNT(*) AS n FROM sessions WHERE created_at >= ? GROUP BY status').all(from) as { status: string; n: number }[]) {
    if (r.status in byStatus) byStatus[r.status as SessionStatus] = r.n;
  }
  const total = Object.values(byStatus).reduce((a, b) => a + b, 0);
  const terminal = byStatus.completed + byStatus.failed + byStatus.stopped + byStatus.expired;

  const d = sql(db, `SELECT COUNT(*) AS n, AVG(ended_at - started_at) AS avg FROM sessions WHERE ${RAN}`).get(from) as { n: number; avg: number | null };
  // Nearest rank: the ceil(0.95·n)-th smallest duration (in integers: no 0.95·n rounding error).
  const rank = Math.floor((95 * d.n + 99) / 100);
  const p95 = d.n === 0 ? null : (sql(db, `SELECT ended_at - started_at AS d FROM sessions WHERE ${RAN} ORDER BY d LIMIT 1 OFFSET ?`)
    .get(from, rank - 1) as { d: number }).d;

  const eventsByType: Record<string, number> = {};
  let eventsTotal = 0;
  for (const r of sql(db, 'SELECT type, COUNT(*) AS n FROM events WHERE created_at >= ? GROUP BY type ORDER BY type').all(from) as { type: string; n: number }[]) {
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
