import { statSync } from 'node:fs';
import { validateName } from '../../core/ids.js';
import { nextBackoff, parseRestartPolicy, shouldRestart } from '../../core/restart-policy.js';
import type { PreviousEnd, SessionRecord } from '../../core/records.js';
import { settleLog } from '../output/log-stream.js';
import { readEvents } from '../../store/history.js';
import { isTerminal } from '../../core/status.js';
import { AmuxError } from '../../errors.js';
import { runtimeOf, type DaemonContext } from '../context.js';
import { createSession, storedSpec, type StoredSpec } from './create.js';
import { reportError } from './errors.js';
import { killSession } from './kill.js';
import type { Queue } from './queue.js';
import { removeSession } from './remove.js';

/**
 * `amux restart` (src/guides/sessions.md "Restart, labels, groups", ADR 0033): the same command, directory, environment, name,
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
  return (await startAgain(ctx, queue, ctx.store.getSession(id)!, spec, { by: 'user', delayMs: null, streak: 0, backoffMs: null }))!;
}

async function startAgain(
  ctx: DaemonContext, queue: Queue, old: SessionRecord, spec: StoredSpec,
  how: { by: 'user' | 'policy'; delayMs: number | null; streak: number; backoffMs: number | null; cancel?: AbortSignal },
): Promise<SessionRecord | null> {
  // Its directory must still exist, or the old session would be removed for nothing.
  if (!isDir(old.cwd)) throw new AmuxError('invalid_state', `cannot restart ${old.id}: its working directory ${old.cwd} is gone`);
  // Its output settles first (the end's last bytes reach the log), and its log is kept: `logs NAME`
  // shows the runs of a name (src/guides/sessions.md "Restart, labels, groups").
  await settleLog(ctx, old);
  if (how.cancel?.aborted) return null; // `kill` ended the chain meanwhile
  const ended = await removeSession(ctx, old.id, false, 0, { keepLog: true });
  if (how.cancel?.aborted) return null; // `kill NAME` came while it was being removed
  const previousEnd: PreviousEnd = {
    id: ended.id, status: ended.status, exitCode: ended.exitCode, signal: ended.signal, reason: ended.reason, endedAt: ended.endedAt === null ? null : new Date(ended.endedAt).toISOString(),
  };
  const next = await createSession(ctx, queue, {
    command: spec.command, name: old.name, cwd: old.cwd, env: spec.env, umask: spec.umask, autoRemove: old.autoRemove,
    timeoutMs: old.timeoutMs, idleTimeoutMs: old.idleTimeoutMs, labels: old.labels, restartPolicy: old.restartPolicy, group: old.group && ctx.store.getGroup(old.group) ? old.group : null, after: [], onEnd: old.onEnd,
    delayMs: how.delayMs, restartOf: old.id, restarts: old.restarts + 1, previousEnd, streak: how.streak, backoffMs: how.backoffMs,
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
 * starts again after the backoff (1 s doubling to 60 s, back to 1 s after a run of 60 s): its
 * successor exists from the end on, a `pending` session with reason `restart backoff` that starts
 * when the backoff has passed (`restarted.delayMs` is that backoff). `kill`, `rm` (also of that
 * pending session) and `restart` end the chain: a stopped session never restarts, and `kill` of an
 * ended one whose next session is not made yet (its output still settling) cancels its restart (kill.ts).
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
    const policy = parseRestartPolicy(s.restartPolicy);
    if (!shouldRestart(policy, s.status, streak)) {
      // The policy's limit of restarts in a row: said once, so that `logs -f NAME` knows the chain ended.
      if (shouldRestart(policy, s.status, 0) && !readEvents(ctx.store, { afterId: 0, sessionId: id, limit: 1000 }).some((e) => e.type === 'restarts_exhausted')) {
        ctx.store.addEvent({ sessionId: id, jobId: null, type: 'restarts_exhausted', data: { policy: s.restartPolicy, inARow: streak }, createdAt: Date.now() });
      }
      return;
    }
    handled.add(id);
    const backoffMs = nextBackoff(spec.backoffMs, ranMs);
    // While the end's output settles the name still leads to the ended run: `kill` of it cancels this (kill.ts).
    const due = new AbortController();
    runtimeOf(ctx, id).restartDue = due;
    startAgain(ctx, queue, s, spec, { by: 'policy', delayMs: backoffMs, streak: streak + 1, backoffMs, cancel: due.signal })
      .catch((err) => {
        // removed meanwhile: `rm` ends the policy
        if (!(err instanceof AmuxError && (err.code === 'session_removed' || err.code === 'session_not_found'))) {
          reportError(ctx, id, `could not restart the session (--restart ${s.restartPolicy}): ${(err as Error).message}`);
        }
      })
      .finally(() => {
        handled.delete(id);
        const rt = ctx.runtime.get(id);
        if (rt?.restartDue === due) delete rt.restartDue;
        // Removed: nothing of it is kept in memory any more (remove.ts kept only this restart).
        if (ctx.store.getSession(id)?.removedAt) ctx.runtime.delete(id);
      });
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
