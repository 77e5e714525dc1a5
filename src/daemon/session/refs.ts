import { jobId, parseJobId, resolveRef, SESSION_ID } from '../../core/ids.js';
import { isMainJob } from '../../core/job-end.js';
import type { SessionRecord } from '../../core/records.js';
import { AmuxError } from '../../errors.js';
import type { DaemonContext } from '../context.js';

/** What `wait` and `kill` act on: a session, or one job (job 1 of a command session is the session). */
export type Target = { kind: 'session'; id: string } | { kind: 'job'; id: string; sessionId: string };

/** Resolves a reference (id, name, unique prefix; README "Commands"); a full id also finds removed sessions. */
export function resolveSession(ctx: DaemonContext, ref: string, includeRemoved = false): SessionRecord {
  if (SESSION_ID.test(ref)) {
    const s = ctx.store.getSession(ref);
    if (s && (includeRemoved || !s.removedAt)) return s;
  }
  return resolveRef(ref, ctx.store.listSessions());
}

/** What a reference names for the commands that take sessions and jobs (wait, kill). */
export function resolveTarget(ctx: DaemonContext, ref: string): Target {
  const job = parseJobId(ref);
  if (!job) return { kind: 'session', id: resolveSession(ctx, ref, true).id };
  const s = resolveSession(ctx, job.sessionId, true);
  if (isMainJob(s, job.seq)) return { kind: 'session', id: s.id }; // also before it started (pending)
  const j = ctx.store.getJob(jobId(s.id, job.seq));
  if (!j) throw new AmuxError('job_not_found', `no such job: ${ref} (see 'amux jobs ${s.id}')`);
  return { kind: 'job', id: j.id, sessionId: s.id };
}
