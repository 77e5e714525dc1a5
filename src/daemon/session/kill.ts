import type { SessionRecord } from '../../core/records.js';
import { signalNumber } from '../../core/signals.js';
import { isTerminal } from '../../core/status.js';
import { AmuxError } from '../../errors.js';
import { descendantsOf, isAlive, sessionProcesses, signalAll } from '../../process/process-table.js';
import { terminate } from '../../process/terminate.js';
import { killSessionArgs } from '../../tmux/commands.js';
import { TmuxCommandError } from '../../tmux/tmux.js';
import type { DaemonContext } from '../context.js';
import { mainExit } from '../output/exit-files.js';
import { withSessionLock } from './lock.js';
import { applyDecision } from './transitions.js';

/** How long the shell has to write its command's exit once the command's processes are gone, before it is signalled too. */
const SHELL_AFTER_MS = 250;

/** How a kill ends a session: `amux kill` stops it; a timeout expires it (ADR 0010). */
export interface KillOutcome {
  status: 'stopped' | 'expired';
  /** The state_changed reason; `killed with SIGNAL` when absent. */
  reason?: string;
  error?: string;
  /** Refuse (invalid_state) unless the session is still pending when the lock is held (`rm` without -f). */
  onlyIfPending?: boolean;
}

/**
 * `amux kill` of a session (src/guides/sessions.md): `signal` to every process of the session, SIGKILL
 * to survivors after `graceMs` (the terminate routine), then the tmux session is closed and the
 * status is `stopped` (or `expired`, for a timeout). A finished session is a no-op; a pending
 * one ends without having run.
 */
export function killSession(
  ctx: DaemonContext, id: string, signal: NodeJS.Signals, graceMs: number, outcome: KillOutcome = { status: 'stopped' },
): Promise<SessionRecord> {
  return withSessionLock(id, async () => {
    const s = ctx.store.getSession(id);
    if (!s) throw new AmuxError('session_not_found', `no such session: ${id}`);
    if (isTerminal(s.status)) return outcome.status === 'stopped' && !outcome.reason ? cancelRestart(ctx, s) : s;
    if (outcome.onlyIfPending && s.status !== 'pending') {
      throw new AmuxError('invalid_state', `session ${id} started meanwhile (${s.status}); stop it first ('amux kill ${id}') or use 'amux rm -f ${id}'`);
    }
    if (s.status === 'pending') {
      return applyDecision(ctx, s, { status: outcome.status, reason: outcome.reason ?? 'killed while pending', error: outcome.error ?? 'stopped before it started' });
    }
    // Every process of the session, and the shell: a command that is a loop of the shell itself
    // ends with it (the rcfile's TERM trap). The command's processes first: a shell signalled with
    // them dies before it writes the command's own exit (a server that answers TERM with exit 0),
    // which ADR 0016 names in the reason; the shell once they are gone and it wrote nothing, or at
    // once when the command has no process of its own. Survivors of the grace get SIGKILL, except
    // the shell, which closing the tmux session hangs up.
    const shell = s.pid;
    const pids = sessionProcesses(shell);
    let survivors: number[] = [];
    let shellSignal: NodeJS.Signals | null = null;
    let goneSince: number | null = null;
    // With what it started meanwhile (a shell loop's next step), whose end runs its TERM trap.
    const signalShell = (sig: NodeJS.Signals) => {
      if (!shell) return;
      const now = [...sessionProcesses(shell), shell];
      signalAll(now, sig);
      if (s.status === 'paused') signalAll(now, 'SIGCONT');
    };
    const { endedBy } = await terminate({
      signal: (sig) => {
        if (sig === 'SIGKILL') return signalAll(survivors, 'SIGKILL');
        signalAll(pids, sig);
        // Stopped processes act on the signal only once continued; the shell last (see pauseSession).
        if (s.status === 'paused') signalAll(pids, 'SIGCONT');
        if (pids.length === 0) signalShell(sig);
        else shellSignal = sig;
      },
      poll: () => {
        if (shellSignal === null) return;
        if (mainExit(ctx, s) !== null) return void (shellSignal = null);
        if (pids.some(isAlive)) return;
        goneSince ??= Date.now();
        if (Date.now() - goneSince < SHELL_AFTER_MS) return;
        signalShell(shellSignal);
        shellSignal = null;
      },
      // Ended: nothing of it runs (what it forked meanwhile included), and its shell is gone or no
      // longer runs the main command (a shell at its prompt ignores INT: it need not die).
      ended: () => ![...pids, ...(shell ? descendantsOf(shell) : [])].some(isAlive) && (!shell || !isAlive(shell) || !s.hasCommand || mainExit(ctx, s) !== null),
      afterGrace: async () => {
        survivors = [...new Set([...pids, ...sessionProcesses(s.pid)])].filter(isAlive);
        await closeTmuxSession(ctx, id);
      },
      mustKill: () => survivors.length > 0,
    }, { signal, graceMs });
    const current = ctx.store.getSession(id)!;
    if (isTerminal(current.status)) return current;
    // One story (ADR 0016): ended by amux's signal N, it exits 128+N in the record as in `wait`;
    // what the command itself answered, when it did, is named in the reason.
    const own = mainExit(ctx, s);
    const code = 128 + signalNumber(endedBy);
    const said = own === null || own === code ? '' : ` (the command exited with ${own})`;
    return applyDecision(ctx, current, {
      status: outcome.status, reason: (outcome.reason ?? `killed with ${endedBy}`) + said, exitCode: code, signal: endedBy,
      ...(outcome.error ? { error: outcome.error } : {}),
    });
  });
}

/** Closes a session's tmux session; one already gone is fine. */
export async function closeTmuxSession(ctx: DaemonContext, id: string): Promise<void> {
  try {
    await ctx.tmux.run(killSessionArgs(id));
  } catch (err) {
    if (!(err instanceof TmuxCommandError && err.notFound)) throw err;
  }
}

/**
 * `kill` ends a restart chain whatever state its member is in (src/guides/sessions.md "Restart, labels, groups"):
 * between a member's end and its next session (the policy's restart is due after its output
 * settles) the name still leads to the ended member, and killing it cancels that restart, with a
 * `restart_cancelled` event. Nothing else changes: its end stays as it was.
 */
function cancelRestart(ctx: DaemonContext, s: SessionRecord): SessionRecord {
  const rt = ctx.runtime.get(s.id);
  if (!rt?.restartDue) return s;
  rt.restartDue.abort();
  delete rt.restartDue;
  ctx.store.addEvent({ sessionId: s.id, jobId: null, type: 'restart_cancelled', data: { by: 'kill' }, createdAt: Date.now() });
  ctx.bus.emit('change', s.id);
  return s;
}
