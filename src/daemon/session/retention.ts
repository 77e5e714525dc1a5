import { killSessionsArgs, listSessionNamesArgs, tmuxSessionName } from '../../tmux/commands.js';
import type { DaemonContext } from '../context.js';
import { closeTmuxSession } from './kill.js';
import { isSessionLocked } from './lock.js';
import { reapSessions } from './reap.js';
import { removeSessionFiles } from './remove.js';
import { logLine } from '../log.js';

/**
 * Retention (src/guides/configuration.md, ADR 0011), swept every `sweepIntervalMs` (60 s):
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
    this.timer = setInterval(() => void this.sweep().catch((err) => logLine(`retention sweep: ${(err as Error).message}`)), this.ctx.settings.sweepIntervalMs);
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
    // One tmux call to see which are open and one to close them all, whatever their number; a
    // sequence stops at a failed command (one closed meanwhile), so a second look finds what is left.
    const open = await this.openSessions();
    const closing = due.filter((s) => open.has(tmuxSessionName(s.id)));
    const still = new Set<string>();
    if (closing.length) {
      await ctx.tmux.runIfServer(killSessionsArgs(closing.map((s) => s.id)), { lenient: true });
      for (const name of await this.openSessions()) still.add(name);
      for (const s of closing) {
        if (!still.has(tmuxSessionName(s.id))) continue;
        try {
          await closeTmuxSession(ctx, s.id);
          still.delete(tmuxSessionName(s.id));
        } catch {
          /* still open: the next sweep tries again */
        }
      }
    }
    const closed = new Set(closing.filter((s) => !still.has(tmuxSessionName(s.id))).map((s) => s.id));
    const at = Date.now();
    // Their shells went with their tmux sessions; whatever was started in them after their end goes too (ADR 0027).
    void reapSessions(ctx, closing.filter((s) => closed.has(s.id)).map((s) => ({ ...s, closedAt: at }))).catch(() => undefined);
    ctx.store.tx(() => {
      for (const s of due) {
        if (still.has(tmuxSessionName(s.id))) continue; // not closed: the next sweep tries again
        ctx.store.updateSession(s.id, { closedAt: at });
        if (closed.has(s.id)) {
          ctx.store.addEvent({ sessionId: s.id, jobId: null, type: 'session_closed', data: { reason: 'finishedTtl', finishedTtlMs: ctx.settings.finishedTtlMs }, createdAt: at });
        }
      }
    });
  }

  private async openSessions(): Promise<Set<string>> {
    return new Set((await this.ctx.tmux.runIfServer(listSessionNamesArgs())).split('\n').filter(Boolean));
  }

  private deleteOld(now: number): void {
    const { ctx } = this;
    // Not while another operation holds it, and not while its tmux session may still be open.
    const old = ctx.store
      .finishedBefore(now - ctx.settings.historyRetentionMs, { includeRemoved: true })
      .filter((s) => !isSessionLocked(s.id) && (s.removedAt !== null || s.closedAt !== null));
    if (old.length === 0) return;
    const ids = old.map((s) => s.id);
    // Rows first: a crash between the two leaves files without a row (harmless), never a row without its files.
    ctx.store.deleteSessions(ids);
    removeSessionFiles(ctx, ids); // a removed run's directory may remain: a restart keeps its log (src/guides/sessions.md "Restart, labels, groups")
  }
}
