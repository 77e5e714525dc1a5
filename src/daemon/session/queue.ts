import type { SessionRecord } from '../../core/records.js';
import type { DaemonContext } from '../context.js';
import { startPending } from './start.js';

/**
 * The `maxLive` queue (README "Configuration", ADR 0010). Every session is created `pending`; the queue starts
 * the oldest pending ones while fewer than `maxLive` are working, idle or paused (0 = no limit).
 * It runs again whenever a session changes status, so a slot freed by a finished, stopped or
 * expired session is taken at once. Pending sessions are rows, so the queue survives a restart.
 */
export class Queue {
  /** Sessions being started now (still `pending` in the store until their tmux session exists). */
  private readonly starting = new Map<string, Promise<SessionRecord>>();
  private stopped = false;
  /** Wakes the queue when the earliest delayed session (`run --delay`, a restart's backoff) is due. */
  private timer: { at: number; handle: NodeJS.Timeout } | null = null;

  constructor(private readonly ctx: DaemonContext) {}

  start(): void {
    this.ctx.bus.on('change', () => this.pump());
  }

  /** The daemon is stopping: pending sessions wait for the next one. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer.handle);
  }

  /** Starts as many of the oldest pending sessions as there are free slots. Synchronous choice: no double start. */
  pump(): void {
    if (this.stopped) return;
    this.schedule();
    const { store, settings } = this.ctx;
    const max = settings.maxLive;
    let free = max === 0 ? Number.MAX_SAFE_INTEGER : max - store.countLive() - this.starting.size;
    if (free <= 0) return;
    for (const id of store.pendingIds(Math.min(free + this.starting.size, 10_000))) {
      if (free <= 0) break;
      if (this.starting.has(id)) continue;
      free--;
      const started = startPending(this.ctx, id);
      this.starting.set(id, started);
      started
        .catch(() => undefined) // recorded on the session (stopped, with the error) and answered to its creator
        .finally(() => {
          this.starting.delete(id);
          this.pump(); // a start that failed left its slot free
        });
    }
  }

  /** A timer for the earliest pending session that waits for its `startAfter`. */
  private schedule(): void {
    const at = this.ctx.store.nextStartAfter();
    if (this.timer && this.timer.at === at) return;
    if (this.timer) clearTimeout(this.timer.handle);
    this.timer = null;
    if (at === null) return;
    const handle = setTimeout(() => {
      this.timer = null;
      this.pump();
    }, Math.max(0, at - Date.now()) + 5);
    handle.unref();
    this.timer = { at, handle };
  }

  /** The start of session `id`, when the queue is starting it now; undefined when it waits. */
  started(id: string): Promise<SessionRecord> | undefined {
    return this.starting.get(id);
  }

  /** Resolves when no start is under way (graceful shutdown). */
  async idle(): Promise<void> {
    while (this.starting.size) await Promise.allSettled([...this.starting.values()]);
  }
}
