import type { EventRecord, JobRecord, SessionRecord } from '../core/records.js';
import { freezeRow, JOB_COLUMNS, SESSION_COLUMNS, SESSION_SELECT, toDbValue, toEvent, toJob, toSession, type Row } from './rows.js';
import { LIVE_STATUSES, type SessionStatus } from '../core/status.js';
import type { Statement } from 'better-sqlite3';
import type { Db } from './database.js';

/** The live statuses as SQL text. */
const LIVE_SQL = LIVE_STATUSES.map((s) => `'${s}'`).join(',');

/** Values remembered between two writes at most (names and prefixes looked up that match none are kept too: null). */
const MEMORY_MAX = 4096;

/** All SQL of amux; the daemon is its only user and the only writer (ADR 0002). */
export class Store {
  private readonly statements = new Map<string, Statement<unknown[]>>();
  private notifyQueued = false;
  /** Called (once per burst, after it committed) when event rows were added: `events -f` readers wake on it. */
  onEvent: (() => void) | null = null;

  /**
   * Statements run that can write, counted as they run (a rolled-back one too): while it stands, no
   * row changed, and the reads the daemon repeats on a timer are answered from memory
   * (`remembered`, ADR 0041). Every write goes through `sql`, and no other process opens the database.
   */
  private writes = 0;

  constructor(readonly db: Db) {}

  get writeCount(): number {
    return this.writes;
  }

  /** Prepared statements are compiled once and reused (the monitor runs the same few often). */
  sql(text: string): Statement<unknown[]> {
    let st = this.statements.get(text);
    if (!st) {
      st = this.db.prepare<unknown[]>(text);
      if (!st.reader) {
        const run = st.run.bind(st);
        st.run = (...params: unknown[]) => {
          this.writes++;
          return run(...params);
        };
      }
      this.statements.set(text, st);
    }
    return st;
  }

  /** Runs `fn` in one transaction: all of its writes land, or none. */
  tx<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  insertSession(s: SessionRecord): void {
    const cols = Object.values(SESSION_COLUMNS);
    const fields = Object.keys(SESSION_COLUMNS) as (keyof SessionRecord)[];
    this
      .sql(`INSERT INTO sessions (${cols.join(',')}) VALUES (${cols.map(() => '?').join(',')})`)
      .run(...fields.map((f) => toDbValue(s[f])));
  }

  updateSession(id: string, patch: Partial<SessionRecord>): void {
    const fields = (Object.keys(patch) as (keyof SessionRecord)[]).filter((f) => f !== 'id');
    if (fields.length === 0) return;
    const sets = fields.map((f) => `${SESSION_COLUMNS[f]} = ?`).join(', ');
    this.sql(`UPDATE sessions SET ${sets} WHERE id = ?`).run(...fields.map((f) => toDbValue(patch[f])), id);
  }

  /**
   * What `read` gives, from memory while no statement that can write has run since it was read
   * (ADR 0041): the monitor lists the live sessions several times a second, the timeouts the
   * sessions and jobs with a limit, and a run's change events are each heard by half a dozen
   * listeners that all read the same row (ADR 0070); with nobody calling nothing changes. Asking
   * costs no SQL: every write goes through `sql`, and the daemon is the database's only user. Not
   * inside a transaction (a rollback would leave what it undid). What is kept is shared between
   * callers: frozen by them (`rowsRemembered`, `getSession`). At most MEMORY_MAX values.
   */
  remembered<T>(key: string, read: () => T): T {
    if (this.db.inTransaction) return read();
    if (this.memoryAt !== this.writes) {
      this.memory.clear();
      this.memoryAt = this.writes;
    }
    if (this.memory.has(key)) return this.memory.get(key) as T;
    const value = read();
    if (this.memory.size >= MEMORY_MAX) this.memory.clear();
    this.memory.set(key, value);
    return value;
  }

  private readonly memory = new Map<string, unknown>();
  private memoryAt = -1;

  /** A session's row (frozen, from memory between writes: `remembered`); null when there is none. */
  getSession(id: string): SessionRecord | null {
    return this.remembered(`session:${id}`, () => {
      const s = this.readSession(id);
      return s && freezeRow(s);
    });
  }

  private readSession(id: string): SessionRecord | null {
    const row = this.sql(`${SESSION_SELECT} WHERE id = ?`).get(id) as Row | undefined;
    return row ? toSession(row) : null;
  }

  /**
   * Sessions newest first: not removed ones unless `includeRemoved` (`amux history`), optionally
   * only some statuses, only those created at or after `from` (and before `until`), at most `limit`.
   */
  listSessions(opts: { includeRemoved?: boolean; statuses?: readonly SessionStatus[]; from?: number; until?: number; limit?: number } = {}): SessionRecord[] {
    const where: string[] = [];
    const params: unknown[] = [];
    if (!opts.includeRemoved) where.push('removed_at IS NULL');
    if (opts.statuses?.length) {
      where.push(`status IN (${opts.statuses.map(() => '?').join(',')})`);
      params.push(...opts.statuses);
    }
    if (opts.from !== undefined) {
      where.push('created_at >= ?');
      params.push(opts.from);
    }
    if (opts.until !== undefined) {
      where.push('created_at < ?');
      params.push(opts.until);
    }
    params.push(opts.limit ?? -1); // LIMIT -1: no limit
    const sql = `${SESSION_SELECT} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, rowid DESC LIMIT ?`;
    return (this.sql(sql).all(...params) as Row[]).map(toSession);
  }

  /** Sessions that hold a `maxLive` slot: working, idle or paused. */
  countLive(): number {
    return (this.sql(`SELECT COUNT(*) AS n FROM sessions WHERE status IN (${LIVE_SQL}) AND removed_at IS NULL`).get() as { n: number }).n;
  }

  countPending(): number {
    return (this.sql("SELECT COUNT(*) AS n FROM sessions WHERE status = 'pending'").get() as { n: number }).n;
  }

  /** Pending sessions due to start at `now` (no `startAfter`, or one passed), oldest first (the queue's order). */
  pendingIds(limit: number, now = Date.now()): { id: string; group: string | null; after: string }[] {
    const sql = "SELECT id, group_name AS \"group\", after_ids AS after FROM sessions WHERE status = 'pending' AND (start_after IS NULL OR start_after <= ?) ORDER BY created_at, rowid LIMIT ?";
    return this.sql(sql).all(now, limit) as { id: string; group: string | null; after: string }[];
  }

  /** The earliest `startAfter` of a pending session still in the future, or null. */
  nextStartAfter(now = Date.now()): number | null {
    const row = this.sql("SELECT MIN(start_after) AS t FROM sessions WHERE status = 'pending' AND start_after > ?").get(now) as { t: number | null };
    return row.t;
  }

  /** Groups with their parallel limit, by name (src/guides/sessions.md "Restart, labels, groups"). */
  listGroups(): { name: string; parallel: number; createdAt: number }[] {
    return this.sql('SELECT name, parallel, created_at AS createdAt FROM groups ORDER BY name').all() as { name: string; parallel: number; createdAt: number }[];
  }

  getGroup(name: string): { name: string; parallel: number } | null {
    return (this.sql('SELECT name, parallel FROM groups WHERE name = ?').get(name) as { name: string; parallel: number } | undefined) ?? null;
  }

  setGroup(name: string, parallel: number, now: number): void {
    this.sql('INSERT INTO groups (name, parallel, created_at) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET parallel = excluded.parallel').run(name, parallel, now);
  }

  deleteGroup(name: string): void {
    this.sql('DELETE FROM groups WHERE name = ?').run(name);
  }

  /** Live and pending sessions of each group: what `group ls` shows and what the queue counts. */
  groupCounts(): Map<string, { live: number; pending: number }> {
    const rows = this.sql(`SELECT group_name AS g, SUM(status IN (${LIVE_SQL})) AS live, SUM(status = 'pending') AS pending FROM sessions WHERE group_name IS NOT NULL AND removed_at IS NULL GROUP BY group_name`).all() as { g: string; live: number; pending: number }[];
    return new Map(rows.map((r) => [r.g, { live: r.live, pending: r.pending }]));
  }

  /** What \`restart\` needs to start a session again (ADR 0033); null once it was removed. */
  getSpec(id: string): Record<string, unknown> | null {
    const row = this.sql('SELECT spec FROM sessions WHERE id = ?').get(id) as { spec: string | null } | undefined;
    return row?.spec ? JSON.parse(row.spec) : null;
  }

  setSpec(id: string, spec: Record<string, unknown> | null): void {
    this.sql('UPDATE sessions SET spec = ? WHERE id = ?').run(spec === null ? null : JSON.stringify(spec), id);
  }

  /** Live sessions with a `--timeout` or `--idle-timeout` (checked several times a second). */
  sessionsWithLimits(): SessionRecord[] {
    const sql = `${SESSION_SELECT} WHERE status IN (${LIVE_SQL}) AND removed_at IS NULL AND (timeout_ms IS NOT NULL OR idle_timeout_ms IS NOT NULL)`;
    return (this.sql(sql).all() as Row[]).map(toSession);
  }

  /** Finished sessions not removed whose tmux session is still open and that ended at or before `cutoff`. */
  unclosedFinished(cutoff: number): SessionRecord[] {
    const sql = `${SESSION_SELECT} WHERE ended_at IS NOT NULL AND ended_at <= ? AND closed_at IS NULL AND removed_at IS NULL`;
    return (this.sql(sql).all(cutoff) as Row[]).map(toSession);
  }

  /** Finished sessions (removed or not) that ended at or before `cutoff`, oldest first. */
  finishedBefore(cutoff: number, opts: { includeRemoved: boolean }): SessionRecord[] {
    const sql = `${SESSION_SELECT} WHERE ended_at IS NOT NULL AND ended_at <= ?${opts.includeRemoved ? '' : ' AND removed_at IS NULL'} ORDER BY ended_at`;
    return (this.sql(sql).all(cutoff) as Row[]).map(toSession);
  }

  /** Deletes sessions with their jobs and events (history retention). */
  deleteSessions(ids: readonly string[]): void {
    this.tx(() => {
      for (const id of ids) {
        this.sql('DELETE FROM events WHERE session_id = ?').run(id);
        this.sql('DELETE FROM jobs WHERE session_id = ?').run(id);
        this.sql('DELETE FROM sessions WHERE id = ?').run(id);
      }
    });
  }

  idExists(id: string): boolean {
    return this.sql('SELECT 1 FROM sessions WHERE id = ?').get(id) !== undefined;
  }

  nameInUse(name: string): boolean {
    return this.sql('SELECT 1 FROM sessions WHERE name = ? AND removed_at IS NULL').get(name) !== undefined;
  }

  insertJob(j: JobRecord): void {
    this
      .sql('INSERT INTO jobs (id, session_id, seq, command, background, status, exit_code, signal, pid, started_at, ended_at, tty, timeout_ms, error, stdout_bytes, stderr_bytes, stdout_truncated, stderr_truncated) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)')
      .run(j.id, j.sessionId, j.seq, j.command, j.background ? 1 : 0, j.status, j.exitCode, j.signal, j.pid, j.startedAt, j.endedAt,
        j.tty ? 1 : 0, j.timeoutMs, j.error, j.stdoutBytes, j.stderrBytes, j.stdoutTruncated ? 1 : 0, j.stderrTruncated ? 1 : 0);
  }

  updateJob(id: string, patch: Partial<JobRecord>): void {
    const keys = Object.keys(patch).filter((k) => JOB_COLUMNS[k as keyof JobRecord]) as (keyof JobRecord)[];
    if (keys.length === 0) return;
    const set = keys.map((k) => `${JOB_COLUMNS[k]} = ?`).join(', ');
    this.sql(`UPDATE jobs SET ${set} WHERE id = ?`).run(...keys.map((k) => toDbValue(patch[k])), id);
  }

  getJob(id: string): JobRecord | null {
    const row = this.sql('SELECT * FROM jobs WHERE id = ?').get(id) as Row | undefined;
    return row ? toJob(row) : null;
  }

  /** The session's jobs, newest first; optionally only some statuses, only background ones, at most `limit`. */
  listJobs(sessionId: string, filter: { statuses?: readonly string[]; background?: boolean; limit?: number } = {}): JobRecord[] {
    const where = ['session_id = ?'];
    const args: unknown[] = [sessionId];
    if (filter.statuses?.length) {
      where.push(`status IN (${filter.statuses.map(() => '?').join(', ')})`);
      args.push(...filter.statuses);
    }
    if (filter.background !== undefined) {
      where.push('background = ?');
      args.push(filter.background ? 1 : 0);
    }
    const limit = filter.limit === undefined ? '' : ' LIMIT ?';
    if (filter.limit !== undefined) args.push(filter.limit);
    return (this.sql(`SELECT * FROM jobs WHERE ${where.join(' AND ')} ORDER BY seq DESC${limit}`).all(...args) as Row[]).map(toJob);
  }

  /** Running jobs of every session (the refresh's sweep, kills): frozen, from memory between writes (`remembered`). */
  runningJobs(): readonly JobRecord[] {
    return this.remembered('jobs:running', () => Object.freeze((this.sql("SELECT * FROM jobs WHERE status = 'running'").all() as Row[]).map((r) => freezeRow(toJob(r)))));
  }

  /** Running jobs with a `--timeout` (the timeouts check). */
  jobsWithLimits(): JobRecord[] {
    return (this.sql("SELECT * FROM jobs WHERE status = 'running' AND timeout_ms IS NOT NULL").all() as Row[]).map(toJob);
  }

  /** The next job number of a session: job ids are never reused. */
  nextJobSeq(sessionId: string): number {
    const row = this.sql('SELECT MAX(seq) AS m FROM jobs WHERE session_id = ?').get(sessionId) as { m: number | null };
    return (row.m ?? 0) + 1;
  }

  addEvent(e: Omit<EventRecord, 'id'>): EventRecord {
    const info = this
      .sql('INSERT INTO events (session_id, job_id, type, data, created_at) VALUES (?,?,?,?,?)')
      .run(e.sessionId, e.jobId, e.type, JSON.stringify(e.data), e.createdAt);
    if (this.onEvent && !this.notifyQueued) {
      // After the current synchronous work, so that the transaction that wrote the row has committed.
      this.notifyQueued = true;
      queueMicrotask(() => {
        this.notifyQueued = false;
        this.onEvent?.();
      });
    }
    return { ...e, id: Number(info.lastInsertRowid) };
  }

  listEvents(sessionId: string, limit = 100): EventRecord[] {
    const rows = this.sql('SELECT * FROM events WHERE session_id = ? ORDER BY id DESC LIMIT ?').all(sessionId, limit) as Row[];
    return rows.map(toEvent).reverse();
  }
}
