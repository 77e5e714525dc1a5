import type { EventView, StatsView } from '../../protocol/events.js';
import { isoTime } from '../../core/iso-time.js';
import { ROUTES } from '../../protocol/routes.js';
import type { SessionView } from '../../protocol/sessions.js';
import { computeStats, eventCursorFrom, isRemoved, lastEventId, readEvents } from '../../store/history.js';
import { AmuxError } from '../../errors.js';
import type { DaemonContext } from '../context.js';
import { listFiltered } from '../session/list.js';
import { resolveSession } from '../session/refs.js';
import { queryDuration, queryTime } from './params.js';
import type { Request, Router } from './router.js';
import { openStream } from './stream.js';
import { eventView, sessionView } from './views.js';

const PAGE = 500;
const DAY_MS = 86_400_000;

/** `amux events`, `amux history` and `amux stats` (src/guides/api.md). */
export function registerHistoryRoutes(r: Router, ctx: DaemonContext): void {
  r.on(ROUTES.events, async (q) => streamEvents(ctx, q));

  r.on(ROUTES.history, async (q): Promise<SessionView[]> => {
    const now = Date.now();
    return listFiltered(ctx, {
      includeRemoved: true,
      statuses: q.query.status,
      names: q.query.name,
      labels: q.query.label,
      from: queryTime(q.query.since, 'since', now),
      until: queryTime(q.query.until, 'until', now),
      limit: q.query.limit,
    }).map((s) => sessionView(s, now));
  });

  r.on(ROUTES.stats, async (q): Promise<StatsView> => {
    const windowMs = queryDuration(q.query.since, 'since') ?? DAY_MS;
    const { from, ...stats } = computeStats(ctx.store, Date.now() - windowMs);
    return { since: isoTime(from)!, windowMs, ...stats };
  });
}

/**
 * NDJSON of events in id order: those that exist now (after `after`, created within `since` and
 * before `until`, of
 * `session`), then with `follow=1` every new one as it commits, until the client leaves or the
 * followed session is removed. A cursor by id, woken by the bus: nothing is lost or reordered.
 */
async function streamEvents(ctx: DaemonContext, q: Request): Promise<void> {
  const ref: string | undefined = q.query.session;
  const sessionId = ref === undefined ? undefined : resolveSession(ctx, ref, true).id;
  const now = Date.now();
  const from = queryTime(q.query.since, 'since', now);
  const until = queryTime(q.query.until, 'until', now);
  const follow = q.query.follow === true;
  if (follow && q.query.limit !== undefined) throw new AmuxError('invalid_argument', 'limit is for reads without follow=1; drop one of them');
  if (follow && until !== undefined) throw new AmuxError('invalid_argument', 'until ends the events at a time: not with follow=1');
  if (follow) q.long(); // a stopping daemon cuts it; the CLI then says so
  let left: number = q.query.limit ?? Number.MAX_SAFE_INTEGER;
  const { store } = ctx;
  // The backlog ends at the newest event when the client came, or before the first one at `until`.
  const snapshot = until === undefined ? lastEventId(store) : Math.min(lastEventId(store), eventCursorFrom(store, until));
  let after: number = q.query.after ?? 0;
  if (from !== undefined) after = Math.max(after, eventCursorFrom(store, from));
  if (q.query.new === true) after = Math.max(after, snapshot);

  const out = openStream(q.res, { 'content-type': 'application/x-ndjson' });
  let fresh = false;
  let wake: (() => void) | null = null;
  const onEvent = () => {
    fresh = true;
    wake?.();
  };
  out.onClose(() => wake?.());
  ctx.bus.on('event', onEvent);

  /** Writes a page; false when the client has gone. */
  const send = async (rows: ReturnType<typeof readEvents>): Promise<boolean> => {
    if (out.closed || rows.length === 0) return !out.closed;
    after = rows[rows.length - 1]!.id;
    await out.write(rows.map((e) => `${JSON.stringify(eventView(e) satisfies EventView)}\n`).join(''));
    return !out.closed;
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
      if (removed || out.closed) return;
      if (!fresh) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
      if (out.closed) return;
    }
  } finally {
    ctx.bus.off('event', onEvent);
    out.end();
  }
}
