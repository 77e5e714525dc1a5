import { formatDuration } from '../core/duration.js';
import type { JobRecord, SessionRecord } from '../core/records.js';
import { DEFAULT_GRACE_MS } from '../process/terminate.js';
import type { DaemonContext } from './context.js';
import type { Jobs } from './job/jobs.js';
import type { Monitor } from './monitor/monitor.js';
import { reportError } from './session/errors.js';
import { killSession } from './session/kill.js';
import { isSessionLocked } from './session/lock.js';
import { rowsRemembered } from '../store/snapshot.js';

const CHECK_EVERY_MS = 250;
const RETRY_MS = 10_000;

/**
 * The one timeout mechanism (ADR 0010), for sessions (`run --timeout`, `--idle-timeout`) and
 * jobs (`exec --timeout`): four times a second, what has a limit is checked against it, with one
 * indexed query each, answered from memory while no row was written (ADR 0041). It needs no timer
 * per target, holds for any duration, and survives a daemon restart as it is (limits are rows). A
 * session whose limit ran out gets a `timeout` event and is killed into `expired`; a job is killed
 * into `killed`, exit 124. Both by the terminate routine.
 *
 * The session wall clock counts from the start (time spent `pending` does not count, nor does it
 * stop while paused). The idle clock counts from the last output change the monitor saw, and
 * from a resume; it does not run while paused. Output is only seen by a refresh, so an idle limit
 * is acted on only when a refresh made after it ran out still saw no change.
 */
export class Timeouts {
  private timer: NodeJS.Timeout | null = null;
  /** Sessions whose expiry failed: not tried again before this time (no event every 250 ms). */
  private readonly retryAt = new Map<string, number>();

  constructor(private readonly ctx: DaemonContext, private readonly monitor: Monitor, private readonly jobs: Jobs) {}

  start(): void {
    this.timer = setInterval(() => this.check(), CHECK_EVERY_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  check(now = Date.now()): void {
    this.checkSessions(now);
    const { store } = this.ctx;
    for (const j of rowsRemembered(store, 'jobs with limits', () => store.jobsWithLimits())) {
      if (now - j.startedAt >= j.timeoutMs! && !this.jobs.state.isKilling(j.id)) this.expireJob(j);
    }
  }

  private checkSessions(now: number): void {
    let refresh = false;
    const { store } = this.ctx;
    for (const s of rowsRemembered(store, 'sessions with limits', () => store.sessionsWithLimits())) {
      // An expiry under way holds the session's lock (as does any kill or rm): no second one.
      if (isSessionLocked(s.id) || (this.retryAt.get(s.id) ?? 0) > now) continue;
      const started = s.startedAt ?? now;
      if (s.timeoutMs != null && now - started >= s.timeoutMs) {
        this.expireSession(s, 'timeout', s.timeoutMs, now);
        continue;
      }
      if (s.idleTimeoutMs == null || s.status === 'paused') continue;
      // Output made while no daemon watched is unknown: the idle clock restarts with the daemon.
      const last = Math.max(s.lastActivityAt ?? started, this.ctx.startedAt);
      if (now - last < s.idleTimeoutMs) continue;
      if (this.monitor.refreshedAt - last >= s.idleTimeoutMs) this.expireSession(s, 'idle_timeout', s.idleTimeoutMs, now);
      else refresh = true;
    }
    if (refresh) this.monitor.refresh().catch(() => undefined);
  }

  private expireSession(s: SessionRecord, kind: 'timeout' | 'idle_timeout', limitMs: number, now: number): void {
    const { ctx } = this;
    const what = kind === 'timeout' ? `ran longer than its --timeout of ${formatDuration(limitMs)}` : `no output for its --idle-timeout of ${formatDuration(limitMs)}`;
    ctx.store.addEvent({ sessionId: s.id, jobId: null, type: 'timeout', data: { kind, limitMs }, createdAt: now });
    killSession(ctx, s.id, 'SIGTERM', DEFAULT_GRACE_MS, { status: 'expired', reason: kind === 'timeout' ? 'timeout' : 'idle timeout', error: `expired: ${what}` })
      .then(() => this.retryAt.delete(s.id))
      .catch((err) => {
        this.retryAt.set(s.id, Date.now() + RETRY_MS);
        reportError(ctx, s.id, `could not expire the session: ${(err as Error).message}`);
      });
  }

  private expireJob(j: JobRecord): void {
    this.jobs.kill(j, 'SIGTERM', DEFAULT_GRACE_MS, 'timeout').catch((err) => reportError(this.ctx, j.sessionId, `could not end job ${j.id} at its timeout: ${(err as Error).message}`));
  }
}
