// Sessions on the wire (src/guides/api.md): what the daemon answers and what it accepts.
import type { AttentionSource } from '../core/attention-scan.js';
import type { DeclaredSource, DeclaredState } from '../core/attention.js';
import type { ProgressState, PromptPhase } from '../core/osc-announce.js';
import type { SessionFacts } from '../core/records.js';
import type { SessionStatus } from '../core/status.js';
import type { EventView } from './events.js';
import type { JobView } from './jobs.js';

export type { SessionStatus };

/** A session as the API returns it: camelCase, ISO-8601 UTC times, null where unknown. */
export interface SessionView extends SessionFacts {
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
  durationMs: number | null;
  lastActivityAt: string | null;
  removed: boolean;
  removedAt: string | null;
  /** When its tmux session was closed after finishing (finishedTtl); its log and row stay. */
  closedAt: string | null;
  /** The command name of the terminal's foreground process while it runs; null at the prompt or once ended. */
  foreground: string | null;
  /** A pending session starts no earlier than this (`run --delay`, a restart's backoff); null otherwise. */
  startAfter: string | null;
  /** The program asks for a person (a bell, a desktop notification, `amux state waiting`); null when it does not (src/guides/statuses.md, ADR 0034). */
  attention: AttentionView | null;
  /** The state the program declared (`amux state`, or its OSC 7501 report), while it is in force; null otherwise. */
  declared: DeclaredView | null;
  /** The window title its programs set last (OSC 0, OSC 2), exactly as written; null: none (src/guides/statuses.md, ADR 0050). Not a status rule. */
  title: string | null;
  /** A progress bar its foreground program set (OSC 9;4) and has not cleared; null otherwise (ADR 0049). */
  progress: ProgressView | null;
  /** The last OSC 133 semantic-prompt mark of a program that still has the terminal; null otherwise (ADR 0049). */
  semanticPrompt: SemanticPromptView | null;
  /** Only in `GET /v1/sessions?usage=1`, for live sessions (ADR 0020). */
  cpuPercent?: number | null;
  rssBytes?: number | null;
}

/** A session's attention (src/guides/statuses.md: attention). */
export interface AttentionView {
  /** When it was asked for. */
  at: string;
  /** `bell`, `osc9`, `osc777`, `osc99` (the terminal's own signals), `declared` (`amux state waiting`) or `osc7501` (its OSC 7501 `blocked` report). */
  source: AttentionSource;
  /** The notification's title and text, as the program wrote them (control characters removed); null when none. */
  title: string | null;
  message: string | null;
}

/** A state a program declared (src/guides/statuses.md: declared states). */
export interface DeclaredView {
  state: DeclaredState;
  /** `command`: `amux state` (or `POST …/state`); `osc7501`: the program's OSC 7501 report (ADR 0049). */
  source: DeclaredSource;
  message: string | null;
  at: string;
  /** When it lapses (`--ttl`); null: at the next input or the program's end. */
  until: string | null;
}

/** A progress bar (OSC 9;4): its state, and its percent (null when indeterminate or not given). */
export interface ProgressView {
  state: ProgressState;
  percent: number | null;
  /** When it was set or last changed. */
  at: string;
}

/** The last OSC 133 mark: `prompt` (A), `input` (B), `running` (C), `finished` (D, with its exit code when given). */
export interface SemanticPromptView {
  phase: PromptPhase;
  exitCode: number | null;
  at: string;
}

/** The body of `POST /v1/sessions/{ref}/state` (`amux state`). */
export interface DeclareStateRequest {
  state: DeclaredState;
  /** Shown as the reason, `declared: MESSAGE`; no control characters. */
  message?: string;
  /** The declaration lapses after this long: ms, or a duration text. */
  ttlMs?: number | string;
  /**
   * Whose declaration it is: `program` (default), the program in the session's terminal when it
   * is made, whose end ends it; `session`, the session's command, whose end ends it (`amux state`
   * sends it when it is itself the terminal's foreground job: a one-line `run -- 'amux state …; …'`).
   */
  scope?: 'program' | 'session';
}

/**
 * What `usage=1` adds to a live session: its process tree's CPU use since the daemon's previous
 * look at it, in % of one core (null on the first look), and its resident memory in bytes (the
 * sum over the processes, shared pages counted in each; null when its shell is gone).
 */
export interface SessionUsage {
  cpuPercent: number | null;
  rssBytes: number | null;
}

/** The body of `POST /v1/sessions`. */
export interface CreateSessionRequest {
  /** A shell command line, run by the session's bash. Mutually exclusive with `argv`. */
  command?: string;
  /** An exact argv; each word is passed literally. */
  argv?: string[];
  name?: string;
  /** Absolute working directory; must exist. Default: the daemon's HOME (a client on another machine has no cwd there). */
  cwd?: string;
  /** The complete environment of the session (usually the caller's), plus `-e` overrides. */
  env?: Record<string, string>;
  /** `env` goes over the daemon's own environment (a remote client's: src/guides/remote.md), not instead of it. */
  hostEnv?: boolean;
  /** Remove the session once it has finished. */
  autoRemove?: boolean;
  /** The caller's umask (default 0o022). */
  umask?: number;
  /** Expire the session this long after it started: ms, or a duration text such as `90s`. */
  timeoutMs?: number | string;
  /** Expire the session after this long without output: ms, or a duration text. */
  idleTimeoutMs?: number | string;
  /** Labels (src/guides/sessions.md "Restart, labels, groups"). */
  labels?: Record<string, string>;
  /** `no`, `on-failure`, `on-failure:N` or `always` (ADR 0033). */
  restart?: string;
  /** Start no earlier than this long from now: ms, or a duration text. */
  delayMs?: number | string;
  /** An existing group: the session also waits for a slot of its parallel limit (src/guides/sessions.md "Restart, labels, groups"). */
  group?: string;
  /** Session references: it starts once all completed with exit 0, and fails unstarted if one ended otherwise. */
  after?: string[];
  /** A shell command run when the session ends, with AMUX_ID, AMUX_NAME, AMUX_STATUS, AMUX_EXIT_CODE set (src/guides/sessions.md "Notices"). */
  onEnd?: string;
  /**
   * A dependency of the session did not come up, as this text says: it is recorded and never
   * started, `pending` → `failed` at once with reason `dependency failed` and this as its error,
   * as a `run --after` session whose dependency failed (ADR 0033). `amux up` records so the
   * sessions a failed dependency leaves unstarted (ADR 0039).
   */
  dependencyFailed?: string;
}

/** Query of `GET /v1/sessions`. */
export interface SessionListQuery {
  /** Only these statuses (`live` and `finished` stand for their sets). */
  status?: readonly SessionStatus[] | string;
  /** Name globs: the name matches one of them. */
  name?: readonly string[] | string;
  /** `KEY` or `KEY=VALUE`: every one must hold. */
  label?: readonly string[] | string;
  /** At most this many, newest first. */
  limit?: number;
  /** Removed sessions too. */
  all?: boolean;
  /** Add `cpuPercent` and `rssBytes` to each live session (one pass over /proc for all of them). */
  usage?: boolean;
  /** Only sessions that ask for attention. */
  attention?: boolean;
}

/** The answer of `GET /v1/sessions/{ref}`: the whole record. */
/** The reason of a session created while every start slot was taken: it starts, in order, once tmux gets to it (ADR 0040). */
export const START_BACKLOG = 'waits for tmux';

/** A create answered while every start slot was taken: pending until tmux gets to it (ADR 0040). */
export function waitsForTmux(s: Pick<SessionView, 'status' | 'reason'>): boolean {
  return s.status === 'pending' && s.reason === START_BACKLOG;
}

export interface InspectView {
  session: SessionView;
  jobs: JobView[];
  /** The newest 50 events of the session. */
  events: EventView[];
  /** The last 2 KiB of output, kept in the row when the session was removed. */
  lastOutput: string | null;
}

/** The body of `POST /v1/sessions/{ref}/kill` and `POST /v1/jobs/{id}/kill`. */
export interface KillRequest {
  /** Name or number; default TERM. */
  signal?: string | number;
  /** Time before SIGKILL: ms, or a duration text; default 5 s. */
  graceMs?: number | string;
}

/** The body of `POST /v1/sessions/{ref}/restart`. */
export interface RestartRequest {
  /** Time before SIGKILL when the session is live and must be stopped first: ms, or a duration text; default 5 s. */
  graceMs?: number | string;
}

/** The body of `POST /v1/sessions/{ref}/rename`. */
export interface RenameRequest {
  /** The new name; null removes the name. */
  name: string | null;
}

/** Query of `DELETE /v1/sessions/{ref}`. */
export interface RemoveQuery {
  /** Kill a live session first. */
  force?: boolean;
  graceMs?: number;
}

/**
 * The body of `POST /v1/sessions/{ref}/input`: text (then Enter unless `enter` is false), or tmux
 * key names. Text with newlines goes in as one paste (bracketed when the program asked for it).
 */
export interface SendInputRequest {
  text?: string;
  keys?: string[];
  enter?: boolean;
  /**
   * `idle`: hold the input until the session is idle, instead of typing into a busy program;
   * `ready`: until its program declared `ready` (`amux state ready`, ADR 0034). Default `now`.
   */
  when?: 'now' | 'idle' | 'ready';
  /** With `when: idle` or `ready`, give up after this long (nothing is typed): ms, or a duration text. */
  timeoutMs?: number | string;
}

/** The answer of `POST /v1/sessions/{ref}/input`: where the input landed. */
export interface SendReceipt {
  /** The input is in the terminal (a failure is an error answer instead). */
  delivered: true;
  /**
   * The program read from the terminal after amux pressed Enter (or the terminal got a new
   * foreground job: the shell ran the line), within 2 s: the text was submitted, not only typed
   * (ADR 0047). false: no such sign (a program that does not read now, such as `sleep` in the
   * foreground, or one that read nothing after it); always false without Enter (`enter: false`, `keys`).
   */
  submitted: boolean;
  /** The session log's size just before the input went in: read the reply from here (`logs --since-offset`, `wait --since-offset`). */
  offset: number;
  /** The `input_sent` event's id: `wait --until idle --after` it waits for the reply to finish. */
  eventId: number;
  /** How long the input was held for `when: idle`, in ms. */
  heldMs: number;
  /** Multi-line text went in as one paste. */
  pasted: boolean;
  session: SessionView;
}

/** Query and answer of `GET /v1/sessions/{ref}/screen`. */
export interface ScreenQuery {
  /** Keep the escape sequences (colours, attributes). */
  escapes?: boolean;
}
export interface ScreenView {
  screen: string;
}

/** The body and answer of `POST /v1/prune`. */
export interface PruneRequest {
  /** Only sessions that ended at least this long ago: ms, or a duration text; default 0 (all finished). */
  olderThanMs?: number | string;
  /** Only these finished statuses (`finished` stands for all four); default all. */
  status?: string[];
}
export interface PruneAnswer {
  removed: SessionView[];
}
