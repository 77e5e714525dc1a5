import type { SessionRecord } from '../../core/records.js';
import { passedBy } from '../../core/look-pace.js';
import { canReuse } from '../../process/run-marks.js';
import { quietFor, runtimeOf, type DaemonContext } from '../context.js';
import { QUICK_MS, standFor } from './evidence.js';

/** A declaration whose time ran out: its end is the decision's (lookForAttention), never passed by. */
function declarationEnded(s: SessionRecord, now: number): boolean {
  return s.declaredUntil !== null && now >= s.declaredUntil;
}

/**
 * Whether the refresh passes a session by without reading anything of it (ADR 0071): nobody
 * calls, none of its processes has run for `restAfterMs`, its last decision's evidence settles,
 * a refresh visited it less than REST_PACE_MS ago, and nothing is timed by the refresh's reads of
 * it (an idle timeout reads its output's time as of `Monitor.refreshedAt`; a declaration's end).
 */
export function restsNow(ctx: DaemonContext, s: SessionRecord, now: number): boolean {
  const rt = runtimeOf(ctx, s.id);
  return passedBy(
    {
      settled: rt.settled !== undefined && rt.look !== undefined,
      stillMs: rt.look ? now - rt.look.stillSince : 0,
      sinceVisitMs: rt.visitedAt === undefined ? null : now - rt.visitedAt,
      timed: s.idleTimeoutMs !== null || declarationEnded(s, now),
    },
    quietFor(ctx, now),
    ctx.settings.restAfterMs,
    QUICK_MS,
  );
}

/**
 * Whether the refresh may pass a session by without deciding it again (ADR 0044): the panes stood
 * (the caller's part: no log grew, no pane died), its row is the very one the last decision read
 * (no write since, to any row), the look that decision judged is still the last one (no quick look
 * read afresh since) and its evidence settles (a wait the kernel named), and none of its processes
 * has run since that look, which is younger than REUSE_MAX_MS (the same bound as a look standing
 * for the next; REST_STAND_MS while the session rests or wakes, ADR 0071).
 */
export function settledSince(ctx: DaemonContext, s: SessionRecord, now: number, waking: boolean): boolean {
  const rt = runtimeOf(ctx, s.id);
  const fg = rt.settled?.fg;
  if (declarationEnded(s, now)) return false;
  return rt.settled?.row === s && fg !== undefined && rt.look?.fg === fg && canReuse(fg, fg.shell, fg.jobRunning, now, undefined, standFor(ctx, rt, now, waking));
}
