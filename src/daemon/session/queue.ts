import type { SessionRecord } from '../../core/records.js';
import type { DaemonContext } from '../context.js';
import { judgeDependencies } from '../../core/dependencies.js';
import { setLongTimeout } from '../../core/long-timeout.js';
import { startPending } from './start.js';
import { applyDecision } from './transitions.js';

/**
 * The `maxLive` queue (src/guides/configuration.md, ADR 0010). Every session is created `pending`; the queue starts
 * the oldest pending ones while fewer than `maxLive` are working, idle or paused (0 = no limit).
 * It runs again whenever a session changes status, so a slot freed by a finished, stopped or
 * expired session is taken at once. Pending sessions are rows, so the queue survives a restart.
 */
/**
 * At most this many sessions are being started (a tmux session made) at once; the others wait in
 * order as `pending` (ADR 0040). tmux makes sessions one at a time, so more at once only lengthens
 * every start, and creates that wait on them time out instead of queueing.
 */
export const STARTS_AT_ONCE = 4;

export class Queue {
  /** Sessions being started now (still `pending` in the store until their tmux session exists), with their group. */
  private readonly starting = new Map<string, string | null>();
  private readonly promises = new Map<string, Promise<SessionRecord>>();
  private stopped = false;
  /** Wakes the queue when the earliest delayed session (`run --delay`, a restart's backoff) is due. */
  private timer: { at: number; cancel: () => void } | null = null;

  constructor(private readonly ctx: DaemonContext) {}

  start(): void {
    // Once per turn of the event loop, however many changes it made: a run makes a dozen (ADR 0070).
    let due = false;
    this.ctx.bus.on('change', () => {
      if (due) return;
      due = true;
      setImmediate(() => {
        due = false;
        this.pump();
      });
    });
  }

  /** The daemon is stopping: pending sessions wait for the next one. */
  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
  }

  /**
   * Starts as many of the oldest pending sessions as there are free slots, globally (`maxLive`) and
   * in each session's group (its `parallel`; src/guides/sessions.md "Restart, labels, groups"). A session whose group is full waits
   * without holding back the ones behind it. Synchronous choice: no double start.
   */
  pump(): void {
    if (this.stopped) return;
    this.schedule();
    const { store, settings } = this.ctx;
    const max = settings.maxLive;
    const slots = STARTS_AT_ONCE - this.starting.size;
    let free = Math.min(slots, max === 0 ? Number.MAX_SAFE_INTEGER : max - store.countLive() - this.starting.size);
    if (free <= 0) return;
    const groups = new Map(store.listGroups().map((g) => [g.name, g.parallel]));
    // Counted only when a group exists: the queue runs on every status change.
    const used = new Map(groups.size ? [...store.groupCounts()].map(([g, c]) => [g, c.live]) : []);
    for (const [, g] of this.starting) if (g !== null) used.set(g, (used.get(g) ?? 0) + 1);
    const scan = groups.size ? 10_000 : Math.min(free + this.starting.size, 10_000);
    for (const { id, group, after } of store.pendingIds(scan)) {
      if (free <= 0) break;
      if (this.starting.has(id)) continue;
      if (after !== '[]' && !this.dependenciesMet(id, JSON.parse(after) as string[])) continue;
      const parallel = group === null ? undefined : groups.get(group);
      if (parallel !== undefined && parallel > 0 && (used.get(group!) ?? 0) >= parallel) continue;
      free--;
      if (group !== null) used.set(group, (used.get(group) ?? 0) + 1);
      const started = startPending(this.ctx, id);
      this.starting.set(id, group);
      this.promises.set(id, started);
      started
        .catch(() => undefined) // recorded on the session (stopped, with the error) and answered to its creator
        .finally(() => {
          this.starting.delete(id);
          this.promises.delete(id);
          this.pump(); // a start that failed left its slot free
        });
    }
  }

  /**
   * `run --after`: whether session `id`'s dependencies completed. One that ended otherwise fails it
   * unstarted; while some still run, its reason names them (ADR 0033).
   */
  private dependenciesMet(id: string, after: string[]): boolean {
    const deps = after.map((d) => this.ctx.store.getSession(d));
    const verdict = judgeDependencies(deps, after);
    if (verdict.kind === 'ready') return true;
    const s = this.ctx.store.getSession(id)!;
    if (verdict.kind === 'failed') applyDecision(this.ctx, s, { status: 'failed', reason: verdict.reason, error: verdict.error });
    else if (s.reason !== verdict.reason) this.ctx.store.updateSession(id, { reason: verdict.reason });
    return false;
  }

  /** A timer for the earliest pending session that waits for its `startAfter`. */
  private schedule(): void {
    const at = this.ctx.store.nextStartAfter();
    if (this.timer && this.timer.at === at) return;
    this.timer?.cancel();
    this.timer = null;
    if (at === null) return;
    // a long timer: a start 25 days away must not fire at once (TimeoutOverflowWarning) and loop
    const cancel = setLongTimeout(() => {
      this.timer = null;
      this.pump();
    }, Math.max(0, at - Date.now()) + 5, Date.now, true);
    this.timer = { at, cancel };
  }

  /** Every start slot is taken while maxLive would allow more: what waits now, waits for tmux. */
  backlogged(): boolean {
    const max = this.ctx.settings.maxLive;
    return this.starting.size >= STARTS_AT_ONCE && (max === 0 || this.ctx.store.countLive() + this.starting.size < max);
  }

  /** The start of session `id`, when the queue is starting it now; undefined when it waits. */
  started(id: string): Promise<SessionRecord> | undefined {
    return this.promises.get(id);
  }

  /** Resolves when no start is under way (graceful shutdown). */
  async idle(): Promise<void> {
    while (this.promises.size) await Promise.allSettled([...this.promises.values()]);
  }
}
