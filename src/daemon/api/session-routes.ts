import { existsSync } from 'node:fs';
import { jobId } from '../../core/ids.js';
import { sessionRemoved } from '../../core/removed.js';
import { isoTime } from '../../core/iso-time.js';
import { AmuxError, toAmuxError } from '../../errors.js';
import type { SessionRecord } from '../../core/records.js';
import { PAGE_HEADERS, type LogLinesView } from '../../protocol/logs.js';
import { stampLines } from '../../core/stamp-lines.js';
import { sessionPaths } from '../../paths.js';
import { readLog } from '../output/log-files.js';
import { MARK_SLACK_MS, offsetSince, offsetUntil, parseTimeRef } from '../../core/log-times.js';
import { readMarks } from '../output/log-times.js';
import { pathOf, ROUTES } from '../../protocol/routes.js';
import type { JobView } from '../../protocol/jobs.js';
import type { InspectView, PruneAnswer, ScreenView, SendReceipt, SessionView } from '../../protocol/sessions.js';
import { readSessionLog, settleLog } from '../output/log-stream.js';
import { logBytes, logPatch, syncLog } from '../output/log-size.js';
import { declareState } from '../session/attention.js';
import { pauseSession, resumeSession } from '../session/control.js';
import { sendInput } from '../session/send.js';
import { createSession } from '../session/create.js';
import { killSession } from '../session/kill.js';
import { pruneSessions, removeSession } from '../session/remove.js';
import { resolveSession, resolveTarget, type Target } from '../session/refs.js';
import { listFiltered } from '../session/list.js';
import { renameSession, restartSession } from '../session/restart.js';
import { sessionUsage } from '../session/usage.js';
import { untilStarted } from '../session/waiters.js';
import { captureScreen } from '../session/screen.js';
import type { Engine } from './index.js';
import { queryDuration } from './params.js';
import type { Router } from './router.js';
import { openStream } from './stream.js';
import { grace, parseCreate, parseDeclare, parseInput, parseKill, parsePrune } from './validate.js';
import { eventView, jobView, sessionView } from './views.js';
import { withLiveTotals } from '../job/streams.js';

/** Sessions: list, create, inspect, remove, kill, pause, resume, input, declared state, logs, screen, prune. */
/** `amux kill`: a session, or one job (job 1 of a command session is the session); answers with what was killed. */
export async function killTarget({ ctx, jobs }: Engine, t: Target, k: { signal: NodeJS.Signals; graceMs: number }): Promise<SessionView | JobView> {
  if (t.kind === 'job') return jobView(await jobs.kill(jobs.get(t.id), k.signal, k.graceMs));
  return sessionView(await killSession(ctx, t.id, k.signal, k.graceMs));
}

/** The session with its log size read now; on a full disk, as read, unwritten (a read needs no write). */
/** `since`/`until` of `GET …/logs` as a range of offsets, from the log's time marks (src/guides/sessions.md: logs). */
function timeWindow(ctx: Engine['ctx'], id: string, since: string | undefined, until: string | undefined, follow: boolean): { from: number; to: number | null } {
  if (since === undefined && until === undefined) return { from: 0, to: null };
  if (until !== undefined && follow) throw new AmuxError('invalid_argument', 'until is for reads without follow: drop one of them');
  const now = Date.now();
  let from: number | undefined;
  let to: number | undefined;
  try {
    from = since === undefined ? undefined : parseTimeRef(since, now, 'since');
    to = until === undefined ? undefined : parseTimeRef(until, now, 'until');
  } catch (err) {
    throw new AmuxError('invalid_argument', (err as Error).message);
  }
  // Read back only to the newest mark at or before the earliest time asked (src/guides/sessions.md: logs).
  const back = Math.min(from ?? Infinity, to === undefined ? Infinity : to + MARK_SLACK_MS);
  const marks = readMarks(ctx, id, ([, at]) => at <= back);
  return { from: from === undefined ? 0 : offsetSince(marks, from), to: to === undefined ? null : offsetUntil(marks, to) };
}

function freshLog({ ctx }: Engine, s: SessionRecord): SessionRecord {
  try {
    return syncLog(ctx, s.id) ?? s;
  } catch (err) {
    if (toAmuxError(err).code !== 'storage_error') throw err;
    return { ...s, ...logPatch(ctx, s, logBytes(ctx, s)) };
  }
}

export function registerSessionRoutes(r: Router, engine: Engine): void {
  const { ctx, monitor, queue } = engine;
  r.on(ROUTES.listSessions, async (q): Promise<SessionView[]> => {
    await monitor.ensureFresh();
    const now = Date.now();
    const all = listFiltered(ctx, { statuses: q.query.status, names: q.query.name, labels: q.query.label, limit: q.query.attention === true ? undefined : q.query.limit, includeRemoved: q.query.all === true });
    // `attention=1`: only those that ask for a person (src/guides/statuses.md); the view says so for live ones only.
    const asking = q.query.attention === true ? all.filter((s) => sessionView(s, now).attention !== null) : all;
    const sessions = q.query.attention === true && q.query.limit !== undefined ? asking.slice(0, q.query.limit) : asking;
    if (q.query.usage !== true) return sessions.map((s) => sessionView(s, now, ctx.runtime.get(s.id)));
    const usage = sessionUsage(ctx, sessions, now);
    return sessions.map((s) => ({ ...sessionView(s, now, ctx.runtime.get(s.id)), ...(usage.get(s.id) ?? { cpuPercent: null, rssBytes: null }) }));
  });

  r.on(ROUTES.createSession, async (q): Promise<SessionView> => {
    const s = await createSession(ctx, queue, parseCreate(await q.body()), q.answerBy);
    q.res.statusCode = 201;
    return sessionView(s);
  });

  r.on(ROUTES.inspect, async (q): Promise<InspectView> => {
    await monitor.ensureFresh();
    const found = resolveSession(ctx, q.params.ref!, true);
    const s = freshLog(engine, found);
    return {
      session: sessionView(s, Date.now(), ctx.runtime.get(s.id)),
      jobs: ctx.store.listJobs(s.id).map((j) => jobView(withLiveTotals(ctx, j))),
      events: ctx.store.listEvents(s.id, 50).map(eventView),
      lastOutput: s.lastOutput,
    };
  });

  r.on(ROUTES.removeSession, async (q): Promise<SessionView> => {
    const s = resolveSession(ctx, q.params.ref!);
    return sessionView(await removeSession(ctx, s.id, q.query.force === true, grace(queryDuration(q.query.graceMs, 'graceMs'))));
  });

  r.on(ROUTES.killSession, async (q) => killTarget(engine, resolveTarget(ctx, q.params.ref!, false), parseKill(await q.body())));

  r.on(ROUTES.sendInput, async (q): Promise<SendReceipt> => {
    const s = resolveSession(ctx, q.params.ref!);
    const input = parseInput(await q.body());
    const abort = new AbortController();
    if (input.when !== 'now') {
      q.long();
      q.res.on('close', () => abort.abort());
      await monitor.ensureFresh();
    }
    const done = await sendInput(ctx, s.id, input, abort.signal);
    return { delivered: true, submitted: done.submitted, offset: done.offset, eventId: done.eventId, heldMs: done.heldMs, pasted: done.pasted, session: sessionView(done.session, Date.now(), ctx.runtime.get(done.session.id)) };
  });

  r.on(ROUTES.restartSession, async (q): Promise<SessionView> => {
    const s = resolveSession(ctx, q.params.ref!); // a removed one: session_removed, as for every verb
    const body = (await q.body()) as { graceMs?: number | string };
    return sessionView(await restartSession(ctx, queue, s.id, grace(body.graceMs)));
  });

  r.on(ROUTES.renameSession, async (q): Promise<SessionView> => {
    const s = resolveSession(ctx, q.params.ref!);
    const renamed = renameSession(ctx, s.id, ((await q.body()) as { name: string | null }).name);
    return sessionView(renamed, Date.now(), ctx.runtime.get(renamed.id));
  });

  r.on(ROUTES.declareState, async (q): Promise<SessionView> => {
    const s = resolveSession(ctx, q.params.ref!);
    return sessionView(declareState(ctx, s.id, parseDeclare(await q.body())), Date.now(), ctx.runtime.get(s.id));
  });

  r.on(ROUTES.pause, async (q): Promise<SessionView> => sessionView(await pauseSession(ctx, resolveSession(ctx, q.params.ref!).id)));

  r.on(ROUTES.resume, async (q): Promise<SessionView> => sessionView(await resumeSession(ctx, resolveSession(ctx, q.params.ref!).id)));

  r.on(ROUTES.logs, async (q) => {
    let s = resolveSession(ctx, q.params.ref!, true);
    // A removed run is read by its full id while a restart keeps its log (src/guides/sessions.md "Restart, labels, groups").
    if (s.removedAt !== null && !existsSync(sessionPaths(ctx.paths, s.id).logDir)) throw sessionRemoved(s.id, s.removedAt);
    const follow = q.query.follow === true;
    if (s.status === 'pending' && follow) {
      // Following a queued session (`run -w` beyond maxLive) starts once it does.
      q.long();
      const abort = new AbortController();
      q.res.on('close', () => abort.abort());
      s = await untilStarted(ctx, s.id, abort.signal);
      // Ended (killed, removed, failed to start) without running: no output, and `wait` tells why.
      if (s.startedAt === null) return void q.res.writeHead(200, { 'content-type': 'application/octet-stream' }).end();
    }
    const job: string | undefined = q.query.job;
    if (job !== undefined) {
      const j = /^[1-9]\d{0,8}$/.test(job) ? ctx.store.getJob(jobId(s.id, Number(job))) : null;
      if (!j) throw new AmuxError('job_not_found', `no such job: job-${s.id}-${job}`);
      if (!j.tty) throw new AmuxError('invalid_state', `job ${j.id} captured its stdout and stderr: GET ${pathOf(ROUTES.jobOutput, { id: j.id })}`);
    }
    if (follow) q.long();
    else await settleLog(ctx, s);
    const window = timeWindow(ctx, s.id, q.query.since, q.query.until, follow);
    const sinceOffset = Math.max(q.query.sinceOffset ?? 0, window.from);
    const limit = Math.min(q.query.limit ?? Number.MAX_SAFE_INTEGER, window.to === null ? Number.MAX_SAFE_INTEGER : Math.max(0, window.to - sinceOffset));
    const endOffset = window.to ?? undefined;
    const { page, body } = readSessionLog(ctx, s, { sinceOffset, limit, follow, job: job === undefined ? null : Number(job), endOffset });
    const headers = { 'content-type': 'application/octet-stream', [PAGE_HEADERS.offset]: String(page.offset), [PAGE_HEADERS.truncated]: String(page.truncated) };
    if (!follow) {
      const data = (await body.next()).value as Buffer;
      q.res.writeHead(200, { ...headers, [PAGE_HEADERS.nextOffset]: String(page.nextOffset), [PAGE_HEADERS.more]: String(page.more), 'content-length': String(data.length) });
      return void q.res.end(data);
    }
    const out = openStream(q.res, headers);
    for await (const b of body) {
      await out.write(b);
      if (out.closed) break;
    }
    out.end();
  });

  r.on(ROUTES.logLines, async (q): Promise<LogLinesView> => {
    const s = resolveSession(ctx, q.params.ref!);
    await settleLog(ctx, s);
    const window = timeWindow(ctx, s.id, q.query.since, q.query.until, false);
    const dir = sessionPaths(ctx.paths, s.id).logDir;
    const read = readLog(dir, s.logChunkBytes, window.from, (window.to ?? Number.MAX_SAFE_INTEGER) - window.from);
    const lines = stampLines(read.data, read.offset, s.nonce, readMarks(ctx, s.id, ([o]) => o < read.offset));
    const closed = lines.filter((l) => !l.open);
    const nextOffset = closed.length ? closed[closed.length - 1]!.end : read.offset;
    return { lines: lines.map((l) => ({ at: isoTime(l.at), text: l.text, ...(l.open ? { open: true as const } : {}) })), nextOffset };
  });

  r.on(ROUTES.screen, async (q): Promise<ScreenView> => {
    return { screen: await captureScreen(ctx, resolveSession(ctx, q.params.ref!), q.query.escapes === true) };
  });

  /** `amux prune`: removes finished sessions that ended at least `olderThan` ago (default: all finished). */
  r.on(ROUTES.prune, async (q): Promise<PruneAnswer> => {
    const { olderThanMs, statuses } = parsePrune(await q.body());
    const removed = await pruneSessions(ctx, olderThanMs, statuses);
    return { removed: removed.map((s) => sessionView(s)) };
  });
}
