import type { JobRecord, SessionRecord } from '../../core/records.js';
import { isTerminal } from '../../core/status.js';
import { setLongTimeout } from '../../core/long-timeout.js';
import type { WaitResult } from '../../protocol/wait.js';
import type { DaemonContext } from '../context.js';
import type { Target } from './refs.js';

function result(ctx: DaemonContext, t: Target): { r: WaitResult; done: boolean } {
  if (t.kind === 'job') {
    const j = ctx.store.getJob(t.id) as JobRecord;
    return { r: { id: j.id, status: j.status, exitCode: j.exitCode, signal: j.signal, error: j.error, reason: null }, done: j.status !== 'running' };
  }
  const s = ctx.store.getSession(t.id) as SessionRecord;
  return { r: { id: s.id, status: s.status, exitCode: s.exitCode, signal: s.signal, error: s.error, reason: s.reason }, done: isTerminal(s.status) };
}

/**
 * Resolves when every target has ended, or when `timeoutMs` runs out (then `timedOut`).
 * Event-driven: it wakes on the daemon's `change` events (jobs emit them for their session), never polls.
 */
export function waitForTargets(
  ctx: DaemonContext,
  targets: readonly Target[],
  timeoutMs: number | null,
  signal?: AbortSignal,
): Promise<{ results: WaitResult[]; timedOut: boolean }> {
  const sessions = new Set(targets.map((t) => (t.kind === 'job' ? t.sessionId : t.id)));
  const snapshot = () => targets.map((t) => result(ctx, t));
  const answer = (timedOut: boolean) => ({ results: snapshot().map((x) => x.r), timedOut });
  return new Promise((resolve) => {
    let cancelTimer: (() => void) | null = null;
    const done = (timedOut: boolean) => {
      ctx.bus.off('change', onChange);
      cancelTimer?.();
      resolve(answer(timedOut));
    };
    const onChange = (id: string) => {
      if (sessions.has(id) && snapshot().every((x) => x.done)) done(false);
    };
    if (snapshot().every((x) => x.done)) return resolve(answer(false));
    ctx.bus.on('change', onChange);
    if (timeoutMs != null) cancelTimer = setLongTimeout(() => done(true), timeoutMs);
    signal?.addEventListener('abort', () => done(true), { once: true });
  });
}

/** Resolves with the session once it is no longer `pending` (started, or ended while queued), or when aborted. */
export function untilStarted(ctx: DaemonContext, id: string, signal: AbortSignal): Promise<SessionRecord> {
  return new Promise((resolve) => {
    const check = () => {
      const s = ctx.store.getSession(id) as SessionRecord;
      if (s.status === 'pending' && !signal.aborted) return false;
      ctx.bus.off('change', onChange);
      resolve(s);
      return true;
    };
    const onChange = (changed: string) => {
      if (changed === id) check();
    };
    if (check()) return;
    ctx.bus.on('change', onChange);
    signal.addEventListener('abort', () => check(), { once: true });
  });
}
