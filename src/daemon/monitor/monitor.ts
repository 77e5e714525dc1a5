import fnv from 'fnv-plus';
import type { SessionRecord } from '../../core/records.js';
import { isLive, isTerminal, LIVE_STATUSES } from '../../core/status.js';
import { decideStatus } from '../../core/status-rules.js';
import { childCount } from '../../process/process-table.js';
import { captureScript, parseCaptures, sourceStdinArgs, tmuxSessionName, type PaneInfo } from '../../tmux/commands.js';
import { quietFor, runtimeOf, type DaemonContext } from '../context.js';
import type { Jobs } from '../job/jobs.js';
import { exitTime, mainExit, readShellExit } from '../output/exit-files.js';
import { logBytes, logPatch } from '../output/log-size.js';
import { markLog } from '../output/log-times.js';
import { reportError } from '../session/errors.js';
import { isSessionLocked } from '../session/lock.js';
import { applyDecision } from '../session/transitions.js';
import { sessionsIn } from '../../store/snapshot.js';
import { settles } from '../../core/look-pace.js';
import { lookForAttention } from './attention-look.js';
import { Evidence, QUICK_MS } from './evidence.js';
import { restsNow, settledSince } from './pass-by.js';
import { ExitWatch } from './exit-watch.js';
import { PaneListing } from './pane-listing.js';

/** How old a status may be when a reader finds a refresh under way (see ensureFresh). */
const STALE_OK_MS = 10_000;
/** The longest a reader waits for a refresh it asked for. */
const READER_WAIT_MS = 1000;

/**
 * Owns status (src/guides/internals.md, ADR 0003): a batched refresh of all live sessions with O(1)
 * process spawns (list-panes, and one chained capture of the panes that changed in place),
 * single-flight, cached for `statusCacheMs`, kept fresh by a timer so that readers never wait (but
 * the first after a rest, ADR 0071); and the exit watch, so that exits are seen at once.
 */
/** How long a dead pane may lack its exit status before it is recorded without one. */
const DEAD_STATUS_WAIT_MS = 2_000;

export class Monitor {
  private inflight: Promise<void> | null = null;
  /** The refresh under way passed sessions that rest by (ADR 0071): a reader waits for the next. */
  private inflightRested = false;
  private lastRefreshAt = 0;
  /** When the last refresh that visited every live session finished (none rested, ADR 0071). */
  private lastFullAt = 0;
  /** Whether the last refresh of every live session visited them all (nobody rested). */
  private lastWasFull = true;
  private readonly listing: PaneListing;

  /**
   * When the last refresh finished: what the store says about output is true as of then, for every
   * session an idle timeout times (such a session never rests, ADR 0071).
   */
  get refreshedAt(): number {
    return this.lastRefreshAt;
  }
  private timer: NodeJS.Timeout | null = null;
  private readonly exits: ExitWatch;
  private readonly evidence: Evidence;

  constructor(private readonly ctx: DaemonContext, private readonly jobs: Jobs) {
    this.exits = new ExitWatch(ctx, jobs.watch, (id) => void this.refreshSession(id).catch(() => undefined));
    this.evidence = new Evidence(ctx, jobs);
    this.listing = new PaneListing(ctx);
  }

  start(): void {
    this.exits.start();
    // Refresh a little before the cache expires, so that readers (`amux ps`) never wait for one.
    const early = Math.min(500, this.ctx.settings.statusCacheMs / 2);
    this.timer = setInterval(() => {
      // The quick look runs at every tick, also while a refresh waits on tmux (its decisions re-read
      // the rows): the idle latency stays a tick however slow a refresh is.
      this.evidence.quickLook();
      if (Date.now() - this.lastRefreshAt >= this.ctx.settings.statusCacheMs - early) this.refresh().catch(() => undefined);
    }, QUICK_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.exits.stop();
  }

  /** Resolves when no refresh is under way (graceful shutdown). */
  async idle(): Promise<void> {
    await this.inflight?.catch(() => undefined);
  }

  /**
   * Refreshes unless the cache is younger than the status cache time. While a refresh is already
   * under way (a tmux server slow to answer under load), readers get the last one, if it is younger
   * than STALE_OK_MS, instead of queueing behind it: ends are applied at once by the exit watch
   * anyway, and `ps` must answer when tmux is slow. The cache is of a refresh that visited every
   * session: the first call after nobody called waits for one (ADR 0071), since sessions rested.
   */
  async ensureFresh(): Promise<void> {
    const age = Date.now() - this.lastFullAt;
    if (age < this.ctx.settings.statusCacheMs) return;
    if (this.inflight && !this.inflightRested && age < STALE_OK_MS) return;
    // Never longer than READER_WAIT_MS: with tmux drowning (the soak), `ps` answers from the store.
    // A refresh that fails (a full disk) is reported by the monitor; the reader answers from the store.
    // One under way that passed resting sessions by is followed by one that visits them (this call is open).
    const pending = this.inflight && this.inflightRested ? this.inflight.catch(() => undefined).then(() => this.refresh()) : this.refresh();
    const refreshed = pending.catch(() => undefined);
    await Promise.race([refreshed, new Promise((r) => setTimeout(r, READER_WAIT_MS).unref())]);
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

  /**
   * A refresh of one session, for an end seen by the exit watch (its shell exited): the other
   * sessions' looks are not redone for it (at 200 live sessions that was most of the daemon's CPU
   * per `run --rm`). One under way may have listed the panes before the exit: this one follows it.
   */
  refreshSession(id: string): Promise<void> {
    return this.inflight ? this.inflight.catch(() => undefined).then(() => this.doRefresh(id)) : this.doRefresh(id);
  }

  private async doRefresh(only?: string): Promise<void> {
    const { ctx } = this;
    if (only === undefined) this.jobs.watch.sweep();
    // `only`: the one session whose shell exited (refreshSession), read by itself (under churn the
    // rows change all the time, and listing every live row for one was a tenth of the daemon's CPU);
    // else every live one.
    const pick = (): readonly SessionRecord[] => {
      if (only === undefined) return sessionsIn(ctx.store, LIVE_STATUSES);
      const row = ctx.store.getSession(only);
      return row && isLive(row.status) ? [row] : [];
    };
    // While nobody calls, a session that rests is visited every REST_PACE_MS only (ADR 0071).
    const listed = pick();
    const visitAt = Date.now();
    // Full: nobody rests (somebody called lately), so every look is at its waking pace.
    const full = only !== undefined || quietFor(ctx, visitAt) < ctx.settings.restAfterMs;
    const live = full ? listed : listed.filter((s) => !restsNow(ctx, s, visitAt));
    // The first refresh after a rest: what stood at the resting pace may stand for this one too.
    const waking = only === undefined && full && !this.lastWasFull;
    if (only === undefined) {
      this.inflightRested = !full;
      this.lastWasFull = full;
    }
    if (only === undefined) for (const s of live) runtimeOf(ctx, s.id).visitedAt = visitAt;
    if (live.length === 0) {
      if (only === undefined) this.refreshed(full);
      return;
    }
    const sizes = new Map(live.map((s) => [s.id, logBytes(ctx, s)]));
    // Read (the run marks) only when asked: the listing asks once nothing cheaper says it must list.
    const quietAt = Date.now();
    const quietness = new Map<string, boolean>();
    const quiet = (s: SessionRecord): boolean => {
      let q = quietness.get(s.id);
      if (q === undefined) quietness.set(s.id, (q = only === undefined && settledSince(ctx, s, quietAt, waking)));
      return q;
    };
    const { panes, stood } = await this.listing.panesOf(live, sizes, only !== undefined, quiet);

    // The fingerprint decides what needs a capture (ADR 0003): when the cursor or the scrollback
    // moved, the screen changed for certain; when only the log grew, a capture and its hash tell a
    // real in-place update (a progress bar) from an identical redraw.
    const toCapture: string[] = [];
    const moved = new Set<string>();
    for (const s of live) {
      const pane = panes.get(tmuxSessionName(s.id));
      if (!pane || pane.dead) continue;
      const rt = runtimeOf(ctx, s.id);
      const size = sizes.get(s.id)!;
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
    // Re-read after tmux answered, in the transaction's synchronous turn: a kill or an exit may have
    // changed rows meanwhile (from memory when no row changed, ADR 0041). Only sessions of the
    // snapshot are decided: one that started after list-panes ran has no pane in this listing and
    // is not gone.
    const current = pick();
    ctx.store.tx(() => {
      for (const s of current) {
        if (!seen.has(s.id) || (stood && quiet(s) && runtimeOf(ctx, s.id).settled?.row === s)) continue;
        try {
          this.decide(s, panes.get(tmuxSessionName(s.id)), captures, moved.has(s.id), now, waking);
        } catch (err) {
          // One session's problem must not stop the others from being refreshed.
          reportError(ctx, s.id, `status refresh failed: ${(err as Error).message}`);
        }
      }
    });
    if (only === undefined) this.refreshed(full);
  }

  private refreshed(full: boolean): void {
    this.lastRefreshAt = Date.now();
    if (full) this.lastFullAt = this.lastRefreshAt;
  }

  private decide(
    s: SessionRecord,
    pane: PaneInfo | undefined,
    captures: Map<string, string>,
    moved: boolean,
    now: number,
    waking: boolean,
  ): void {
    const { ctx } = this;
    if (isSessionLocked(s.id)) return; // a kill (or rm) decides this session itself
    const rt = runtimeOf(ctx, s.id);
    const row = s; // the row as read: `s` is replaced by the attention scan below
    rt.settled = undefined;
    const mainExitCode = mainExit(ctx, s);
    // A dead pane whose exit status tmux did not keep (seen in 2 of 4 runs of `exit 7` in a shell:
    // tmux 3.3a then shows the pane dead with an empty pane_dead_status for good): the shell's EXIT
    // trap wrote it. A shell of an older amux wrote nothing: tmux gets a moment more.
    if (pane?.dead && pane.deadStatus === null && pane.deadSignal === null && mainExitCode === null) {
      const code = readShellExit(ctx, s.id);
      if (code !== null) pane = { ...pane, deadStatus: code };
      else {
        rt.deadSeenAt ??= now;
        if (now - rt.deadSeenAt < DEAD_STATUS_WAIT_MS) {
          setTimeout(() => void this.refresh().catch(() => undefined), 50).unref();
          return;
        }
      }
    }
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
    // `output changed` needs new bytes since the last look (a quick look may have seen them already).
    const newBytes = rt.logEnd === undefined || rt.seenLog === undefined || rt.logEnd !== rt.seenLog;
    if (rt.logEnd !== undefined) rt.seenLog = rt.logEnd;
    const jobRunning = this.evidence.jobRunning(s, mainExitCode);
    const activity = pane && !pane.dead ? this.evidence.look(s, jobRunning, waking) : undefined;
    const decision = decideStatus(
      s.status,
      {
        activity,
        present: pane !== undefined,
        paneDead: pane?.dead ?? false,
        paneDeadStatus: pane?.deadStatus ?? null,
        paneDeadSignal: pane?.deadSignal ?? null,
        mainExit: mainExitCode,
        jobRunning,
        // Read only where decideStatus asks (no job, and the kernel did not tell): ADR 0041.
        children: pane && !pane.dead && s.pid && !jobRunning && (activity?.verdict ?? 'unknown') === 'unknown' ? childCount(s.pid) : 0,
        outputChanged: outputChanged && newBytes,
      },
      { now, lastActivityAt, idleThresholdMs: ctx.settings.idleThresholdMs },
    );
    // An end proven by the exit file happened when the shell wrote it (maybe while no daemon ran).
    if (mainExitCode !== null && decision.exitCode === mainExitCode) decision.endedAt = exitTime(ctx, s.id, 1, now);
    // rt.logEnd was measured by this refresh for every pane it looked at.
    const patch: Partial<SessionRecord> = pane && !pane.dead && rt.logEnd !== undefined ? logPatch(ctx, s, rt.logEnd) : {};
    if (patch.logBytes !== undefined) markLog(ctx, s.id, patch.logBytes, now); // when output came, for logs -t (idle sessions too)
    if (outputChanged) patch.lastActivityAt = now;
    const patched = Object.keys(patch).length > 0;
    if (patched) ctx.store.updateSession(s.id, patch);
    if (pane && !pane.dead && rt.logEnd !== undefined) s = lookForAttention(ctx, s, rt.logEnd, now); // ADR 0034
    if (!isTerminal(decision.status)) {
      rt.reason = decision.reason;
      rt.reasonStatus = decision.status;
    }
    applyDecision(ctx, patched ? { ...s, ...patch } : s, decision, now, true);
    const fg = rt.look?.fg;
    if (pane && !pane.dead && fg && settles(activity)) rt.settled = { row, fg };
  }

  /** Captures many panes with one tmux process: a command file, each capture behind a separator. */
  private async captureMany(paneIds: string[]): Promise<Map<string, string>> {
    const separator = `@@amux-${Math.random().toString(36).slice(2)}@@`;
    const script = captureScript(paneIds, separator);
    const out = await this.ctx.tmux.runIfServer(sourceStdinArgs(), { input: script, lenient: true });
    return parseCaptures(out, separator);
  }
}
