import { judgeForeground, waitsIndefinitely, type Activity } from '../../core/activity.js';
import type { SessionRecord } from '../../core/records.js';
import { readForeground } from '../../process/foreground.js';
import { runtimeOf, type DaemonContext } from '../context.js';
import type { Jobs } from '../job/jobs.js';
import { mainExit } from '../output/exit-files.js';
import { isSessionLocked } from '../session/lock.js';
import { applyDecision } from '../session/transitions.js';
import { logLine } from '../log.js';

/** How often working sessions are looked at between refreshes (the evidence only, from /proc). */
export const QUICK_MS = 250;
/** Linux reports CPU time in ticks of 1/100 s (USER_HZ) whatever the kernel's own HZ. */
const MS_PER_TICK = 10;
/** The share of one CPU since the last look that makes a quiet foreground `cpu`. */
const CPU_SHARE = 0.05;

const decodeSyscall = (syscall: string | null) => waitsIndefinitely(process.arch, syscall);

/**
 * The kernel's evidence of what sessions are doing (README "Statuses", ADR 0015): read from /proc
 * for the refresh, and on its own between refreshes for working sessions (the quick look). It
 * remembers, per session, the foreground command and the group's CPU ticks for the next look.
 */
export class Evidence {
  private lastQuickAt = 0;
  private quickCostMs = 0;

  constructor(private readonly ctx: DaemonContext, private readonly jobs: Jobs) {}

  /** A job of amux runs in the session's shell: its main command (until its exit file), or a foreground exec. */
  jobRunning(s: SessionRecord, mainExitCode = mainExit(this.ctx, s)): boolean {
    return (s.hasCommand && mainExitCode === null) || this.jobs.state.foregroundRunning(s.id);
  }

  /** What the session's foreground processes are doing; undefined when its shell is gone or unknown. */
  look(s: SessionRecord, jobRunning: boolean): Activity | undefined {
    if (!s.pid) return undefined;
    const rt = runtimeOf(this.ctx, s.id);
    const fg = readForeground(s.pid, decodeSyscall, jobRunning);
    if (!fg) {
      rt.foreground = null;
      return undefined;
    }
    const now = Date.now();
    // Busy means a real share of a CPU, not the few ms a redraw loop or a timer tick costs.
    const cpuUsed = rt.fgPgid === fg.pgid && rt.fgTicks !== undefined && rt.fgAt !== undefined &&
      (fg.ticks - rt.fgTicks) * MS_PER_TICK >= CPU_SHARE * Math.max(now - rt.fgAt, QUICK_MS);
    rt.fgPgid = fg.pgid;
    rt.fgTicks = fg.ticks;
    rt.fgAt = now;
    rt.foreground = fg.command;
    return judgeForeground(fg.procs, cpuUsed, jobRunning ? null : s.pid);
  }

  /**
   * Between two refreshes, working sessions whose foreground has started to read the terminal
   * become idle at once (a prompt answered within a tick, not a refresh later), and the others
   * get their live reason (cpu, sleeping, …). Reads /proc only;
   * skipped while it costs more than a tenth of its interval (many working sessions).
   */
  quickLook(): void {
    const { ctx } = this;
    if (Date.now() - this.lastQuickAt < Math.max(QUICK_MS, this.quickCostMs * 10)) return;
    const t0 = performance.now();
    this.lastQuickAt = Date.now();
    try {
      ctx.store.tx(() => {
        for (const s of ctx.store.listSessions({ statuses: ['working'] })) {
          // Also one no refresh has seen yet: a program may read the terminal within its first second.
          if (isSessionLocked(s.id)) continue;
          const activity = this.look(s, this.jobRunning(s));
          if (!activity || activity.verdict === 'unknown') continue;
          const rt = runtimeOf(ctx, s.id);
          rt.reason = activity.reason;
          rt.reasonStatus = activity.verdict === 'input' ? 'idle' : 'working';
          if (activity.verdict === 'input') applyDecision(ctx, s, { status: 'idle', reason: activity.reason }, this.lastQuickAt, true);
        }
      });
      this.quickCostMs = performance.now() - t0;
    } catch (err) {
      this.quickCostMs = 1000; // e.g. a busy database: back off for 10 s
      logLine(`quick look: ${(err as Error).message}`);
    }
  }
}
