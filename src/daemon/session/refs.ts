import { jobId, parseJobId, resolveRef, SESSION_ID } from '../../core/ids.js';
import { isMainJob } from '../../core/job-end.js';
import type { SessionRecord } from '../../core/records.js';
import { AmuxError } from '../../errors.js';
import { sessionRemoved } from '../../core/removed.js';
import type { DaemonContext } from '../context.js';

/** What `wait` and `kill` act on: a session, or one job (job 1 of a command session is the session). */
export type Target = { kind: 'session'; id: string } | { kind: 'job'; id: string; sessionId: string };

/**
 * Resolves a reference (id, name, unique prefix; src/guides/sessions.md). A full id of a removed session
 * is found by what reads history (`history`); every other verb gets `session_removed`.
 */
export function resolveSession(ctx: DaemonContext, ref: string, history = false, listing: () => readonly SessionRecord[] = () => ctx.store.listSessions()): SessionRecord {
  if (SESSION_ID.test(ref)) {
    const s = ctx.store.getSession(ref);
    if (s?.removedAt && !history) throw sessionRemoved(s.id, s.removedAt);
    if (s) return s;
  }
  return resolveRef(ref, listing());
}

/**
 * What a reference names for the commands that take sessions and jobs: `wait` reads history (a
 * removed session's end), `kill` acts (`session_removed`).
 */
export function resolveTarget(ctx: DaemonContext, ref: string, history: boolean, listing?: () => readonly SessionRecord[]): Target {
  const job = parseJobId(ref);
  if (!job) return { kind: 'session', id: resolveSession(ctx, ref, history, listing).id };
  const s = resolveSession(ctx, job.sessionId, history, listing);
  if (isMainJob(s, job.seq)) return { kind: 'session', id: s.id }; // also before it started (pending)
  const j = ctx.store.getJob(jobId(s.id, job.seq));
  if (!j) throw new AmuxError('job_not_found', `no such job: ${ref} (see 'amux jobs ${s.id}')`);
  return { kind: 'job', id: j.id, sessionId: s.id };
}

/**
 * The targets of many references (`wait`), in their order, each distinct one resolved once and
 * against one listing of the sessions (src/guides/api.md: at most MAX_WAIT_IDS references).
 */
export function resolveTargets(ctx: DaemonContext, refs: readonly string[], history: boolean): Target[] {
  let sessions: readonly SessionRecord[] | undefined;
  const listing = () => (sessions ??= ctx.store.listSessions());
  const found = new Map<string, Target>();
  return refs.map((ref) => {
    let t = found.get(ref);
    if (!t) found.set(ref, (t = resolveTarget(ctx, ref, history, listing)));
    return t;
  });
}
