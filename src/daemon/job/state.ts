import { decideJobEnd, type JobEndCause, type KillReason } from '../../core/job-end.js';
import type { JobRecord } from '../../core/records.js';
import type { DaemonContext } from '../context.js';
import { readStartNotice } from '../output/exit-files.js';
import { pruneJobPlumbing } from './plumbing.js';
import { streamDirOf, streamTotals } from './streams.js';

/**
 * The one owner of what the daemon knows about jobs beyond their rows (ADR 0009), and of
 * finishing a job: which foreground job each shell runs, which jobs amux is killing, and the
 * launches waiting for the shell's start notice. (Job 1 of a command session ends with its
 * session, in the same transaction: main-job.ts.)
 */
export class JobState {
  /** Sessions whose shell runs a foreground job of amux's (then a quiet shell is not at its prompt). */
  private readonly foreground = new Map<string, string>();
  /** Jobs amux is killing, and why: their end is `killed` whatever ends them. */
  private readonly killing = new Map<string, { reason: KillReason; signal: string }>();
  /** Wakes the launch waiting for a job's start notice (the exit watch saw the file). */
  private readonly starting = new Map<string, () => void>();

  constructor(private readonly ctx: DaemonContext) {}

  foregroundRunning(sessionId: string): boolean {
    return this.foreground.has(sessionId);
  }

  /** The shell of `sessionId` runs foreground job `jobId` (launched now, or adopted after a restart). */
  setForeground(sessionId: string, jobId: string): void {
    this.foreground.set(sessionId, jobId);
  }

  /** Marks a kill under way; false when one already is (a second kill or timeout waits for nothing). */
  beginKill(jobId: string, reason: KillReason, signal: string): boolean {
    if (this.killing.has(jobId)) return false;
    this.killing.set(jobId, { reason, signal });
    return true;
  }

  /** The kill under way delivered `signal` (SIGKILL after the grace): the job's end names it. */
  delivered(jobId: string, signal: string): void {
    const k = this.killing.get(jobId);
    if (k) k.signal = signal;
  }

  isKilling(jobId: string): boolean {
    return this.killing.has(jobId);
  }

  /** Waits (woken by `started`, or after `ms`) for a job's start notice. */
  awaitStartNotice(jobId: string, ms: number): Promise<void> {
    return new Promise<void>((wake) => {
      this.starting.set(jobId, wake);
      setTimeout(wake, ms);
    }).finally(() => this.starting.delete(jobId));
  }

  /** The exit watch saw a job's start notice. */
  started(jobId: string): void {
    this.starting.get(jobId)?.();
  }

  /**
   * Writes a job's end (decideJobEnd): status, exit code, stream totals, `job_finished`, in one
   * transaction; then tells waiters. `at`: when it ended (an exit file's time). A job no longer
   * running is left as it is.
   */
  finish(j: JobRecord, cause: JobEndCause, at = Date.now()): JobRecord {
    const { ctx } = this;
    const cur = ctx.store.getJob(j.id);
    if (!cur || cur.status !== 'running') return cur ?? j;
    const k = this.killing.get(j.id);
    const end = decideJobEnd(cause, k ? { ...k, timeoutMs: cur.timeoutMs } : null);
    // A note written while it ran (its stdin was cut, stdin.ts) stays, after the end's own error.
    const error = [end.error, cur.error].filter(Boolean).join('; ') || null;
    const patch: Partial<JobRecord> = { ...end, error, endedAt: Math.max(at, cur.startedAt) };
    // Its start notice goes with its plumbing below: a background job's pid is kept from it first.
    if (cur.background && !cur.pid) patch.pid = Number(readStartNotice(ctx, j.sessionId, j.seq)) || null;
    if (!cur.tty) {
      const dir = streamDirOf(ctx, j.sessionId, j.seq);
      const out = streamTotals(dir, 'stdout');
      const err = streamTotals(dir, 'stderr');
      Object.assign(patch, { stdoutBytes: out.bytes, stderrBytes: err.bytes, stdoutTruncated: out.truncated, stderrTruncated: err.truncated });
    }
    ctx.store.tx(() => {
      ctx.store.updateJob(j.id, patch);
      ctx.store.addEvent({
        sessionId: j.sessionId, jobId: j.id, type: 'job_finished',
        data: { status: end.status, exitCode: end.exitCode, ...(end.signal ? { signal: end.signal } : {}), ...(end.error ? { error: end.error } : {}) },
        createdAt: at,
      });
    });
    this.killing.delete(j.id);
    if (this.foreground.get(j.sessionId) === j.id) this.foreground.delete(j.sessionId);
    pruneJobPlumbing(ctx, j);
    ctx.bus.emit('job', j.id);
    ctx.bus.emit('change', j.sessionId);
    return { ...cur, ...patch };
  }

  /** Resolves when the job is no longer running. */
  waitEnded(id: string): Promise<JobRecord> {
    return new Promise((resolve) => {
      const check = () => {
        const j = this.ctx.store.getJob(id);
        if (j && j.status === 'running') return;
        this.ctx.bus.off('job', onJob);
        resolve(j!);
      };
      const onJob = (jid: string) => {
        if (jid === id) check();
      };
      this.ctx.bus.on('job', onJob);
      check();
    });
  }
}
