import type { SessionRecord } from '../../core/records.js';
import { CLEARED_ATTENTION, ENDED_DECLARATION, overDeclared } from '../../core/attention.js';
import { assertTransition } from '../../core/state-machine.js';
import { finished, type Decision } from '../../core/status-rules.js';
import { isTerminal } from '../../core/status.js';
import type { DaemonContext } from '../context.js';
import { finishMainJob } from '../job/main-job.js';
import { exitTime, mainExit } from '../output/exit-files.js';

/**
 * Applies a status decision: checks the transition table, writes the row, the job-1 row and a
 * `state_changed` event in one transaction, then tells waiters. Returns the new record.
 *
 * A decision is made from a snapshot; when the row's status changed meanwhile (a kill finished
 * while a refresh was capturing panes), the decision is stale and is dropped. `current` says the
 * caller read `seen` in the same synchronous transaction, so it cannot be stale.
 */
export function applyDecision(ctx: DaemonContext, seen: SessionRecord, decided: Decision, now = Date.now(), current = false): SessionRecord {
  const s = current ? seen : ctx.store.getSession(seen.id);
  if (!s || s.status !== seen.status) return s ?? seen;
  // A state the program declared wins over the evidence (ADR 0034).
  const d = overDeclared(s.status, s, decided, now);
  if (d.status === s.status) return s;
  assertTransition(s.status, d.status);
  const patch: Partial<SessionRecord> = { status: d.status, reason: d.reason };
  if (isTerminal(d.status)) {
    // The program's end ends what it asked for (ADR 0034); its events stay.
    Object.assign(patch, CLEARED_ATTENTION, ENDED_DECLARATION);
    // Not before its start: a command that ended as tmux answered wrote its exit before `begin` ran.
    patch.endedAt = Math.max(d.endedAt ?? now, s.startedAt ?? 0);
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
    if (isTerminal(d.status)) finishMainJob(ctx, s, d, now);
  });
  const next = { ...s, ...patch };
  ctx.bus.emit('change', s.id);
  return next;
}

/** The end of a session whose main command exited with `code`, at the time its shell wrote it. */
export function mainExitDecision(ctx: DaemonContext, s: SessionRecord, code: number): Decision {
  return { ...finished(code), endedAt: exitTime(ctx, s.id, 1) };
}

/**
 * Applies a main command's exit that the exit watcher set aside (the session was pending, paused
 * or under a lock then): the session finishes now. Returns it unchanged while the command runs.
 */
export function applyMainExit(ctx: DaemonContext, s: SessionRecord): SessionRecord {
  const code = mainExit(ctx, s);
  return code === null ? s : applyDecision(ctx, s, mainExitDecision(ctx, s, code));
}
