import { activeDeclaration, overDeclared, type AttentionFields, type DeclaredState } from './attention.js';
import type { ProgramReport, ProgressState, PromptPhase } from './osc-announce.js';
import type { Decision } from './status-rules.js';
import type { SessionStatus } from './status.js';

/**
 * What programs announce in their output, weighed against the kernel's evidence (src/guides/statuses.md: announced states; ADR 0049). Pure: the daemon keeps the announcements (the progress
 * bar and the last OSC 133 mark, in memory; OSC 7501 reports become declarations in the row) and
 * passes every decision through `overAnnounced`.
 */

/** A progress bar a program set (OSC 9;4), kept while the process group that had the terminal then has it. */
export interface ProgressNow {
  state: ProgressState;
  percent: number | null;
  /** The terminal's foreground process group when it was set. */
  pgid: number;
  at: number;
}

/** The last OSC 133 mark, kept while a program (not the session's own shell) has the terminal. */
export interface MarkNow {
  phase: PromptPhase;
  exitCode: number | null;
  at: number;
}

/** A session's announcements in the daemon's memory (a daemon restart forgets them until the program repeats them). */
export interface Announcements {
  progress: ProgressNow | null;
  mark: MarkNow | null;
  /** The log offset of the last input sent: an OSC 7501 report written before it is stale (the person answered since). */
  inputOffset: number;
}

export const NO_ANNOUNCEMENTS: Announcements = { progress: null, mark: null, inputOffset: 0 };

/** The reasons of the screen rule (ADR 0015 rule 11), given where the kernel's evidence could not judge. */
const SCREEN_REASONS = new Set(['screen stable', 'recent output']);

/** `progress 42%`, or `progress` (indeterminate), with its state when not normal: `progress 42% (paused)`. */
export function progressReason(p: Pick<ProgressNow, 'state' | 'percent'>): string {
  const pct = p.percent === null ? '' : ` ${p.percent}%`;
  return `progress${pct}${p.state === 'normal' || p.state === 'indeterminate' ? '' : ` (${p.state})`}`;
}

/** The reason of a decision taken on an OSC 133 mark: `command running (OSC 133)`, `at prompt (OSC 133)`. */
export function markReason(m: Pick<MarkNow, 'phase'>): string {
  return m.phase === 'running' ? 'command running (OSC 133)' : 'at prompt (OSC 133)';
}

/**
 * The precedence of ADR 0049, for a decision of the evidence (working or idle; ends and pauses
 * pass unchanged):
 * 1. a declared state in force (`amux state`, OSC 7501) wins (ADR 0034);
 * 2. a progress bar set (OSC 9;4) makes `idle` `working`, except at the session's own prompt
 *    (`at prompt`: the program that set it is gone);
 * 3. an OSC 133 mark decides only where the kernel could not (the screen rule's `screen stable`
 *    and `recent output`): after C `working`, after A, B or D `idle`. Every verdict the kernel
 *    gave stands over a mark.
 */
export function overAnnounced(current: SessionStatus, f: AttentionFields, a: Announcements | undefined, d: Decision, now: number): Decision {
  if (current === 'paused' || (d.status !== 'working' && d.status !== 'idle')) return d;
  if (activeDeclaration(f, now) !== null) return overDeclared(current, f, d, now);
  if (a?.progress && d.status === 'idle' && d.reason !== 'at prompt') return { status: 'working', reason: progressReason(a.progress) };
  if (a?.mark && SCREEN_REASONS.has(d.reason)) return { status: a.mark.phase === 'running' ? 'working' : 'idle', reason: markReason(a.mark) };
  return d;
}

/** The declared state an OSC 7501 report stands for: `working`; `idle`, `done`, `error` are `ready`; `blocked` is `waiting`; `clear` ends it (null). */
export function reportedState(r: Pick<ProgramReport, 'state'>): DeclaredState | null {
  if (r.state === 'clear') return null;
  if (r.state === 'working') return 'working';
  return r.state === 'blocked' ? 'waiting' : 'ready';
}

/**
 * The OSC 7501 report a look acts on (ADR 0060): the newest of its piece written after the last
 * input (`start` is the piece's log offset, `end` each report's end in it). The reports before it
 * in the same piece are history the program has moved on from: acting on each would write states
 * that held for milliseconds, up to a refresh late (a short turn's `working` then `done` read as
 * working, ready; a `blocked` answered at the terminal). Null when none is newer than the input.
 */
export function currentReport<R extends { end: number }>(reports: readonly R[], start: number, inputOffset: number): R | null {
  const last = reports[reports.length - 1];
  return last !== undefined && start + last.end > inputOffset ? last : null;
}

/** The declaration's message for an OSC 7501 report: `codex blocked (permission): Apply?`. */
export function reportMessage(r: ProgramReport): string {
  const who = r.app ? `${r.app} ` : '';
  const kind = r.kind ? ` (${r.kind})` : '';
  return `${who}${r.state}${kind}${r.message ? `: ${r.message}` : ''}`.slice(0, 1000);
}
