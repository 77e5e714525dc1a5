import { watch, type FSWatcher } from 'node:fs';
import fnv from 'fnv-plus';
import type { SessionRecord } from '../core/records.js';
import { decideStatus, finished } from '../core/status-rules.js';
import { sessionPaths } from '../paths.js';
import { childCount } from '../process/process-table.js';
import { captureScript, listPanesArgs, parseCaptures, parsePanes, tmuxSessionName } from '../tmux/commands.js';
import { runtimeOf, type DaemonContext } from './context.js';
import { mainExit, parseExitFileName } from './exit-files.js';
import { chunksToKeep, logSize } from './log-files.js';
import { applyDecision } from './transitions.js';
import { isSessionLocked } from './session-lock.js';
import { removeSession } from './session-control.js';
import { isTerminal } from '../core/types.js';
import type { Jobs } from './jobs.js';

const LIVE = ['working', 'idle', 'paused'] as const;

/**
 * Owns status (SPEC §2): a batched refresh of all live sessions with O(1) process spawns
 * (list-panes, and one chained capture of the panes that changed in place), single-flight, cached
 * for `statusCacheMs`; an inotify watch on the exit-status directory so that exits are seen at
 * once, not polled; and what follows an ending (the log's last bytes, `--rm`).
 */
export class Monitor {
  private inflight: Promise<void> | null = null;
  private lastRefreshAt = 0;

  /** When the last refresh finished: what the store says about output is true as of then. */
  get refreshedAt(): number {
    return this.lastRefreshAt;
  }
  private timer: NodeJS.Timeout | null = null;
  private watcher: FSWatcher | null = null;

  constructor(private readonly ctx: DaemonContext, private readonly jobs: Jobs) {}

  start(): void {
    this.ctx.bus.on('change', (id: string) => this.onChange(id));
    try {
      this.watcher = watch(this.ctx.paths.exitsDir, (_event, file) => {
        if (file) this.onExitFile(String(file));
      });
      this.watcher.on('error', () => undefined);
    } catch (err) {
      // No inotify (e.g. all watches used): exits are still found by the refresh, within ~2 s.
      process.stderr.write(`[amuxd] cannot watch ${this.ctx.paths.exitsDir} (${(err as Error).message}); exits are seen by polling\n`);
    }
    // Refresh a little before the cache expires, so that readers (`amux ps`) never wait for one.
    const early = Math.min(500, this.ctx.settings.statusCacheMs / 2);
    this.timer = setInterval(() => {
      if (Date.now() - this.lastRefreshAt >= this.ctx.settings.statusCacheMs - early) this.refresh().catch(() => undefined);
    }, 250);
    this.timer.unref();
  }

  /**
   * After a session ends, its last output may reach the log a moment later: settle, then record
   * the log size and, for `--rm`, remove it (its last 2 KiB of output are kept in its row).
   */
  private onChange(id: string): void {
    const s = this.ctx.store.getSession(id);
    if (!s || !isTerminal(s.status) || s.removedAt) return;
    setTimeout(() => {
      this.syncLog(id);
      if (s.autoRemove) {
        removeSession(this.ctx, id, false, 0).catch((err) => this.error(id, `could not remove the session (--rm): ${(err as Error).message}`));
      }
    }, 1000).unref();
  }

  /** A problem with one session: an `error` event (`amux events`) and a line in the daemon log. */
  private error(id: string, message: string): void {
    const rt = runtimeOf(this.ctx, id);
    if (rt.lastError === message) return; // the same problem at every refresh is one event
    rt.lastError = message;
    process.stderr.write(`[amuxd] ${id}: ${message}\n`);
    try {
      this.ctx.store.addEvent({ sessionId: id, jobId: null, type: 'error', data: { message }, createdAt: Date.now() });
    } catch {
      /* the store itself failed: the log line is all there is */
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.watcher?.close();
  }

  /** Resolves when no refresh is under way (graceful shutdown). */
  async idle(): Promise<void> {
    await this.inflight?.catch(() => undefined);
  }

  /** Refreshes unless the cache is younger than the status cache time. */
  async ensureFresh(): Promise<void> {
    if (Date.now() - this.lastRefreshAt < this.ctx.settings.statusCacheMs) return;
    await this.refresh();
  }

  /** One refresh for all live sessions; concurrent callers share it. */
  refresh(): Promise<void> {
    if (!this.inflight) {
      this.inflight = this.doRefresh().finally(() => {
        this.inflight = null;
      });
    }
    return this.inflight;
  }

  private onExitFile(name: string): void {
    const ref = parseExitFileName(name);
    if (!ref) return;
    if (ref.start) {
      this.jobs.onStartFile(ref.id, ref.seq);
      return;
    }
    if (ref.seq === 0) {
      // The shell itself exited: a refresh sees the dead pane now rather than at the next tick.
      void this.refresh().catch(() => undefined);
      return;
    }
    const s = this.ctx.store.getSession(ref.id);
    if (s && (ref.seq !== 1 || !s.hasCommand)) {
      this.jobs.onExitFile(ref.id, ref.seq);
      return;
    }
    // A paused session's exit is seen when it is resumed (paused → completed is not a transition).
    if (!s || (s.status !== 'working' && s.status !== 'idle')) return;
    if (isSessionLocked(s.id)) return;
    const code = mainExit(this.ctx, s);
    if (code === null) return;
    this.ctx.store.updateSession(s.id, this.logPatch(s, this.logBytes(s)));
    applyDecision(this.ctx, s, finished(code));
  }

  /**
   * Re-reads a session's log size into its row. Output still in flight when the exit was seen
   * lands a moment later, so this runs on `inspect` and once more after a session ends.
   */
  syncLog(id: string): SessionRecord | null {
    const s = this.ctx.store.getSession(id);
    if (!s || s.removedAt) return s;
    const patch = this.logPatch(s, this.logBytes(s));
    if (Object.keys(patch).length === 0) return s;
    this.ctx.store.updateSession(id, patch);
    return { ...s, ...patch };
  }

  /** Bytes written to the session's log so far (one or two stat calls). */
  private logBytes(s: SessionRecord): number {
    const rt = runtimeOf(this.ctx, s.id);
    const size = logSize(sessionPaths(this.ctx.paths, s.id).logDir, s.logChunkBytes, rt.logIndex);
    rt.logIndex = size.index;
    return size.end;
  }

  /** Chunk 0 is gone once chunk `keep` was opened (the capture pipeline drops whole chunks). */
  private logPatch(s: SessionRecord, bytes: number): Partial<SessionRecord> {
    if (bytes === s.logBytes) return {};
    const index = runtimeOf(this.ctx, s.id).logIndex ?? 0;
    return { logBytes: bytes, logTruncated: index >= chunksToKeep(s.logCapBytes, s.logChunkBytes) };
  }

  private async doRefresh(): Promise<void> {
    const { ctx } = this;
    this.jobs.sweep();
    const live = ctx.store.listSessions({ statuses: [...LIVE] });
    if (live.length === 0) {
      this.lastRefreshAt = Date.now();
      return;
    }
    const panesOut = await ctx.tmux.runIfServer(listPanesArgs());
    const panes = new Map(parsePanes(panesOut).map((p) => [p.sessionName, p]));

    // The fingerprint decides what needs a capture (ADR 0003): when the cursor or the scrollback
    // moved, the screen changed for certain; when only the log grew, a capture and its hash tell a
    // real in-place update (a progress bar) from an identical redraw.
    const toCapture: string[] = [];
    const moved = new Set<string>();
    for (const s of live) {
      const pane = panes.get(tmuxSessionName(s.id));
      if (!pane || pane.dead) continue;
      const rt = runtimeOf(ctx, s.id);
      const size = this.logBytes(s);
      const place = `${pane.cursorX},${pane.cursorY},${pane.historySize}`;
      if (rt.screenHash === undefined) toCapture.push(pane.paneId); // the first look is a baseline
      else if (place !== rt.place) moved.add(s.id);
      else if (size !== rt.logEnd) toCapture.push(pane.paneId);
      rt.place = place;
      rt.logEnd = size;
    }
    const captures = toCapture.length ? await this.captureMany(toCapture) : new Map<string, string>();

    const now = Date.now();
    const seen = new Set(live.map((s) => s.id));
    ctx.store.tx(() => {
      // Re-read inside the transaction: a kill or an exit may have changed rows while tmux answered.
      // Only sessions of the snapshot are decided: one that started after list-panes ran has no
      // pane in this listing and is not gone.
      for (const s of ctx.store.listSessions({ statuses: [...LIVE] })) {
        if (!seen.has(s.id)) continue;
        try {
          this.decide(s, panes.get(tmuxSessionName(s.id)), captures, moved.has(s.id), now);
        } catch (err) {
          // One session's problem must not stop the others from being refreshed.
          this.error(s.id, `status refresh failed: ${(err as Error).message}`);
        }
      }
    });
    this.lastRefreshAt = Date.now();
  }

  private decide(
    s: SessionRecord,
    pane: ReturnType<typeof parsePanes>[number] | undefined,
    captures: Map<string, string>,
    moved: boolean,
    now: number,
  ): void {
    const { ctx } = this;
    if (isSessionLocked(s.id)) return; // a kill (or rm) decides this session itself
    const rt = runtimeOf(ctx, s.id);
    const mainExitCode = mainExit(ctx, s);
    let outputChanged = moved;
    const screen = pane ? captures.get(pane.paneId) : undefined;
    if (screen !== undefined) {
      const hash = String(fnv.fast1a64(screen));
      // The first screen seen (new session, or adopted after a daemon restart) is a baseline. A hash
      // kept from before a `moved` refresh can only make the next capture report one change too many.
      outputChanged = rt.screenHash !== undefined && hash !== rt.screenHash;
      rt.screenHash = hash;
    }
    const lastActivityAt = outputChanged ? now : (s.lastActivityAt ?? s.startedAt ?? now);
    const decision = decideStatus(
      s.status,
      {
        present: pane !== undefined,
        paneDead: pane?.dead ?? false,
        paneDeadStatus: pane?.deadStatus ?? null,
        mainExit: mainExitCode,
        jobRunning: (s.hasCommand && mainExitCode === null) || this.jobs.foregroundRunning(s.id),
        children: pane && !pane.dead && s.pid ? childCount(s.pid) : 0,
        outputChanged,
      },
      { now, lastActivityAt, idleThresholdMs: ctx.settings.idleThresholdMs },
    );
    // rt.logEnd was measured by this refresh for every pane it looked at.
    const patch: Partial<SessionRecord> = pane && !pane.dead && rt.logEnd !== undefined ? this.logPatch(s, rt.logEnd) : {};
    if (outputChanged) patch.lastActivityAt = now;
    if (Object.keys(patch).length) ctx.store.updateSession(s.id, patch);
    applyDecision(ctx, { ...s, ...patch }, decision, now, true);
  }

  /** Captures many panes with one tmux process: a command file, each capture behind a separator. */
  private async captureMany(paneIds: string[]): Promise<Map<string, string>> {
    const separator = `@@amux-${Math.random().toString(36).slice(2)}@@`;
    const script = captureScript(paneIds, separator);
    const out = await this.ctx.tmux.runIfServer(['source-file', '-'], { input: script, lenient: true });
    return parseCaptures(out, separator);
  }
}
