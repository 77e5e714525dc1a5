import type { SessionRecord } from '../core/records.js';
import { isTerminal, type WaitResult } from '../core/types.js';
import type { DaemonContext } from './context.js';

function result(s: SessionRecord): WaitResult {
  return { id: s.id, status: s.status, exitCode: s.exitCode, signal: s.signal };
}

/**
 * Resolves when every session is terminal, or when `timeoutMs` runs out (then `timedOut`).
 * Event-driven: it wakes on the daemon's `change` events, never polls.
 */
export function waitForSessions(
  ctx: DaemonContext,
  ids: readonly string[],
  timeoutMs: number | null,
  signal?: AbortSignal,
): Promise<{ results: WaitResult[]; timedOut: boolean }> {
  const snapshot = () => ids.map((id) => ctx.store.getSession(id)!);
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | null = null;
    const done = (timedOut: boolean) => {
      ctx.bus.off('change', onChange);
      if (timer) clearTimeout(timer);
      resolve({ results: snapshot().map(result), timedOut });
    };
    const onChange = (id: string) => {
      if (ids.includes(id) && snapshot().every((s) => isTerminal(s.status))) done(false);
    };
    if (snapshot().every((s) => isTerminal(s.status))) return resolve({ results: snapshot().map(result), timedOut: false });
    ctx.bus.on('change', onChange);
    if (timeoutMs != null) timer = setTimeout(() => done(true), timeoutMs);
    signal?.addEventListener('abort', () => done(true), { once: true });
  });
}
