import type { ServerResponse } from 'node:http';
import { AmuxError } from '../errors.js';
import { computeStats, eventCursorFrom, isRemoved, lastEventId, readEvents, type Stats } from '../store/history.js';
import type { DaemonContext } from './context.js';
import type { Request, Router } from './http.js';
import { durationField } from '../core/duration.js';
import { intParam, resolveSession, statusFilter } from './routes.js';
import { eventView, sessionView } from './views.js';

const PAGE = 500;
const DAY_MS = 86_400_000;

/** The answer of `GET /v1/stats`: the store's numbers over a window that ends now. */
export interface StatsView extends Omit<Stats, 'from'> {
  /** Start of the window (ISO-8601 UTC). */
  since: string;
  windowMs: number;
}

/** `amux events`, `amux history` and `amux stats` (README "API"). */
export function registerHistoryRoutes(r: Router, ctx: DaemonContext): void {
  r.on('GET', '/v1/events', async (q) => streamEvents(ctx, q));

  r.on('GET', '/v1/history', async (q) => {
    const since = optionalDuration(q.query, 'since');
    const limit = q.query.get('limit');
    const now = Date.now();
    return ctx.store.listSessions({
      includeRemoved: true,
      statuses: statusFilter(q.query),
      from: since === undefined ? undefined : now - since,
      limit: limit === null ? undefined : intParam(q.query, 'limit', 0),
    }).map((s) => sessionView(s, now));
  });

  r.on('GET', '/v1/stats', async (q): Promise<StatsView> => {
    const windowMs = optionalDuration(q.query, 'since') ?? DAY_MS;
    const { from, ...stats } = computeStats(ctx.store, Date.now() - windowMs);
    return { since: new Date(from).toISOString(), windowMs, ...stats };
  });
}

/** `since` as milliseconds or a duration text (`90s`, `1h30m`); undefined when not given. */
function optionalDuration(query: URLSearchParams, key: string): number | undefined {
  const v = query.get(key);
  return v === null || v === '' ? undefined : durationField(v, key, 0);
}

/**
 * NDJSON of events in id order: those that exist now (after `after`, created within `since`, of
 * `session`), then with `follow=1` every new one as it commits, until the client leaves or the
 * followed session is removed. A cursor by id, woken by the bus: nothing is lost or reordered.
 */
async function streamEvents(ctx: DaemonContext, q: Request): Promise<void> {
  const ref = q.query.get('session');
  const sessionId = ref === null || ref === '' ? undefined : resolveSession(ctx, ref, true).id;
  const since = optionalDuration(q.query, 'since');
  const follow = q.query.get('follow') === '1';
  if (follow && q.query.get('limit') !== null) throw new AmuxError('invalid_argument', 'limit is for reads without follow=1; drop one of them');
  if (follow) q.long(); // a stopping daemon cuts it; the CLI then says so
  let left = intParam(q.query, 'limit', Number.MAX_SAFE_INTEGER);
  const { store } = ctx;
  const from = since === undefined ? undefined : Date.now() - since;
  const snapshot = lastEventId(store);
  let after = intParam(q.query, 'after', 0);
  if (from !== undefined) after = Math.max(after, eventCursorFrom(store, from));

  const res = q.res;
  // Close-delimited, not chunked, as the logs stream (the CLI's small HTTP client reads that).
  res.useChunkedEncodingByDefault = false;
  res.shouldKeepAlive = false;
  res.writeHead(200, { 'content-type': 'application/x-ndjson' });
  let closed = false;
  let fresh = false;
  let wake: (() => void) | null = null;
  const onEvent = () => {
    fresh = true;
    wake?.();
  };
  const onClose = () => {
    closed = true;
    wake?.();
  };
  res.on('close', onClose);
  ctx.bus.on('event', onEvent);

  /** Writes a page; false when the client has gone. */
  const send = async (rows: ReturnType<typeof readEvents>): Promise<boolean> => {
    if (closed || rows.length === 0) return !closed;
    after = rows[rows.length - 1]!.id;
    // A full buffer waits for the client to read; `closed` is checked first, as a gone client never drains.
    if (!res.write(rows.map((e) => `${JSON.stringify(eventView(e))}\n`).join('')) && !closed) await drained(res);
    return !closed;
  };
  try {
    // The backlog: what existed when the client came, `since` applied.
    while (left > 0) {
      const want = Math.min(PAGE, left);
      const rows = readEvents(store, { afterId: after, sessionId, from, untilId: snapshot, limit: want });
      left -= rows.length;
      if (!(await send(rows))) return;
      if (rows.length < want) break;
    }
    if (!follow) return;
    after = Math.max(after, snapshot); // the rest of the backlog was outside `since`
    for (;;) {
      fresh = false;
      // Checked before reading: the read then includes `session_removed`, written with removed_at.
      const removed = sessionId !== undefined && isRemoved(store, sessionId);
      const rows = readEvents(store, { afterId: after, sessionId, limit: PAGE });
      if (!(await send(rows))) return;
      if (rows.length === PAGE) continue;
      if (removed || closed) return;
      if (!fresh) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
      if (closed) return;
    }
  } finally {
    ctx.bus.off('event', onEvent);
    res.off('close', onClose);
    res.end();
  }
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
