import { tmuxSessionName, exactSession } from '../tmux/commands.js';
import type { DaemonContext } from './context.js';
import { removeSessionFiles } from './session-control.js';
import { isSessionLocked } from './session-lock.js';

/**
 * Retention (SPEC §6, ADR 0011), swept every `sweepIntervalMs` (60 s):
 * - `finishedTtl`: a finished session's tmux session is closed this long after it ended, so that
 *   finished shells do not pile up in tmux; its log, row and events stay (`logs` still works).
 * - `historyRetention`: finished sessions that ended longer ago than this are deleted with their
 *   jobs, events and files.
 */
export class Retention {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly ctx: DaemonContext) {}

  start(): void {
    this.timer = setInterval(() => void this.sweep().catch((err) => process.stderr.write(`[amuxd] retention sweep: ${(err as Error).message}\n`)), this.ctx.settings.sweepIntervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a sweep under way. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** One sweep; concurrent callers share it. */
  sweep(now = Date.now()): Promise<void> {
    this.running ??= this.doSweep(now).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async doSweep(now: number): Promise<void> {
    await this.closeFinished(now);
    this.deleteOld(now);
  }

  private async closeFinished(now: number): Promise<void> {
    const { ctx } = this;
    // A history shorter than the TTL closes a session before its row goes: no tmux session is left orphaned.
    const ttl = Math.min(ctx.settings.finishedTtlMs, ctx.settings.historyRetentionMs);
    const due = ctx.store.unclosedFinished(now - ttl).filter((s) => !isSessionLocked(s.id));
    if (due.length === 0) return;
    // One tmux call to see which are still open and one to close them all, whatever their number.
    const open = new Set((await ctx.tmux.runIfServer(['list-sessions', '-F', '#{session_name}'])).split('\n'));
    const closing = due.filter((s) => open.has(tmuxSessionName(s.id)));
    if (closing.length) {
      const args = closing.flatMap((s, i) => [...(i ? [';'] : []), 'kill-session', '-t', exactSession(s.id)]);
      await ctx.tmux.runIfServer(args, { lenient: true });
    }
    const closed = new Set(closing.map((s) => s.id));
    const at = Date.now();
    ctx.store.tx(() => {
      for (const s of due) {
        ctx.store.updateSession(s.id, { closedAt: at });
        if (closed.has(s.id)) {
          ctx.store.addEvent({ sessionId: s.id, jobId: null, type: 'session_closed', data: { reason: 'finishedTtl', finishedTtlMs: ctx.settings.finishedTtlMs }, createdAt: at });
        }
      }
    });
  }

  private deleteOld(now: number): void {
    const { ctx } = this;
    const old = ctx.store.finishedBefore(now - ctx.settings.historyRetentionMs, { includeRemoved: true }).filter((s) => !isSessionLocked(s.id));
    if (old.length === 0) return;
    const ids = old.map((s) => s.id);
    // Rows first: a crash between the two leaves files without a row (harmless), never a row without its files.
    ctx.store.deleteSessions(ids);
    removeSessionFiles(ctx, old.filter((s) => !s.removedAt).map((s) => s.id));
  }
}
