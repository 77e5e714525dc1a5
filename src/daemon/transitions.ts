import { jobId } from '../core/ids.js';
import type { SessionRecord } from '../core/records.js';
import { assertTransition } from '../core/state-machine.js';
import { finished, type Decision } from '../core/status-rules.js';
import { isTerminal } from '../core/types.js';
import type { DaemonContext } from './context.js';
import { mainExit } from './exit-files.js';

/**
 * Applies a status decision: checks the transition table, writes the row, the job-1 row and a
 * `state_changed` event in one transaction, then tells waiters. Returns the new record.
 *
 * A decision is made from a snapshot; when the row's status changed meanwhile (a kill finished
 * while a refresh was capturing panes), the decision is stale and is dropped. `current` says the
 * caller read `seen` in the same synchronous transaction, so it cannot be stale.
 */
export function applyDecision(ctx: DaemonContext, seen: SessionRecord, d: Decision, now = Date.now(), current = false): SessionRecord {
  const s = current ? seen : ctx.store.getSession(seen.id);
  if (!s || s.status !== seen.status || d.status === s.status) return s ?? seen;
  assertTransition(s.status, d.status);
  const patch: Partial<SessionRecord> = { status: d.status };
  if (isTerminal(d.status)) {
    patch.endedAt = now;
    patch.exitCode = d.exitCode ?? null;
    patch.signal = d.signal ?? null;
    patch.error = d.error ?? null;
  }
  ctx.store.tx(() => {
    ctx.store.updateSession(s.id, patch);
    ctx.store.addEvent({
      sessionId: s.id, jobId: null, type: 'state_changed',
      data: { from: s.status, to: d.status, reason: d.reason, ...(d.error ? { error: d.error } : {}) },
      createdAt: now,
    });
    if (isTerminal(d.status) && s.hasCommand && s.startedAt != null) {
      const job = d.status === 'completed' ? 'completed' : d.status === 'failed' ? 'failed' : 'killed';
      ctx.store.updateJob(jobId(s.id, 1), { status: job, exitCode: patch.exitCode ?? null, signal: patch.signal ?? null, endedAt: now });
      ctx.store.addEvent({ sessionId: s.id, jobId: jobId(s.id, 1), type: 'job_finished', data: { status: job, exitCode: patch.exitCode ?? null }, createdAt: now });
    }
  });
  const next = { ...s, ...patch };
  ctx.bus.emit('change', s.id);
  return next;
}

/**
 * Applies a main command's exit that the exit watcher set aside (the session was pending, paused
 * or under a lock then): the session finishes now. Returns it unchanged while the command runs.
 */
export function applyMainExit(ctx: DaemonContext, s: SessionRecord): SessionRecord {
  const code = mainExit(ctx, s);
  return code === null ? s : applyDecision(ctx, s, finished(code));
}
