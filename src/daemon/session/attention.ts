import type { AttentionSignal } from '../../core/attention-scan.js';
import { CLEARED_ATTENTION, declaredReason, declaredStatus, ENDED_DECLARATION, isDeclaredAttention, type DeclaredSource, type DeclaredState } from '../../core/attention.js';
import { NO_ANNOUNCEMENTS } from '../../core/announced.js';
import type { SessionRecord } from '../../core/records.js';
import { terminalForeground } from '../../process/process-table.js';
import { runtimeOf, type DaemonContext } from '../context.js';
import { logBytes } from '../output/log-size.js';
import { runningSession } from './guards.js';
import { applyDecision } from './transitions.js';

/**
 * The writes of "it needs you" (src/guides/statuses.md; ADR 0034): an attention raised or cleared, a
 * state declared or ended. Each is the row's fields and one event in one transaction, then (once
 * the caller's synchronous work is done) a `change` on the bus so that waits
 * (`--until attention|waiting|ready`) look again.
 */

/**
 * Why an attention or a declaration ended (`cleared`: the program's OSC 7501 `state=clear`;
 * `session ended`: the session ended with it in force).
 */
export type EndedBy = 'input' | 'output' | 'ttl' | 'program ended' | 'session ended' | 'declared' | 'cleared';

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
  return isDeclaredAttention(ended.attentionSource) ? clearAttention(ctx, ended, why, now) : ended;
}

/**
 * Input was sent (`amux send`, `amux exec`): the person answered; attention and declaration end.
 * An OSC 7501 report written before it (the log's size just before the input, `offset`), and not
 * read yet, is stale (ADR 0049): the look reads reports from there on.
 */
export function clearOnInput(ctx: DaemonContext, id: string, now = Date.now(), offset?: number): void {
  const s = ctx.store.getSession(id);
  if (!s) return;
  (runtimeOf(ctx, id).announced ??= { ...NO_ANNOUNCEMENTS }).inputOffset = offset ?? logBytes(ctx, s);
  clearAttention(ctx, endDeclaration(ctx, s, 'input', now), 'input', now);
}

export interface Declare {
  state: DeclaredState;
  message: string | null;
  ttlMs: number | null;
  /** `session`: the declaration is the session command's, not the foreground program's (see DeclareStateRequest). */
  scope?: 'program' | 'session';
}

/** How a declaration was made: who made it, the process group whose end ends it, the attention a `waiting` raises. */
export interface DeclaredBy {
  source: DeclaredSource;
  pgid: number | null;
  attention: AttentionSignal;
}

/**
 * `amux state` (src/guides/sessions.md): the program declares its state. It replaces any earlier
 * declaration; `waiting` raises attention with its message, `working` and `ready` end any
 * attention (the program moved on); the status follows at once.
 */
export function declareState(ctx: DaemonContext, id: string, d: Declare, now = Date.now()): SessionRecord {
  const s = runningSession(ctx, id, 'state');
  const pgid = d.scope !== 'session' && s.pid ? terminalForeground(s.pid) : null;
  return declare(ctx, s, d, { source: 'command', pgid, attention: { source: 'declared', title: null, message: d.message } }, now);
}

/** A declaration by `amux state` or by an OSC 7501 report (ADR 0049), on a running session. */
export function declare(ctx: DaemonContext, s: SessionRecord, d: Declare, by: DeclaredBy, now: number): SessionRecord {
  const fields: Partial<SessionRecord> = {
    declaredState: d.state, declaredMessage: d.message, declaredAt: now,
    declaredUntil: d.ttlMs === null ? null : now + d.ttlMs, declaredPgid: by.pgid, declaredSource: by.source,
  };
  const data = { to: d.state, message: d.message, ...(d.ttlMs === null ? {} : { ttlMs: d.ttlMs }), ...(by.source === 'command' ? {} : { source: by.source }) };
  s = write(ctx, s, fields, 'state_declared', data, now);
  if (d.state === 'waiting') s = raiseAttention(ctx, s, by.attention, now);
  else s = clearAttention(ctx, s, 'declared', now);
  if (s.status !== 'working' && s.status !== 'idle') return s;
  const next = applyDecision(ctx, s, { status: declaredStatus(d.state), reason: declaredReason(s) }, now);
  return { ...s, ...next };
}
