import type { SessionRecord } from '../../core/records.js';
import { isTerminal } from '../../core/status.js';
import { sessionPaths } from '../../paths.js';
import type { DaemonContext } from '../context.js';
import { releasePrepared } from '../job/prepared.js';
import { syncLog } from '../output/log-size.js';
import { forgetMarks, markLog } from '../output/log-times.js';
import { reportError } from './errors.js';
import { reapSessions } from './reap.js';
import { removeSession } from './remove.js';

/** Output still in flight when a session ended reaches its log within this time. */
const SETTLE_MS = 1000;

/**
 * What follows a session's end: at once, every process of it that still runs is ended (its
 * background jobs, amux's plumbing, what they left behind; reap.ts, ADR 0027); once its output has
 * settled, the log size in its row and, for `run --rm`, its removal (its last 2 KiB of output stay
 * in the row). Its running jobs end with it too (job/watch.ts), and its job 1 in the same
 * transaction as its status (job/main-job.ts).
 */
export function watchSessionEnds(ctx: DaemonContext): void {
  const reaped = new Set<string>();
  // Ends that come together (a burst of commands finishing) are reaped with one look at /proc.
  let batch: string[] = [];
  const reap = () => {
    const ids = batch;
    batch = [];
    const sessions = ids.map((id) => ctx.store.getSession(id)).filter((s): s is SessionRecord => s !== null);
    reapSessions(ctx, sessions).catch((err) => {
      for (const id of ids) reportError(ctx, id, `could not end what was left of the session: ${(err as Error).message}`);
    });
  };
  ctx.bus.on('change', (id: string) => {
    const s = ctx.store.getSession(id);
    if (!s || !isTerminal(s.status) || s.removedAt) return;
    if (!reaped.has(id)) {
      reaped.add(id);
      if (batch.push(id) === 1) setImmediate(reap);
    }
    setTimeout(() => {
      const synced = syncLog(ctx, id);
      // The last of its output gets its time (src/guides/sessions.md: logs --since), then nothing is noted of it.
      if (synced) markLog(ctx, id, synced.logBytes, Date.now(), true);
      forgetMarks(ctx, id);
      releasePrepared(sessionPaths(ctx.paths, id).jobsDir);
      if (s.autoRemove) {
        removeSession(ctx, id, false, 0).catch((err) => reportError(ctx, id, `could not remove the session (--rm): ${(err as Error).message}`));
      }
    }, SETTLE_MS).unref();
  });
}
