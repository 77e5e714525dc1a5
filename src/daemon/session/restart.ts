import { statSync } from 'node:fs';
import { validateName } from '../../core/ids.js';
import { nextBackoff, parseRestartPolicy, shouldRestart } from '../../core/restart-policy.js';
import type { SessionRecord } from '../../core/records.js';
import { isTerminal } from '../../core/status.js';
import { AmuxError } from '../../errors.js';
import { runtimeOf, type DaemonContext } from '../context.js';
import { createSession, storedSpec, type StoredSpec } from './create.js';
import { reportError } from './errors.js';
import { killSession } from './kill.js';
import type { Queue } from './queue.js';
import { removeSession } from './remove.js';

/** A policy restart waits this long for the ended session's output to settle before it removes it (as `--rm` does). */
const SETTLE_MS = 1000;

/**
 * `amux restart` (README "Restart", ADR 0033): the same command, directory, environment, name,
 * limits, labels and policy in a new session whose `restartOf` names this one. A live session is
 * stopped first (TERM, `graceMs`, KILL; reason `restarted`); the old one is then removed (its
 * history row, events and last output stay), which frees its name for the new one.
 */
export async function restartSession(ctx: DaemonContext, queue: Queue, id: string, graceMs: number): Promise<SessionRecord> {
  const s = ctx.store.getSession(id)!;
  // Removed sessions never get here (session_removed); a row without a spec predates restart (ADR 0033).
  const spec = storedSpec(ctx, id);
  if (!spec) throw new AmuxError('invalid_state', `session ${id} was started by an amux without restart; start it again with 'amux run'`);
  if (!isTerminal(s.status)) await killSession(ctx, id, 'SIGTERM', graceMs, { status: 'stopped', reason: 'restarted' });
  return startAgain(ctx, queue, ctx.store.getSession(id)!, spec, { by: 'user', delayMs: null, streak: 0, backoffMs: null });
}

async function startAgain(
  ctx: DaemonContext, queue: Queue, old: SessionRecord, spec: StoredSpec,
  how: { by: 'user' | 'policy'; delayMs: number | null; streak: number; backoffMs: number | null },
): Promise<SessionRecord> {
  // Its directory must still exist, or the old session would be removed for nothing.
  if (!isDir(old.cwd)) throw new AmuxError('invalid_state', `cannot restart ${old.id}: its working directory ${old.cwd} is gone`);
  await removeSession(ctx, old.id, false, 0);
  const next = await createSession(ctx, queue, {
    command: spec.command, name: old.name, cwd: old.cwd, env: spec.env, umask: spec.umask, autoRemove: old.autoRemove,
    timeoutMs: old.timeoutMs, idleTimeoutMs: old.idleTimeoutMs, labels: old.labels, restartPolicy: old.restartPolicy, group: old.group && ctx.store.getGroup(old.group) ? old.group : null, after: [], onEnd: old.onEnd,
    delayMs: how.delayMs, restartOf: old.id, restarts: old.restarts + 1, streak: how.streak, backoffMs: how.backoffMs,
  });
  ctx.store.addEvent({
    sessionId: old.id, jobId: null, type: 'restarted',
    data: { by: how.by, newId: next.id, attempt: old.restarts + 1, ...(how.delayMs !== null ? { delayMs: how.delayMs } : {}) },
    createdAt: Date.now(),
  });
  return next;
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The restart policies (`run --restart`): a session that ends in a way its policy restarts
 * starts again after the backoff (1 s doubling to 60 s, back to 1 s after a run of 60 s), as a
 * new `pending` session with reason `restart backoff`. `kill`, `rm` (also of that pending
 * session) and `restart` end the chain: a stopped session never restarts, and `kill` of an ended
 * one whose next session is not made yet cancels its restart (kill.ts).
 */
export function watchRestartPolicies(ctx: DaemonContext, queue: Queue): void {
  const handled = new Set<string>();
  ctx.bus.on('change', (id: string) => {
    const s = ctx.store.getSession(id);
    if (!s?.restartPolicy || !isTerminal(s.status) || s.removedAt || handled.has(id)) return;
    // A policy restarts a program that ended; one that never started (a dependency failed,
    // ADR 0033, 0039) has nothing to run again until that dependency does.
    if (s.startedAt === null) return;
    const spec = storedSpec(ctx, id);
    if (!spec) return;
    const ranMs = s.startedAt === null ? 0 : (s.endedAt ?? Date.now()) - s.startedAt;
    const streak = ranMs >= 60_000 ? 0 : spec.streak;
    if (!shouldRestart(parseRestartPolicy(s.restartPolicy), s.status, streak)) return;
    handled.add(id);
    const backoffMs = nextBackoff(spec.backoffMs, ranMs);
    const rt = runtimeOf(ctx, id);
    rt.restartDue = setTimeout(() => {
      handled.delete(id);
      delete rt.restartDue;
      const cur = ctx.store.getSession(id);
      if (!cur || cur.removedAt) return; // removed meanwhile: `rm` ends the policy
      startAgain(ctx, queue, cur, spec, { by: 'policy', delayMs: Math.max(0, backoffMs - SETTLE_MS) || null, streak: streak + 1, backoffMs })
        .catch((err) => reportError(ctx, id, `could not restart the session (--restart ${s.restartPolicy}): ${(err as Error).message}`));
    }, SETTLE_MS);
    rt.restartDue.unref();
  });
}

/** `amux rename`: a new name (null: none), unique among sessions not removed; an event says so. */
export function renameSession(ctx: DaemonContext, id: string, name: string | null): SessionRecord {
  const s = ctx.store.getSession(id)!;
  const next = name === null ? null : validateName(name);
  if (next === s.name) return s;
  if (next !== null && ctx.store.nameInUse(next)) {
    throw new AmuxError('name_in_use', `name '${next}' is already used by another session; pick another or 'amux rm' the old one`);
  }
  ctx.store.tx(() => {
    ctx.store.updateSession(id, { name: next });
    ctx.store.addEvent({ sessionId: id, jobId: null, type: 'renamed', data: { from: s.name, to: next }, createdAt: Date.now() });
  });
  ctx.bus.emit('change', id);
  return { ...s, name: next };
}
