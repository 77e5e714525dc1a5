import { formatDuration } from './duration.js';
import { signalFromStatus, signalNumber } from './signals.js';
import type { JobStatus, SessionStatus } from './status.js';

/** How a job's end was seen (src/guides/sessions.md: exec, kill; ADR 0009). */
export type JobEndCause =
  /** Its exit status, written by the shell (or recorded by amux for a subshell it killed). */
  | { kind: 'exited'; code: number }
  /** Typing it into the shell, or its start, failed. */
  | { kind: 'not_started'; error: string }
  /** A daemon died between typing it and the shell's start notice. */
  | { kind: 'start_lost' }
  /** A background job's process group is gone and no exit status came. */
  | { kind: 'vanished' }
  /** Its session ended under it; `terminated`: amux ended a background job with it. */
  | { kind: 'session_ended'; session: SessionStatus; terminated: boolean };

/** What amux was doing to the job when it ended: `amux kill`, or its `--timeout`. */
export type KillReason = 'kill' | 'timeout';

export interface JobEnd {
  status: JobStatus;
  exitCode: number | null;
  signal: string | null;
  error: string | null;
}

/** A kill under way: why, and the last signal amux delivered (TERM, then KILL after the grace). */
export interface Killing {
  reason: KillReason;
  timeoutMs: number | null;
  signal: string;
}

/**
 * Decides a job's end. A job amux was killing ends `killed`, whatever ended it, with the signal amux
 * delivered (ADR 0016: not the one the shell saw, e.g. the SIGINT that makes it abandon the job's
 * command list) and exit code 128+N; one killed by its timeout exits 124 (as GNU timeout). What the
 * command itself exited with, when it did, is named in `error`.
 */
export function decideJobEnd(cause: JobEndCause, killing: Killing | null = null): JobEnd {
  const code = cause.kind === 'exited' ? cause.code : null;
  const signal = code === null ? null : signalFromStatus(code);
  if (killing) {
    const own = code === null || code === 128 + signalNumber(killing.signal) ? '' : ` (the command exited with ${code})`;
    const why = killing.reason === 'timeout' ? `timed out after ${formatDuration(killing.timeoutMs ?? 0)}` : 'killed by amux kill';
    return { status: 'killed', exitCode: killing.reason === 'timeout' ? 124 : 128 + signalNumber(killing.signal), signal: killing.signal, error: why + own };
  }
  switch (cause.kind) {
    case 'exited':
      return { status: code === 0 ? 'completed' : 'failed', exitCode: code, signal, error: code === 0 ? null : `exited with code ${code}` };
    case 'not_started':
      return { status: 'failed', exitCode: null, signal: null, error: cause.error };
    case 'start_lost':
      return { status: 'failed', exitCode: null, signal: null, error: 'the daemon stopped before the shell started the job' };
    case 'vanished':
      return { status: 'failed', exitCode: null, signal: null, error: 'its process exited without reporting a status (killed from outside amux?)' };
    case 'session_ended': {
      if (cause.terminated) return { status: 'killed', exitCode: null, signal: null, error: `the session ended (${cause.session}); amux ended the job with it` };
      const killed = cause.session === 'stopped' || cause.session === 'expired';
      return { status: killed ? 'killed' : 'failed', exitCode: null, signal: null, error: `the session ended (${cause.session}) while the job ran` };
    }
  }
}

/**
 * The main command is job 1 of a command session: it stands for the session (`wait`, `kill` of
 * its id act on the session) and its row follows the session's end.
 */
export function isMainJob(session: { hasCommand: boolean }, seq: number): boolean {
  return seq === 1 && session.hasCommand;
}

/** Job 1's end from its session's: completed and failed carry over; stopped and expired are `killed`. */
export function mainJobStatus(session: SessionStatus): JobStatus {
  return session === 'completed' ? 'completed' : session === 'failed' ? 'failed' : 'killed';
}
