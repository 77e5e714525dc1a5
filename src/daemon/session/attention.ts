import type { AttentionSignal } from '../../core/attention-scan.js';
import { CLEARED_ATTENTION, declaredReason, declaredStatus, ENDED_DECLARATION, type DeclaredState } from '../../core/attention.js';
import type { SessionRecord } from '../../core/records.js';
import { terminalForeground } from '../../process/process-table.js';
import type { DaemonContext } from '../context.js';
import { runningSession } from './guards.js';
import { applyDecision } from './transitions.js';

/**
 * The writes of "it needs you" (README "Statuses"; ADR 0034): an attention raised or cleared, a
 * state declared or ended. Each is the row's fields and one event in one transaction, then (once
 * the caller's synchronous work is done) a `change` on the bus so that waits
 * (`--until attention|waiting|ready`) look again.
 */

/** Why an attention or a declaration ended. */
export type EndedBy = 'input' | 'output' | 'ttl' | 'program ended' | 'declared';

function write(ctx: DaemonContext, s: SessionRecord, patch: Partial<SessionRecord>, type: string, data: Record<string, unknown>, now: number): SessionRecord {
  ctx.store.tx(() => {
    ctx.store.updateSession(s.id, patch);
    ctx.store.addEvent({ sessionId: s.id, jobId: null, type, data, createdAt: now });
  });
  // After the caller's other writes (declareState writes three things): a wait looks at them all at once.
  queueMicrotask(() => ctx.bus.emit('change', s.id));
  return { ...s, ...patch };
}

/** The program asked for attention: a bell, a notification, or `amux state waiting`. */
export function raiseAttention(ctx: DaemonContext, s: SessionRecord, sig: AttentionSignal, now: number, extra: Partial<SessionRecord> = {}): SessionRecord {
  const patch = { ...extra, attentionAt: now, attentionSource: sig.source, attentionTitle: sig.title, attentionMessage: sig.message };
  return write(ctx, s, patch, 'attention', { source: sig.source, title: sig.title, message: sig.message }, now);
}

export function clearAttention(ctx: DaemonContext, s: SessionRecord, by: EndedBy, now: number): SessionRecord {
  if (s.attentionAt === null) return s;
  return write(ctx, s, { ...CLEARED_ATTENTION }, 'attention_cleared', { by, source: s.attentionSource }, now);
}

/**
 * Ends a declared state; a declared `waiting`'s attention ends with it. The status stays until the
 * evidence changes it; its reason no longer claims the declaration.
 */
export function endDeclaration(ctx: DaemonContext, s: SessionRecord, why: EndedBy, now: number): SessionRecord {
  if (s.declaredState === null) return s;
  const patch: Partial<SessionRecord> = { ...ENDED_DECLARATION };
  if (s.reason === declaredReason(s)) patch.reason = `declaration ended (${why})`;
  const ended = write(ctx, s, patch, 'declaration_ended', { state: s.declaredState, why }, now);
  return ended.attentionSource === 'declared' ? clearAttention(ctx, ended, why, now) : ended;
}

/** Input was sent (`amux send`, `amux exec`): the person answered; attention and declaration end. */
export function clearOnInput(ctx: DaemonContext, id: string, now = Date.now()): void {
  const s = ctx.store.getSession(id);
  if (!s) return;
  clearAttention(ctx, endDeclaration(ctx, s, 'input', now), 'input', now);
}

export interface Declare {
  state: DeclaredState;
  message: string | null;
  ttlMs: number | null;
}

/**
 * `amux state` (README "Commands"): the program declares its state. It replaces any earlier
 * declaration; `waiting` raises attention with its message, `working` and `ready` end any
 * attention (the program moved on); the status follows at once.
 */
export function declareState(ctx: DaemonContext, id: string, d: Declare, now = Date.now()): SessionRecord {
  let s = runningSession(ctx, id, 'state');
  const fields: Partial<SessionRecord> = {
    declaredState: d.state, declaredMessage: d.message, declaredAt: now,
    declaredUntil: d.ttlMs === null ? null : now + d.ttlMs, declaredPgid: s.pid ? terminalForeground(s.pid) : null,
  };
  s = write(ctx, s, fields, 'state_declared', { to: d.state, message: d.message, ...(d.ttlMs === null ? {} : { ttlMs: d.ttlMs }) }, now);
  if (d.state === 'waiting') s = raiseAttention(ctx, s, { source: 'declared', title: null, message: d.message }, now);
  else s = clearAttention(ctx, s, 'declared', now);
  if (s.status !== 'working' && s.status !== 'idle') return s;
  const next = applyDecision(ctx, s, { status: declaredStatus(d.state), reason: declaredReason(s) }, now);
  return { ...s, ...next };
}
