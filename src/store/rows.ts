import type { EventRecord, JobRecord, SessionRecord } from '../core/records.js';

/** Rows of amux.db as records, and records as rows (the Store's column maps). */

export type Row = Record<string, unknown>;

export const SESSION_COLUMNS: Record<keyof SessionRecord, string> = {
  id: 'id', name: 'name', status: 'status', command: 'command', cwd: 'cwd', exitCode: 'exit_code',
  signal: 'signal', error: 'error', createdAt: 'created_at', startedAt: 'started_at', endedAt: 'ended_at',
  lastActivityAt: 'last_activity_at', pid: 'pid', paneId: 'pane_id', nonce: 'nonce', autoRemove: 'auto_remove',
  removedAt: 'removed_at', lastOutput: 'last_output', logBytes: 'log_bytes', logTruncated: 'log_truncated',
  logChunkBytes: 'log_chunk_bytes', logCapBytes: 'log_cap_bytes', hasCommand: 'has_command',
  timeoutMs: 'timeout_ms', idleTimeoutMs: 'idle_timeout_ms', closedAt: 'closed_at', reason: 'reason',
  labels: 'labels', restartOf: 'restart_of', restarts: 'restarts', previousEnd: 'previous_end', restartPolicy: 'restart_policy', startAfter: 'start_after', group: 'group_name', after: 'after_ids', onEnd: 'on_end',
  attentionAt: 'attention_at', attentionSource: 'attention_source', attentionTitle: 'attention_title', attentionMessage: 'attention_message',
  attentionOffset: 'attention_offset', declaredState: 'declared_state', declaredMessage: 'declared_message', declaredAt: 'declared_at',
  declaredUntil: 'declared_until', declaredPgid: 'declared_pgid', declaredSource: 'declared_source', title: 'title',
};
/** Columns aliased to record fields, so that SQLite hands back rows already shaped as records. */
export const SESSION_SELECT = `SELECT ${Object.entries(SESSION_COLUMNS).map(([f, c]) => `${c} AS "${f}"`).join(', ')} FROM sessions`;

export function toSession(row: Row): SessionRecord {
  row.autoRemove = row.autoRemove === 1;
  row.logTruncated = row.logTruncated === 1;
  row.hasCommand = row.hasCommand === 1;
  row.labels = JSON.parse((row.labels as string | null) ?? '{}');
  row.after = JSON.parse((row.after as string | null) ?? '[]');
  row.previousEnd = row.previousEnd === null ? null : JSON.parse(row.previousEnd as string);
  return row as unknown as SessionRecord;
}

export function toDbValue(v: unknown): unknown {
  if (typeof v === 'boolean') return v ? 1 : 0;
  return v !== null && typeof v === 'object' ? JSON.stringify(v) : v;
}

export function toJob(row: Row): JobRecord {
  return {
    id: row.id as string, sessionId: row.session_id as string, seq: row.seq as number,
    command: row.command as string, background: row.background === 1,
    status: row.status as JobRecord['status'], exitCode: (row.exit_code as number) ?? null,
    signal: (row.signal as string) ?? null, pid: (row.pid as number) ?? null,
    startedAt: row.started_at as number, endedAt: (row.ended_at as number) ?? null,
    tty: row.tty === 1, timeoutMs: (row.timeout_ms as number) ?? null, error: (row.error as string) ?? null,
    stdoutBytes: (row.stdout_bytes as number) ?? null, stderrBytes: (row.stderr_bytes as number) ?? null,
    stdoutTruncated: row.stdout_truncated === 1, stderrTruncated: row.stderr_truncated === 1,
  };
}

export const JOB_COLUMNS: Partial<Record<keyof JobRecord, string>> = {
  status: 'status', exitCode: 'exit_code', signal: 'signal', pid: 'pid', endedAt: 'ended_at', error: 'error',
  stdoutBytes: 'stdout_bytes', stderrBytes: 'stderr_bytes', stdoutTruncated: 'stdout_truncated', stderrTruncated: 'stderr_truncated',
};

export function toEvent(row: Row): EventRecord {
  return {
    id: row.id as number, sessionId: row.session_id as string, jobId: (row.job_id as string) ?? null,
    type: row.type as string, data: JSON.parse(row.data as string), createdAt: row.created_at as number,
  };
}

/** A row shared between callers (the Store's memory, ADR 0041): frozen, and its nested objects too. */
export function freezeRow<T extends object>(s: T): T {
  for (const v of Object.values(s)) if (v !== null && typeof v === 'object') Object.freeze(v);
  return Object.freeze(s);
}
