import { setTimeout as sleep } from 'node:timers/promises';
import type { SessionRecord } from '../../core/records.js';
import { isAlive, isStopped, sessionProcesses, signalAll } from '../../process/process-table.js';
import type { DaemonContext } from '../context.js';
import { runningSession } from './guards.js';
import { withSessionLock } from './lock.js';
import { applyDecision, applyMainExit } from './transitions.js';

/** Waits (briefly) until the kernel has stopped `pid`, so that it cannot act on what comes next. */
async function untilStopped(pid: number): Promise<void> {
  for (let i = 0; i < 250 && isAlive(pid) && !isStopped(pid); i++) await sleep(2);
}

/**
 * `amux pause` (src/guides/sessions.md): SIGSTOP to every process of the session (ADR 0010). The shell first, and
 * once it is stopped the rest: a shell that saw its job stop would take the terminal back as
 * after Ctrl-Z. (The shell is not the pane's process, which tmux would continue at once.) Processes
 * forked while the list was taken are caught by a second look. The capture of the pane (pipe-pane,
 * outside the session) goes on. Pausing a paused session is a no-op.
 */
export function pauseSession(ctx: DaemonContext, id: string): Promise<SessionRecord> {
  return withSessionLock(id, async () => {
    const s = runningSession(ctx, id, 'pause');
    if (s.status === 'paused') return s;
    signalAll([s.pid!], 'SIGSTOP');
    await untilStopped(s.pid!);
    // The main command finished just before (its exit notice waits for this lock): it is done, not paused.
    const done = applyMainExit(ctx, s);
    if (done !== s) {
      signalAll([s.pid!], 'SIGCONT');
      return done;
    }
    const stopped = new Set<number>();
    for (let round = 0; round < 3; round++) {
      const fresh = sessionProcesses(s.pid).filter((p) => !stopped.has(p));
      if (fresh.length === 0) break;
      signalAll(fresh, 'SIGSTOP');
      for (const p of fresh) stopped.add(p);
    }
    return applyDecision(ctx, ctx.store.getSession(id)!, { status: 'paused', reason: 'paused by amux pause' });
  });
}

/**
 * `amux resume`: SIGCONT to every process, the shell last (when it runs again its job runs
 * too, and it sees nothing to report). The idle clock starts again from the resume (paused time
 * never counts toward `--idle-timeout`); a main command that finished just before the pause is
 * seen now. Resuming a running session is a no-op.
 */
export function resumeSession(ctx: DaemonContext, id: string): Promise<SessionRecord> {
  return withSessionLock(id, async () => {
    const s = runningSession(ctx, id, 'resume');
    if (s.status !== 'paused') return s;
    signalAll(sessionProcesses(s.pid), 'SIGCONT');
    signalAll([s.pid!], 'SIGCONT');
    const now = Date.now();
    ctx.store.updateSession(id, { lastActivityAt: now });
    return applyMainExit(ctx, applyDecision(ctx, { ...s, lastActivityAt: now }, { status: 'working', reason: 'resumed by amux resume' }, now));
  });
}
