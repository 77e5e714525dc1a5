import type { Activity } from './activity.js';
import { signalFromStatus, signalName } from './signals.js';
import type { SessionStatus } from './status.js';

/** What one refresh observed about a live session (ADR 0003, detection order). */
export interface Observation {
  /** The tmux session exists. */
  present: boolean;
  paneDead: boolean;
  paneDeadStatus: number | null;
  /** The signal that killed the pane's process, when it did not exit (tmux ≥ 3.3). */
  paneDeadSignal?: number | null;
  /** Exit status of the main command, from its exit-status file; null when not finished or none. */
  mainExit: number | null;
  /** A job (the main command, later exec jobs) is running in the shell. */
  jobRunning: boolean;
  /** Number of direct child processes of the session's shell. */
  children: number;
  /** The captured pane's hash differs from the previous one. */
  outputChanged: boolean;
  /** What the terminal's foreground processes are doing, from the kernel (core/activity.ts); absent: not known. */
  activity?: Activity;
}

export interface Decision {
  status: SessionStatus;
  reason: string;
  error?: string;
  exitCode?: number | null;
  signal?: string | null;
  /** When it ended, for a terminal decision seen after the fact (an exit file's time); default now. */
  endedAt?: number;
}

/**
 * Decides the status of a non-terminal, started session. Pure; the monitor feeds it.
 *
 * An exit-status file proves the main command finished with that code, so it is read before
 * the "session gone" and "pane dead" rules: a session that vanished after its command ended
 * keeps the real exit code (ADR 0003).
 */
export function decideStatus(
  current: SessionStatus,
  obs: Observation,
  timing: { now: number; lastActivityAt: number; idleThresholdMs: number },
): Decision {
  // A paused session stays paused while it exists: its command cannot finish until resumed (an exit
  // written just before the pause is seen by the resume). paused → completed is not a transition.
  if (current === 'paused' && obs.present && !obs.paneDead) return { status: 'paused', reason: 'paused' };
  if (obs.mainExit !== null && current !== 'paused') return finished(obs.mainExit);
  if (!obs.present) return { status: 'failed', reason: 'tmux session gone', error: 'tmux session no longer exists' };
  if (obs.paneDead) {
    const d = shellEnded(obs.paneDeadStatus, obs.paneDeadSignal ?? null);
    // paused → completed is no transition; a stopped shell cannot have exited 0 by itself anyway.
    return current === 'paused' && d.status === 'completed' ? { ...d, status: 'failed', error: 'shell process exited (status 0) while paused' } : d;
  }
  // The evidence (ADR 0015): blocked reading the terminal is idle at once, whatever it printed last
  // (its prompt); otherwise output, then a busy foreground, make it working.
  const activity = obs.activity ?? { verdict: 'unknown' };
  if (activity.verdict === 'input') return { status: 'idle', reason: activity.reason };
  if (obs.outputChanged) return { status: 'working', reason: 'output changed' };
  if (activity.verdict === 'working') return { status: 'working', reason: activity.reason };
  if (!obs.jobRunning && obs.children === 0) return { status: 'idle', reason: 'at prompt' };
  // The kernel did not tell (an unknown wait channel, /proc unreadable): the screen decides.
  if (timing.now - timing.lastActivityAt >= timing.idleThresholdMs) return { status: 'idle', reason: 'screen stable' };
  return current === 'idle' ? { status: 'idle', reason: 'screen stable' } : { status: 'working', reason: 'recent output' };
}

/**
 * Between refreshes (the quick look, ADR 0015), what the kernel's evidence alone says of a working
 * session, judged afresh: input makes it idle at once; otherwise it stays working, with the reason
 * of this look: new output bytes since the last look, else the evidence, else `recent output`
 * (the screen rule holds it until the refresh finds the screen stable).
 */
export function quickDecision(activity: Activity, newBytes: boolean): { status: 'idle' | 'working'; reason: string } {
  if (activity.verdict === 'input') return { status: 'idle', reason: activity.reason };
  if (newBytes) return { status: 'working', reason: 'output changed' };
  if (activity.verdict === 'working') return { status: 'working', reason: activity.reason };
  return { status: 'working', reason: 'recent output' };
}

/** The terminal decision for a main command that exited with `code`. */
export function finished(code: number): Decision {
  if (code === 0) return { status: 'completed', reason: 'command exited', exitCode: 0, signal: null };
  const signal = signalFromStatus(code);
  const error = signal ? `killed by signal ${signal}` : `command exited with code ${code}`;
  return { status: 'failed', reason: 'command exited', error, exitCode: code, signal };
}

/**
 * The end of a session whose shell ended by itself (src/guides/statuses.md): `exit 0` is `completed`,
 * `exit N` is `failed` with N, a death by signal N is `failed` with 128+N and the signal (tmux names
 * the status, or only the signal). Neither known: `failed` without a code.
 */
export function shellEnded(status: number | null, deadSignal: number | null): Decision {
  if (status === 0) return { status: 'completed', reason: 'shell exited', exitCode: 0, signal: null };
  const sig = status === null ? (deadSignal ? signalName(deadSignal) : null) : signalFromStatus(status);
  const code = status ?? (sig ? 128 + deadSignal! : null);
  // tmux 3.3a sometimes keeps neither for good (src/guides/statuses.md): said, not guessed.
  const detail = sig ? ` (${sig})` : code === null ? '; tmux kept no exit status' : ` (status ${code})`;
  return { status: 'failed', reason: 'shell exited', error: `shell process exited${detail}`, exitCode: code, signal: sig };
}
