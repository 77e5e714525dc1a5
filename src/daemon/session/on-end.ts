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

/** The settling of ended sessions under way, for a daemon that stops. */
export interface SessionEnds {
  /** Settles at once every ended session still waiting for its output, and waits for their removals (`run --rm`). */
  flush(): Promise<void>;
  /** Settles nothing more: the database is about to close. */
  stop(): void;
}

/**
 * What follows a session's end: at once, every process of it that still runs is ended (its
 * background jobs, amux's plumbing, what they left behind; reap.ts, ADR 0027); once its output has
 * settled (`settleMs`, 1 s: output still in flight at its end reaches its log), the log size in its
 * row and, for `run --rm`, its removal (its last 2 KiB of output stay in the row). Its running jobs
 * end with it too (job/watch.ts), and its job 1 in the same transaction as its status
 * (job/main-job.ts). A daemon that stops settles them at once (`flush`); one that starts removes
 * the `--rm` sessions a daemon before it ended but never removed (it stopped or was killed while
 * their output settled).
 */
export function watchSessionEnds(ctx: DaemonContext): SessionEnds {
  const reaped = new Set<string>();
  const settling = new Map<NodeJS.Timeout, { id: string; autoRemove: boolean }>();
  const removals = new Set<Promise<unknown>>();
  let stopped = false;
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
  const settle = (id: string, autoRemove: boolean) => {
    const synced = syncLog(ctx, id);
    // The last of its output gets its time (src/guides/sessions.md: logs --since), then nothing is noted of it.
    if (synced) markLog(ctx, id, synced.logBytes, Date.now(), true);
    forgetMarks(ctx, id);
    releasePrepared(sessionPaths(ctx.paths, id).jobsDir);
    // A restart removes the run it replaces as it ends (restart.ts): nothing is left to remove then.
    if (!autoRemove || ctx.store.getSession(id)?.removedAt) return;
    const removal = removeSession(ctx, id, false, 0).catch((err) => reportError(ctx, id, `could not remove the session (--rm): ${(err as Error).message}`));
    removals.add(removal);
    void removal.finally(() => removals.delete(removal));
  };
  ctx.bus.on('change', (id: string) => {
    if (stopped) return;
    const s = ctx.store.getSession(id);
    if (!s || !isTerminal(s.status) || s.removedAt) return;
    if (!reaped.has(id)) {
      reaped.add(id);
      if (batch.push(id) === 1) setImmediate(reap);
    }
    const timer = setTimeout(() => {
      settling.delete(timer);
      settle(id, s.autoRemove);
    }, ctx.settings.settleMs).unref();
    settling.set(timer, { id, autoRemove: s.autoRemove });
  });
  for (const s of ctx.store.finishedBefore(Date.now(), { includeRemoved: false })) if (s.autoRemove) settle(s.id, true);
  const stop = () => {
    stopped = true;
    for (const timer of settling.keys()) clearTimeout(timer);
    settling.clear();
  };
  return {
    async flush() {
      const due = [...settling.values()];
      stop();
      for (const { id, autoRemove } of due) settle(id, autoRemove);
      await Promise.all(removals);
    },
    stop,
  };
}
