import { isSessionStatus, type CreateSessionRequest, type SessionStatus } from '../core/types.js';
import { SESSION_ID, parseJobId, resolveRef } from '../core/ids.js';
import { parseDuration } from '../core/duration.js';
import type { SessionRecord } from '../core/records.js';
import { AmuxError } from '../errors.js';
import { VERSION } from '../version.js';
import { capturePaneArgs, paneTarget } from '../tmux/commands.js';
import type { DaemonContext } from './context.js';
import type { Monitor } from './monitor.js';
import { Router, type Request } from './http.js';
import { streamLogs } from './log-stream.js';
import { createSession } from './session-create.js';
import { killSession, removeSession, sendInput } from './session-control.js';
import { eventView, jobView, sessionView } from './views.js';
import { waitForSessions } from './waiters.js';

const DEFAULT_GRACE_MS = 5000;

/**
 * Resolves a job reference for the commands that take one (wait, kill): `job-<id>-1` is the main
 * command of a command session. Other jobs come with `amux exec` (not built yet).
 */
export function resolveSessionOrJob(ctx: DaemonContext, ref: string, includeRemoved = false): SessionRecord {
  const job = parseJobId(ref);
  if (!job) return resolveSession(ctx, ref, includeRemoved);
  const s = resolveSession(ctx, job.sessionId, includeRemoved);
  if (job.seq !== 1 || !s.hasCommand) throw new AmuxError('job_not_found', `no such job: ${ref} (see 'amux inspect ${s.id}')`);
  return s;
}

/** Resolves a reference (id, name, unique prefix); a full id also finds removed sessions. */
export function resolveSession(ctx: DaemonContext, ref: string, includeRemoved = false): SessionRecord {
  if (SESSION_ID.test(ref)) {
    const s = ctx.store.getSession(ref);
    if (s && (includeRemoved || !s.removedAt)) return s;
  }
  return resolveRef(ref, ctx.store.listSessions());
}

function intParam(q: URLSearchParams, key: string, fallback: number): number {
  const v = q.get(key);
  if (v === null || v === '') return fallback;
  if (!/^\d+$/.test(v)) throw new AmuxError('invalid_argument', `${key} must be a non-negative integer, got '${v}'`);
  return Number(v);
}

/** A time in the API: an integer of milliseconds (number or digits), or a duration text such as `5s`. */
function durationField(v: unknown, what: string, fallback: number): number {
  if (v === undefined || v === null) return fallback;
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  if (typeof v === 'string') return parseDuration(v, what);
  throw new AmuxError('invalid_argument', `${what} must be an integer of milliseconds or a duration such as 5s`);
}

function statusFilter(q: URLSearchParams): SessionStatus[] | undefined {
  const raw = q.get('status');
  if (!raw) return undefined;
  const list = raw.split(',').map((x) => x.trim()).filter(Boolean);
  for (const s of list) {
    if (!isSessionStatus(s)) throw new AmuxError('invalid_argument', `unknown status '${s}': use pending, working, idle, paused, completed, failed, stopped, expired`);
  }
  return list as SessionStatus[];
}

/** The versioned HTTP API (README "API"). */
export function buildRouter(ctx: DaemonContext, monitor: Monitor, stop: () => void): Router {
  const r = new Router();
  const body = async (q: Request) => (await q.body()) as Record<string, unknown>;

  r.on('GET', '/v1/health', async () => ({
    pid: process.pid, socket: ctx.paths.socket, version: VERSION, uptimeMs: Date.now() - ctx.startedAt,
    sessions: ctx.store.listSessions().length, home: ctx.paths.home, settings: ctx.settings,
  }));

  r.on('GET', '/v1/sessions', async (q) => {
    const statuses = statusFilter(q.query);
    await monitor.ensureFresh();
    const now = Date.now();
    return ctx.store.listSessions({ statuses, includeRemoved: q.query.get('all') === '1' }).map((s) => sessionView(s, now));
  });

  r.on('POST', '/v1/sessions', async (q) => {
    const s = await createSession(ctx, (await body(q)) as unknown as CreateSessionRequest);
    q.res.statusCode = 201;
    return sessionView(s);
  });

  r.on('GET', '/v1/sessions/:ref', async (q) => {
    await monitor.ensureFresh();
    const found = resolveSession(ctx, q.params.ref!, true);
    const s = monitor.syncLog(found.id) ?? found;
    return {
      session: sessionView(s),
      jobs: ctx.store.listJobs(s.id).map((j) => jobView(j)),
      events: ctx.store.listEvents(s.id, 50).map(eventView),
      lastOutput: s.lastOutput,
    };
  });

  r.on('DELETE', '/v1/sessions/:ref', async (q) => {
    const s = resolveSession(ctx, q.params.ref!);
    const grace = durationField(q.query.get('graceMs') ?? undefined, 'grace', DEFAULT_GRACE_MS);
    return sessionView(await removeSession(ctx, s.id, q.query.get('force') === '1', grace));
  });

  r.on('POST', '/v1/sessions/:ref/kill', async (q) => {
    const s = resolveSessionOrJob(ctx, q.params.ref!, true);
    const b = await body(q);
    const grace = durationField(b.graceMs, 'grace', DEFAULT_GRACE_MS);
    return sessionView(await killSession(ctx, s.id, String(b.signal ?? 'TERM'), grace));
  });

  r.on('POST', '/v1/sessions/:ref/input', async (q) => {
    const s = resolveSession(ctx, q.params.ref!);
    const b = await body(q);
    return sessionView(await sendInput(ctx, s.id, { text: b.text as string, keys: b.keys as string[], enter: b.enter as boolean }));
  });

  r.on('GET', '/v1/sessions/:ref/logs', async (q) => {
    const s = resolveSession(ctx, q.params.ref!, true);
    if (s.removedAt) throw new AmuxError('invalid_state', `session ${s.id} was removed; its last output is kept in 'amux inspect ${s.id}'`);
    const job = q.query.get('job');
    if (job !== null && (job !== '1' || !s.hasCommand)) throw new AmuxError('job_not_found', `no such job: job-${s.id}-${job}`);
    await streamLogs(ctx, s, {
      sinceOffset: intParam(q.query, 'sinceOffset', 0),
      limit: intParam(q.query, 'limit', Number.MAX_SAFE_INTEGER),
      follow: q.query.get('follow') === '1',
      job: job ? intParam(q.query, 'job', 1) : null,
    }, q.res);
  });

  r.on('GET', '/v1/sessions/:ref/screen', async (q) => {
    const s = resolveSession(ctx, q.params.ref!);
    if (!s.paneId || s.status === 'pending') throw new AmuxError('invalid_state', `session ${s.id} has no screen yet (${s.status})`);
    try {
      return { screen: await ctx.tmux.run(capturePaneArgs(paneTarget(s.id), q.query.get('escapes') === '1')) };
    } catch {
      throw new AmuxError('invalid_state', `session ${s.id}: its tmux session is closed, so there is no screen; use 'amux logs ${s.id}'`);
    }
  });

  r.on('POST', '/v1/wait', async (q) => {
    const b = await body(q);
    if (!Array.isArray(b.ids) || b.ids.length === 0 || b.ids.some((x) => typeof x !== 'string')) {
      throw new AmuxError('invalid_argument', 'ids must be a non-empty array of session references');
    }
    const ids = (b.ids as string[]).map((ref) => resolveSessionOrJob(ctx, ref, true).id);
    const timeout = b.timeoutMs == null ? null : durationField(b.timeoutMs, 'timeout', 0);
    const abort = new AbortController();
    q.res.on('close', () => abort.abort());
    await monitor.ensureFresh();
    return waitForSessions(ctx, ids, timeout, abort.signal);
  });

  r.on('POST', '/v1/daemon/stop', async () => {
    setImmediate(stop);
    return { stopping: true, pid: process.pid };
  });

  return r;
}
