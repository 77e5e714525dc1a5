import { parseJobId } from '../../core/ids.js';
import { AmuxError } from '../../errors.js';
import type { JobStream, JobView, StdinAnswer } from '../../protocol/jobs.js';
import { PAGE_HEADERS } from '../../protocol/logs.js';
import { pathOf, ROUTES } from '../../protocol/routes.js';
import { resolveSession, resolveTarget } from '../session/refs.js';
import type { Engine } from './index.js';
import type { Router } from './router.js';
import { killTarget } from './session-routes.js';
import { openStream } from './stream.js';
import { parseExec, parseKill } from './validate.js';
import { jobView } from './views.js';
import { withLiveTotals } from '../job/streams.js';

const FRAMES = { 'content-type': 'application/vnd.amux.frames' };

/** Jobs (ADR 0009): exec, list, get, kill, output, and the stdin of `exec -i` (ADR 0017). */
export function registerJobRoutes(r: Router, engine: Engine): void {
  const { ctx, jobs } = engine;
  r.on(ROUTES.exec, async (q) => {
    const s = resolveSession(ctx, q.params.ref!);
    const spec = parseExec(await q.body());
    const abort = new AbortController();
    q.res.on('close', () => abort.abort());
    // One request for a whole foreground job: held from its first byte, streamed until its end.
    const stream = q.query.stream === true && spec.mode === 'foreground';
    if (stream) q.long();
    const j = await jobs.exec(s.id, spec, abort.signal, stream);
    if (stream && spec.stdin) {
      // Its client went away before it sent the stdin (ADR 0017): nobody else will.
      if (q.res.closed) jobs.stdin.abandoned(j.id);
      else q.res.on('close', () => jobs.stdin.abandoned(j.id));
    }
    if (stream) return writeAll(q.res, jobs.streams.frames(j, true, undefined, true));
    q.res.statusCode = 201;
    return jobView(withLiveTotals(ctx, j));
  });

  r.on(ROUTES.listJobs, async (q): Promise<JobView[]> => {
    const s = resolveSession(ctx, q.params.ref!, true);
    const now = Date.now();
    return ctx.store.listJobs(s.id, {
      statuses: q.query.status, background: q.query.background, limit: q.query.limit,
    }).map((j) => jobView(withLiveTotals(ctx, j), now));
  });

  r.on(ROUTES.getJob, async (q): Promise<JobView> => jobView(withLiveTotals(ctx, jobs.get(q.params.id!))));

  r.on(ROUTES.killJob, async (q): Promise<JobView> => {
    const id = q.params.id!;
    if (!parseJobId(id)) throw new AmuxError('invalid_argument', `'${id}' is not a job id (job-<session>-<n>); to kill a session: POST ${ROUTES.killSession.path}`);
    await killTarget(engine, resolveTarget(ctx, id, false), parseKill(await q.body()));
    return jobView(withLiveTotals(ctx, jobs.get(id)));
  });

  // The body streams into the job's stdin as the job reads it; its end is the job's EOF. The head
  // is answered at once (a client may wait for it before it sends), the answer once it is done.
  r.on(ROUTES.jobStdin, async (q) => {
    const j = jobs.get(q.params.id!);
    q.long();
    const done = jobs.stdin.pump(j, q.req);
    const out = openStream(q.res, { 'content-type': 'application/json' });
    const answer: StdinAnswer = await done;
    await out.write(`${JSON.stringify(answer)}\n`);
    out.end();
    return undefined;
  });

  r.on(ROUTES.jobOutput, async (q) => {
    const j = jobs.get(q.params.id!);
    resolveSession(ctx, j.sessionId); // a removed session's files are gone: session_removed
    if (j.tty) {
      throw new AmuxError('invalid_state', `job ${j.id} ran on the terminal, so its output is in the session log: GET ${pathOf(ROUTES.logs, { ref: j.sessionId }, { job: j.seq })}`);
    }
    const stream: JobStream | undefined = q.query.stream;
    const follow = q.query.follow === true;
    if (follow) q.long();
    if (stream === undefined || follow) return writeAll(q.res, jobs.streams.frames(j, follow, stream ? [stream] : undefined));
    const page = jobs.streams.read(j, stream, q.query.sinceOffset ?? 0, q.query.limit ?? Number.MAX_SAFE_INTEGER);
    q.res.writeHead(200, {
      'content-type': 'application/octet-stream', 'content-length': String(page.data.length), [PAGE_HEADERS.offset]: String(page.offset),
      [PAGE_HEADERS.nextOffset]: String(page.nextOffset), [PAGE_HEADERS.total]: String(page.total), [PAGE_HEADERS.truncated]: String(page.truncated),
      [PAGE_HEADERS.more]: String(page.more),
    });
    q.res.end(page.data);
    return undefined;
  });
}

/** Streams frames to the client until they end or the client leaves. */
async function writeAll(res: Parameters<typeof openStream>[0], frames: AsyncGenerator<Buffer>): Promise<undefined> {
  const out = openStream(res, FRAMES);
  for await (const f of frames) {
    await out.write(f);
    if (out.closed) break;
  }
  out.end();
  return undefined;
}
