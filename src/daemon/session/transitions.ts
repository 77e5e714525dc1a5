import type { SessionRecord } from '../../core/records.js';
import { CLEARED_ATTENTION, ENDED_DECLARATION } from '../../core/attention.js';
import { overAnnounced } from '../../core/announced.js';
import { assertTransition } from '../../core/state-machine.js';
import { finished, type Decision } from '../../core/status-rules.js';
import { isTerminal } from '../../core/status.js';
import { runtimeOf, type DaemonContext } from '../context.js';
import { AmuxError, toAmuxError } from '../../errors.js';
import { finishMainJob } from '../job/main-job.js';
import type { EndedBy } from './attention.js';
import { exitTime, mainExit } from '../output/exit-files.js';

/**
 * Applies a status decision: checks the transition table, writes the row, the job-1 row and a
 * `state_changed` event in one transaction, then tells waiters. Returns the new record.
 *
 * A decision is made from a snapshot; when the row's status changed meanwhile (a kill finished
 * while a refresh was capturing panes), the decision is stale and is dropped. `current` says the
 * caller read `seen` in the same synchronous transaction, so it cannot be stale.
 */
export function applyDecision(ctx: DaemonContext, seen: SessionRecord, decision: Decision, when = Date.now(), current = false): SessionRecord {
  const s = current ? seen : ctx.store.getSession(seen.id);
  if (!s || s.status !== seen.status) return s ?? seen;
  // An end that was acted on but not recorded (a full disk) is what happened, whatever is seen
  // since. It is kept until the row says it ended: a write inside a caller's transaction (the
  // monitor's) fails only when that commits.
  const rt = runtimeOf(ctx, s.id);
  if (isTerminal(s.status)) delete rt.unwritten;
  const { decision: decided, at: now } = rt.unwritten ?? { decision, at: when };
  // A state the program declared wins over the evidence (ADR 0034); what it announced is weighed
  // against it (ADR 0049).
  const d = overAnnounced(s.status, s, rt.announced, decided, now);
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
  try {
    writeDecision(ctx, s, d, patch, now);
  } catch (err) {
    const e = toAmuxError(err);
    if (e.code !== 'storage_error' || !isTerminal(d.status)) throw err;
    rt.unwritten = { decision: d, at: now };
    throw new AmuxError('storage_error', `session ${s.id} ended (${d.reason}), but ${e.message.replace(/; free.*$/, '')}: it is recorded once space is freed`, { cause: err });
  }
  const next = { ...s, ...patch };
  ctx.bus.emit('change', s.id);
  // Once per session: a terminal status never changes again (the state machine), so hooks that
  // run at an end hear of it here, never from a later change (a rename, `rm`, a new daemon's prune).
  if (isTerminal(d.status)) ctx.bus.emit('ended', s.id);
  return next;
}

/** The row, the job-1 row and the `state_changed` event, in one transaction. */
function writeDecision(ctx: DaemonContext, s: SessionRecord, d: Decision, patch: Partial<SessionRecord>, now: number): void {
  ctx.store.tx(() => {
    ctx.store.updateSession(s.id, patch);
    ctx.store.addEvent({
      sessionId: s.id, jobId: null, type: 'state_changed',
      data: { from: s.status, to: d.status, reason: d.reason, ...(d.error ? { error: d.error } : {}) },
      createdAt: now,
    });
    if (isTerminal(d.status)) {
      finishMainJob(ctx, s, d, now);
      endedWithSession(ctx, s, now);
    }
  });
}

/**
 * What the program asked for ends with its session (ADR 0034), each with its event, as when its
 * program ends first: a wait or an MCP subscriber hears `declaration_ended` and `attention_cleared`.
 */
function endedWithSession(ctx: DaemonContext, s: SessionRecord, now: number): void {
  const why: EndedBy = 'session ended';
  if (s.declaredState !== null) ctx.store.addEvent({ sessionId: s.id, jobId: null, type: 'declaration_ended', data: { state: s.declaredState, why }, createdAt: now });
  if (s.attentionAt !== null) ctx.store.addEvent({ sessionId: s.id, jobId: null, type: 'attention_cleared', data: { by: why, source: s.attentionSource }, createdAt: now });
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
