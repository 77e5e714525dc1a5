import type { SessionStatus } from './status.js';

/**
 * `run --after ID[,ID…]` (src/guides/sessions.md: run, ADR 0033): a pending session starts once every
 * session it names completed (exit 0). One that ended otherwise (failed, stopped, expired) makes
 * it `failed` without ever starting; one still pending or live keeps it waiting. Pure.
 */
export type DependencyVerdict =
  | { kind: 'ready' }
  | { kind: 'wait'; reason: string }
  | { kind: 'failed'; reason: string; error: string };

export interface Dependency {
  id: string;
  status: SessionStatus;
  exitCode: number | null;
}

export function judgeDependencies(deps: readonly (Dependency | null)[], ids: readonly string[]): DependencyVerdict {
  const waiting: string[] = [];
  for (const [i, d] of deps.entries()) {
    if (d === null) return { kind: 'failed', reason: 'dependency failed', error: `dependency ${ids[i]} no longer exists; never started` };
    if (d.status === 'completed') continue;
    if (d.status === 'failed' || d.status === 'stopped' || d.status === 'expired') {
      const how = d.exitCode === null ? d.status : `${d.status}, exit ${d.exitCode}`;
      return { kind: 'failed', reason: 'dependency failed', error: `dependency ${d.id} ended ${how}; never started` };
    }
    waiting.push(d.id);
  }
  return waiting.length ? { kind: 'wait', reason: `after ${waiting.join(',')}` } : { kind: 'ready' };
}
