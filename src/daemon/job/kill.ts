import type { KillReason } from '../../core/job-end.js';
import type { JobRecord } from '../../core/records.js';
import { signalNumber } from '../../core/signals.js';
import { childrenOf, processGroup, signalGroup, terminalForeground } from '../../process/process-table.js';
import { terminate } from '../../process/terminate.js';
import type { DaemonContext } from '../context.js';
import type { JobState } from './state.js';
import type { JobWatch } from './watch.js';

/** After SIGKILL, how long the shell gets to write the job's exit status. */
const SETTLE_MS = 1000;

/**
 * Kills one job, not its session (src/guides/sessions.md: kill): a background job's process group, or
 * the process group that owns the terminal while a foreground job runs (the shell survives), by
 * the terminate routine: `signal`, the grace, SIGKILL. The end is `killed` (decideJobEnd).
 */
export async function killJob(
  ctx: DaemonContext, state: JobState, watch: JobWatch, j: JobRecord, signal: NodeJS.Signals, graceMs: number, reason: KillReason = 'kill',
): Promise<JobRecord> {
  if (j.status !== 'running') return j;
  const shell = ctx.store.getSession(j.sessionId)?.pid;
  if (!shell) return j;
  if (!state.beginKill(j.id, reason, signal)) return state.waitEnded(j.id); // a kill is under way: its end is ours
  const running = () => ctx.store.getJob(j.id)?.status === 'running';
  const seen = new Set<number>();
  const hit = (sig: NodeJS.Signals) => {
    state.delivered(j.id, sig);
    return j.background ? j.pid && signalGroup(j.pid, sig) : hitForeground(ctx, shell, sig, seen, running);
  };
  const { endedBy } = await terminate({
    signal: hit,
    ended: () => !running() || (j.background && j.pid !== null && !signalGroup(j.pid, 0)),
    poll: (phase) => {
      if (watch.checkExit(j) || phase === 'settle' || j.background) return;
      // A process group that started meanwhile (the job went on to its next command) gets it too.
      const fg = terminalForeground(shell);
      if (fg !== null && fg !== shell && !seen.has(fg)) hit(signal);
    },
    mustKill: running,
    settled: () => !running(),
  }, { signal, graceMs, settleMs: SETTLE_MS });
  if (running()) {
    // Nothing wrote an exit status (the background subshell itself was killed): amux records one,
    // for the signal that ended it.
    return state.finish(ctx.store.getJob(j.id)!, { kind: 'exited', code: 128 + signalNumber(endedBy) });
  }
  return ctx.store.getJob(j.id)!;
}

/**
 * A foreground job: SIGINT to the shell first, so that when the job's process dies bash abandons
 * the rest of its command list (as after Ctrl-C) instead of going on with its next command; a job
 * that is a builtin (a loop, `read`) runs in the shell itself, and the SIGINT interrupts it. Then
 * the signal to the terminal's foreground group and to the shell's other child groups.
 */
function hitForeground(ctx: DaemonContext, shell: number, sig: NodeJS.Signals, seen: Set<number>, running: () => boolean): boolean {
  const fg = terminalForeground(shell);
  if (fg === null || !running()) return false;
  try {
    process.kill(shell, 'SIGINT');
  } catch {
    return false;
  }
  // Other process groups among the shell's children: what the job started with `&` (holding its
  // output open), or the job itself when it is stopped (Ctrl-Z), woken to receive the signal.
  for (const g of childGroups(ctx, shell)) {
    signalGroup(g, sig);
    signalGroup(g, 'SIGCONT');
    seen.add(g);
  }
  if (fg === shell) return true;
  seen.add(fg);
  return signalGroup(fg, sig);
}

/**
 * Process groups of the shell's children, except the shell's own (the capture pipelines) and
 * those of amux's background jobs (they are jobs of their own).
 */
function childGroups(ctx: DaemonContext, shell: number): number[] {
  const mine = new Set(ctx.store.runningJobs().filter((x) => x.background && x.pid).map((x) => x.pid!));
  const groups = new Set<number>();
  for (const c of childrenOf(shell)) {
    const g = processGroup(c);
    if (g !== null && g !== shell && !mine.has(g)) groups.add(g);
  }
  return [...groups];
}
