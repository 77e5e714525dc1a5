import { jobId } from '../../core/ids.js';
import { mainJobStatus } from '../../core/job-end.js';
import type { SessionRecord } from '../../core/records.js';
import type { Decision } from '../../core/status-rules.js';
import type { DaemonContext } from '../context.js';

/**
 * Job 1 of a command session is its main command (src/guides/sessions.md): its row is written when
 * the session starts and ended with the session, inside the caller's transaction, so the session
 * and its job 1 always tell one story. The rule itself is `isMainJob` (core/job-end.ts).
 */
export function startMainJob(ctx: DaemonContext, s: SessionRecord, at: number): void {
  if (!s.hasCommand) return;
  const id = jobId(s.id, 1);
  ctx.store.insertJob({
    id, sessionId: s.id, seq: 1, command: s.command!, background: false, status: 'running',
    exitCode: null, signal: null, pid: null, startedAt: at, endedAt: null, tty: true, timeoutMs: null,
    error: null, stdoutBytes: null, stderrBytes: null, stdoutTruncated: false, stderrTruncated: false,
  });
  ctx.store.addEvent({ sessionId: s.id, jobId: id, type: 'job_started', data: { seq: 1, command: s.command, background: false, tty: true }, createdAt: at });
}

/** Ends job 1 with its session's terminal decision (a session that never started has no job 1). */
export function finishMainJob(ctx: DaemonContext, s: SessionRecord, d: Decision, at: number): void {
  if (!s.hasCommand || s.startedAt == null) return;
  const status = mainJobStatus(d.status);
  const id = jobId(s.id, 1);
  const exitCode = d.exitCode ?? null;
  ctx.store.updateJob(id, { status, exitCode, signal: d.signal ?? null, endedAt: at });
  ctx.store.addEvent({ sessionId: s.id, jobId: id, type: 'job_finished', data: { status, exitCode }, createdAt: at });
}
