import { formatDuration } from '../core/duration.js';
import type { SessionRecord } from '../core/records.js';
import type { DaemonContext } from './context.js';
import type { Monitor } from './monitor.js';
import { KILL_GRACE_MS, killSession } from './session-control.js';
import { isSessionLocked } from './session-lock.js';

const CHECK_EVERY_MS = 250;
const RETRY_MS = 10_000;

/**
 * `run --timeout` and `run --idle-timeout` (SPEC §6, ADR 0010): four times a second the live
 * sessions with a limit are checked against it; one whose limit ran out gets a `timeout` event and
 * is killed (TERM, 5 s grace, KILL) into `expired`.
 *
 * The wall clock counts from the start (time spent `pending` in the queue does not count, nor
 * does it stop while paused). The idle clock counts from the last output change the monitor saw,
 * and from a resume; it does not run while paused. Output is only seen by a refresh, so an idle
 * limit is acted on only when a refresh made after it ran out still saw no change.
 */
export class Timeouts {
  private timer: NodeJS.Timeout | null = null;
  /** Sessions whose expiry failed: not tried again before this time (no event every 250 ms). */
  private readonly retryAt = new Map<string, number>();

  constructor(private readonly ctx: DaemonContext, private readonly monitor: Monitor) {}

  start(): void {
    this.timer = setInterval(() => this.check(), CHECK_EVERY_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  check(now = Date.now()): void {
    let refresh = false;
    for (const s of this.ctx.store.sessionsWithLimits()) {
      // An expiry under way holds the session's lock (as does any kill or rm): no second one.
      if (isSessionLocked(s.id) || (this.retryAt.get(s.id) ?? 0) > now) continue;
      const started = s.startedAt ?? now;
      if (s.timeoutMs != null && now - started >= s.timeoutMs) {
        this.expire(s, 'timeout', s.timeoutMs, now);
        continue;
      }
      if (s.idleTimeoutMs == null || s.status === 'paused') continue;
      // Output made while no daemon watched is unknown: the idle clock restarts with the daemon.
      const last = Math.max(s.lastActivityAt ?? started, this.ctx.startedAt);
      if (now - last < s.idleTimeoutMs) continue;
      if (this.monitor.refreshedAt - last >= s.idleTimeoutMs) this.expire(s, 'idle_timeout', s.idleTimeoutMs, now);
      else refresh = true;
    }
    if (refresh) this.monitor.refresh().catch(() => undefined);
  }

  private expire(s: SessionRecord, kind: 'timeout' | 'idle_timeout', limitMs: number, now: number): void {
    const { ctx } = this;
    const what = kind === 'timeout' ? `ran longer than its --timeout of ${formatDuration(limitMs)}` : `no output for its --idle-timeout of ${formatDuration(limitMs)}`;
    ctx.store.addEvent({ sessionId: s.id, jobId: null, type: 'timeout', data: { kind, limitMs }, createdAt: now });
    killSession(ctx, s.id, 'TERM', KILL_GRACE_MS, { status: 'expired', reason: kind === 'timeout' ? 'timeout' : 'idle timeout', error: `expired: ${what}` })
      .then(() => this.retryAt.delete(s.id))
      .catch((err) => {
        this.retryAt.set(s.id, Date.now() + RETRY_MS);
        const message = `could not expire the session: ${(err as Error).message}`;
        ctx.store.addEvent({ sessionId: s.id, jobId: null, type: 'error', data: { message }, createdAt: Date.now() });
        process.stderr.write(`[amuxd] ${s.id}: ${message}\n`);
      });
  }
}
