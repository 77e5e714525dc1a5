import { isSessionStatus, type CreateSessionRequest, type SessionStatus } from '../core/types.js';
import { SESSION_ID, jobId, parseJobId, resolveRef } from '../core/ids.js';
import { durationField } from '../core/duration.js';
import type { SessionRecord } from '../core/records.js';
import { AmuxError } from '../errors.js';
import { VERSION } from '../version.js';
import { capturePaneArgs, paneTarget } from '../tmux/commands.js';
import type { DaemonContext } from './context.js';
import type { Monitor } from './monitor.js';
import { Router, type Request } from './http.js';
import { streamLogs } from './log-stream.js';
import { registerHistoryRoutes } from './history-routes.js';
import { createSession } from './session-create.js';
import { KILL_GRACE_MS, killSession, pauseSession, pruneSessions, removeSession, resumeSession, sendInput } from './session-control.js';
import { eventView, jobView, sessionView } from './views.js';
import { untilStarted, waitForSessions, type WaitTarget } from './waiters.js';
import type { ExecRequest, Jobs, JobStream } from './jobs.js';
import type { Queue } from './queue.js';


/**
 * What a reference names for the commands that take sessions and jobs (wait, kill): job 1 of a
 * command session is its main command, so it stands for the session; other job ids name a job.
 */
export function resolveTarget(ctx: DaemonContext, ref: string): WaitTarget {
  const job = parseJobId(ref);
  if (!job) return { kind: 'session', id: resolveSession(ctx, ref, true).id };
  const s = resolveSession(ctx, job.sessionId, true);
  if (job.seq === 1 && s.hasCommand) return { kind: 'session', id: s.id }; // also before it started (pending)
  const j = ctx.store.getJob(jobId(s.id, job.seq));
  if (!j) throw new AmuxError('job_not_found', `no such job: ${ref} (see 'amux jobs ${s.id}')`);
  return { kind: 'job', id: j.id, sessionId: s.id };
}

/** Resolves a reference (id, name, unique prefix); a full id also finds removed sessions. */
export function resolveSession(ctx: DaemonContext, ref: string, includeRemoved = false): SessionRecord {
  if (SESSION_ID.test(ref)) {
    const s = ctx.store.getSession(ref);
    if (s && (includeRemoved || !s.removedAt)) return s;
  }
  return resolveRef(ref, ctx.store.listSessions());
}

export function intParam(q: URLSearchParams, key: string, fallback: number): number {
  const v = q.get(key);
  if (v === null || v === '') return fallback;
  if (!/^\d+$/.test(v)) throw new AmuxError('invalid_argument', `${key} must be a non-negative integer, got '${v}'`);
  return Number(v);
}

export function statusFilter(q: URLSearchParams): SessionStatus[] | undefined {
  const raw = q.get('status');
  if (!raw) return undefined;
  const list = raw.split(',').map((x) => x.trim()).filter(Boolean);
  for (const s of list) {
    if (!isSessionStatus(s)) throw new AmuxError('invalid_argument', `unknown status '${s}': use pending, working, idle, paused, completed, failed, stopped, expired`);
  }
  return list as SessionStatus[];
}

/** The versioned HTTP API (README "API"). */
export function buildRouter(ctx: DaemonContext, parts: { monitor: Monitor; jobs: Jobs; queue: Queue }, stop: () => void): Router {
  const { monitor, jobs, queue } = parts;
  const r = new Router();
  const body = async (q: Request) => (await q.body()) as Record<string, unknown>;

  r.on('GET', '/v1/health', async () => ({
    pid: process.pid, socket: ctx.paths.socket, version: VERSION, uptimeMs: Date.now() - ctx.startedAt,
    sessions: ctx.store.listSessions().length, live: ctx.store.countLive(), pending: ctx.store.countPending(),
    home: ctx.paths.home, settings: ctx.settings,
  }));

  r.on('GET', '/v1/sessions', async (q) => {
    const statuses = statusFilter(q.query);
    await monitor.ensureFresh();
    const now = Date.now();
    return ctx.store.listSessions({ statuses, includeRemoved: q.query.get('all') === '1' }).map((s) => sessionView(s, now));
  });

  r.on('POST', '/v1/sessions', async (q) => {
    const s = await createSession(ctx, queue, (await body(q)) as unknown as CreateSessionRequest);
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
    const grace = durationField(q.query.get('graceMs') ?? undefined, 'grace', KILL_GRACE_MS);
    return sessionView(await removeSession(ctx, s.id, q.query.get('force') === '1', grace));
  });

  /** `amux kill`: a session, or one job (job 1 of a command session is the session). */
  const kill = async (t: WaitTarget, b: Record<string, unknown>) => {
    const signal = String(b.signal ?? 'TERM');
    const grace = durationField(b.graceMs, 'grace', KILL_GRACE_MS);
    if (t.kind === 'job') return jobView(await jobs.kill(jobs.get(t.id), signal, grace));
    return sessionView(await killSession(ctx, t.id, signal, grace));
  };

  r.on('POST', '/v1/sessions/:ref/kill', async (q) => kill(resolveTarget(ctx, q.params.ref!), await body(q)));

  r.on('POST', '/v1/sessions/:ref/jobs', async (q) => {
    const s = resolveSession(ctx, q.params.ref!);
    const b = (await body(q)) as ExecRequest & { timeout?: unknown };
    const req: ExecRequest = { ...b, timeoutMs: b.timeoutMs ?? (b.timeout == null ? undefined : durationField(b.timeout, 'timeout', 0)) };
    const abort = new AbortController();
    q.res.on('close', () => abort.abort());
    const stream = q.query.get('stream') === '1' && req.background !== true && req.tty !== true;
    if (stream) q.long();
    const j = await jobs.exec(s.id, req, abort.signal, stream);
    if (stream) return jobs.streamFrames(j, q.res, true, undefined, true);
    q.res.statusCode = 201;
    return jobView(j);
  });

  r.on('GET', '/v1/sessions/:ref/jobs', async (q) => {
    const s = resolveSession(ctx, q.params.ref!, true);
    const status = q.query.get('status');
    const statuses = status ? status.split(',').map((x) => x.trim()).filter(Boolean) : undefined;
    for (const st of statuses ?? []) {
      if (!['running', 'completed', 'failed', 'killed'].includes(st)) throw new AmuxError('invalid_argument', `unknown job status '${st}': use running, completed, failed, killed`);
    }
    const bg = q.query.get('background');
    const limit = q.query.get('limit');
    const now = Date.now();
    return ctx.store.listJobs(s.id, {
      statuses, background: bg === null || bg === '' ? undefined : bg === '1' || bg === 'true', limit: limit === null ? undefined : intParam(q.query, 'limit', 0),
    }).map((j) => jobView(j, now));
  });

  r.on('GET', '/v1/jobs/:id', async (q) => jobView(jobs.get(q.params.id!)));

  r.on('POST', '/v1/jobs/:id/kill', async (q) => {
    if (!parseJobId(q.params.id!)) throw new AmuxError('invalid_argument', `'${q.params.id}' is not a job id (job-<session>-<n>); to kill a session: POST /v1/sessions/{ref}/kill`);
    await kill(resolveTarget(ctx, q.params.id!), await body(q));
    return jobView(jobs.get(q.params.id!));
  });

  r.on('GET', '/v1/jobs/:id/output', async (q) => {
    const j = jobs.get(q.params.id!);
    if (j.tty) {
      throw new AmuxError('invalid_state', `job ${j.id} ran on the terminal, so its output is in the session log: GET /v1/sessions/${j.sessionId}/logs?job=${j.seq}`);
    }
    const stream = q.query.get('stream');
    if (stream !== null && stream !== 'stdout' && stream !== 'stderr') throw new AmuxError('invalid_argument', `stream must be stdout or stderr, got '${stream}'`);
    const follow = q.query.get('follow') === '1';
    if (follow) q.long();
    if (stream === null || follow) return jobs.streamFrames(j, q.res, follow, stream ? [stream] : undefined);
    const r = jobs.readStream(j, stream as JobStream, intParam(q.query, 'sinceOffset', 0), intParam(q.query, 'limit', Number.MAX_SAFE_INTEGER));
    q.res.writeHead(200, {
      'content-type': 'application/octet-stream', 'content-length': String(r.data.length), 'x-amux-offset': String(r.offset),
      'x-amux-next-offset': String(r.nextOffset), 'x-amux-total': String(r.total), 'x-amux-truncated': String(r.truncated),
    });
    q.res.end(r.data);
    return undefined;
  });

  r.on('POST', '/v1/sessions/:ref/input', async (q) => {
    const s = resolveSession(ctx, q.params.ref!);
    const b = await body(q);
    return sessionView(await sendInput(ctx, s.id, { text: b.text as string, keys: b.keys as string[], enter: b.enter as boolean }));
  });

  r.on('GET', '/v1/sessions/:ref/logs', async (q) => {
    let s = resolveSession(ctx, q.params.ref!, true);
    if (s.removedAt) throw new AmuxError('invalid_state', `session ${s.id} was removed; its last output is kept in 'amux inspect ${s.id}'`);
    const job = q.query.get('job');
    if (s.status === 'pending' && q.query.get('follow') === '1') {
      // Following a queued session (`run -w` beyond maxLive) starts once it does.
      q.long();
      const abort = new AbortController();
      q.res.on('close', () => abort.abort());
      s = await untilStarted(ctx, s.id, abort.signal);
      if (s.startedAt === null) {
        // Ended (killed, removed, failed to start) without running: no output, and `wait` tells why.
        q.res.writeHead(200, { 'content-type': 'application/octet-stream' });
        q.res.end();
        return undefined;
      }
    }
    if (job !== null) {
      const j = /^[1-9]\d{0,8}$/.test(job) ? ctx.store.getJob(jobId(s.id, Number(job))) : null;
      if (!j) throw new AmuxError('job_not_found', `no such job: job-${s.id}-${job}`);
      if (!j.tty) throw new AmuxError('invalid_state', `job ${j.id} captured its stdout and stderr: GET /v1/jobs/${j.id}/output`);
    }
    if (q.query.get('follow') === '1') q.long();
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
    const targets = (b.ids as string[]).map((ref) => resolveTarget(ctx, ref));
    const timeout = b.timeoutMs == null ? null : durationField(b.timeoutMs, 'timeout', 0);
    q.long();
    const abort = new AbortController();
    q.res.on('close', () => abort.abort());
    await monitor.ensureFresh();
    return waitForSessions(ctx, targets, timeout, abort.signal);
  });

  r.on('POST', '/v1/sessions/:ref/pause', async (q) => sessionView(await pauseSession(ctx, resolveSession(ctx, q.params.ref!).id)));

  r.on('POST', '/v1/sessions/:ref/resume', async (q) => sessionView(await resumeSession(ctx, resolveSession(ctx, q.params.ref!).id)));

  /** `amux prune`: removes finished sessions that ended at least `olderThan` ago (default: all finished). */
  r.on('POST', '/v1/prune', async (q) => {
    const b = await body(q);
    const removed = await pruneSessions(ctx, durationField(b.olderThanMs ?? b.olderThan, 'older-than', 0));
    return { removed: removed.map((s) => sessionView(s)) };
  });

  registerHistoryRoutes(r, ctx);

  r.on('POST', '/v1/daemon/stop', async () => {
    setImmediate(stop);
    return { stopping: true, pid: process.pid };
  });

  return r;
}
