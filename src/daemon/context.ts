import type { CpuStreak } from '../core/cpu-blip.js';
import type { TickBase } from '../core/look-pace.js';
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync } from 'node:fs';
import { AmuxError } from '../errors.js';
import type { ScanState } from '../core/attention-scan.js';
import type { Announcements } from '../core/announced.js';
import type { Settings } from '../core/settings.js';
import type { Decision } from '../core/status-rules.js';
import type { AmuxPaths } from '../paths.js';
import type { Foreground } from '../process/foreground.js';
import { openDatabase } from '../store/database.js';
import { Store } from '../store/session-store.js';
import type { PaneInfo } from '../tmux/commands.js';
import { onPath } from '../process/program-path.js';
import { controlClientWanted, Tmux, type ControlUse } from '../tmux/tmux.js';
import { RegexThread } from './match/regex-thread.js';

/** What the daemon keeps in memory per live session, next to the SQLite row. */
export interface Runtime {
  /** The row and the look the last refresh decided on, when that look's evidence settles (ADR 0044): a refresh may pass it by. */
  settled?: { row: unknown; fg: Foreground };
  /** When a refresh last visited it (ADR 0071: a session that rests is visited every REST_PACE_MS). */
  visitedAt?: number;
  /** The pane as the last `tmux list-panes` showed it (ADR 0043: a refresh may stand on it). */
  pane?: PaneInfo;
  /** Cursor position and scrollback size at the last refresh (`x,y,history`). */
  place?: string;
  /** Log size at the last refresh. */
  logEnd?: number;
  /** FNV-1a of the last captured screen. */
  screenHash?: string;
  /** Current log chunk index (a hint for logSize); unknown until first looked up. */
  logIndex?: number;
  /** The current chunk's size at the last `stat`, its path and when (logBytes: a read at its end tells whether it grew). */
  logKnown?: { index: number; size: number; path: string; at: number };
  /** The last problem reported as an `error` event (not repeated at every refresh). */
  lastError?: string;
  /** Why it has its status, as of the last look (the row keeps the reason of the last change)… */
  reason?: string;
  /** …for this status: a change made elsewhere (send, pause) makes it stale. */
  reasonStatus?: string;
  /** The terminal's foreground command at the last look (null: the shell itself). */
  foreground?: string | null;
  /** What the last look at the foreground saw (ADR 0015): evidence is judged against it, never kept past it. */
  look?: LookMemory;
  /** Log size at the last look (refresh or quick look): new bytes since it are `output changed`. */
  seenLog?: number;
  /** When a refresh first saw its pane dead with no exit status yet (tmux had not reaped the shell). */
  deadSeenAt?: number;
  /** The process tree's CPU ticks at the last `usage=1` pass over /proc, and when (ADR 0020). */
  usage?: { ticks: number; at: number };
  /** The shell prepares the capture of its next foreground job (it ran one; ADR 0026): worth waiting for. */
  preparing?: boolean;
  /** An end decided and acted on (a kill) whose row could not be written (a full disk): written by the next status write (transitions.ts). */
  unwritten?: { decision: Decision; at: number };
  /** Its shell takes a job's number from \`jobs/go\` (ADR 0031); false for a shell of an older rcfile. */
  readsGo?: boolean;
  /** Its policy restart (ADR 0033, 0059), made once its output has settled after its end: `kill` aborts it. */
  restartDue?: AbortController;
  /** The parser of its log's attention signals between two looks (ADR 0034); a restart reads on from the row's offset. */
  attentionScan?: ScanState;
  /** The log's end at the last look that searched it for a query to the terminal, since when it ends there, and whether it asks (ADR 0068). */
  replyWait?: { end: number; since: number; asks: boolean };
  /** Its program reports its state (an OSC 7501 report was read): the quick look reads its new output too (ADR 0060). */
  reportsState?: boolean;
  /** What its programs announced (OSC 9;4 progress, OSC 133 marks) and the offset of the last input (ADR 0049). */
  announced?: Announcements;
}

/** The foreground group at a look: its CPU ticks per process and per thread, and the bytes it had read and printed. */
export interface LookMemory {
  pgid: number;
  at: number;
  procs: Map<number, number>;
  threads: Map<number, number>;
  /** The ticks this look measured CPU against, and when they were read: a look too soon after it measures against them too. */
  base?: TickBase;
  /** What a conversation's quiet is timed by: minus one minus the log's size (TCP, or no connection), or the members' rchar plus the log's size (ADR 0048); null when none converses. */
  bytes: number | null;
  /** When the session last printed, as conversations judge it (ADR 0061 amended). */
  printedAt?: number;
  /** Since when `bytes` has not changed (and, for TCP connections, no bytes moved on them: ADR 0061). */
  quietSince: number;
  /** The members of a conversation with bytes on its TCP connections (without `ss`: any), at this look or an earlier one, kept while they live (ADR 0061 amended). */
  conversed?: number[];
  /** The look's samples, which stand for the next look while none of its threads has run (ADR 0041). */
  fg?: Foreground;
  /** Since when the looks have stood (none of its threads ran): the quick look's pace (ADR 0044). */
  stillSince: number;
  /** Looks in a row at an idle session that found CPU used: a blip while short (ADR 0048). */
  cpuStreak?: CpuStreak;
  /** The reason of this look when it found the program waiting on the terminal (a blip held included). */
  inputReason?: 'reading the terminal' | 'at prompt';
}

/** Everything the daemon's parts share. */
export interface DaemonContext {
  paths: AmuxPaths;
  settings: Settings;
  store: Store;
  tmux: Tmux;
  /** Absolute paths of the programs a session's pane runs. */
  programs: Programs;
  startedAt: number;
  runtime: Map<string, Runtime>;
  /** Emits `change` (sessionId) after any status change or new session, `ended` (sessionId) once when its status becomes terminal, and `event` after new event rows committed. */
  bus: EventEmitter;
  /** Where the expressions of output waits run: never on this thread (ADR 0029). */
  regex: RegexThread;
  /** The API's requests: how many are open, and when the last one ended (ADR 0071: looks rest when nobody calls). */
  callers: { open: number; lastAt: number };
}

/** How long nobody has called the daemon: 0 while a request is open (ADR 0071). */
export function quietFor(ctx: DaemonContext, now: number): number {
  return ctx.callers.open > 0 ? 0 : Math.max(0, now - ctx.callers.lastAt);
}

export function runtimeOf(ctx: DaemonContext, id: string): Runtime {
  let rt = ctx.runtime.get(id);
  if (!rt) {
    rt = {};
    ctx.runtime.set(id, rt);
  }
  return rt;
}

/**
 * The parts of a daemon over one AMUX_HOME: its directories, the store (migrated), the private
 * tmux server, the bus (which also hears of new event rows). The daemon, the bench and tests
 * build it the same way.
 */
export function createContext(
  paths: AmuxPaths,
  settings: Settings,
  programs: Programs = findPrograms(),
  useControl: ControlUse = controlClientWanted(process.env.AMUX_TMUX_CONTROL, ''),
): DaemonContext {
  mkdirSync(paths.sessionsDir, { recursive: true, mode: 0o700 });
  mkdirSync(paths.exitsDir, { recursive: true, mode: 0o700 });
  const store = new Store(openDatabase(paths.db));
  const bus = new EventEmitter();
  bus.setMaxListeners(0);
  store.onEvent = () => bus.emit('event');
  return { paths, settings, store, tmux: new Tmux(paths.tmuxSocket, 'tmux', useControl), programs, startedAt: Date.now(), runtime: new Map(), bus, regex: new RegexThread(), callers: { open: 0, lastAt: Date.now() } };
}

/** The session's shell, and the parent it runs under in the pane (coreutils `timeout`, ADR 0010). */
export interface Programs {
  bash: string;
  timeout: string;
}

/** The system's own first (`/bin`, `/usr/bin`, `/usr/local/bin`), then PATH's. */
function findProgram(name: string, why: string): string {
  for (const dir of ['/bin', '/usr/bin', '/usr/local/bin']) if (existsSync(`${dir}/${name}`)) return `${dir}/${name}`;
  const found = onPath(name);
  if (found.startsWith('/')) return found;
  throw new AmuxError('operation_failed', `${name} not found; ${why}`);
}

export function findPrograms(): Programs {
  return {
    bash: findProgram('bash', 'amux sessions run bash; install it'),
    timeout: findProgram('timeout', "each session's shell runs under GNU coreutils timeout; install coreutils"),
  };
}
