import type { execa as Execa } from 'execa';
import { AmuxError } from '../errors.js';
import { badSetting } from '../core/settings.js';
import { onPath } from '../process/program-path.js';
import { ControlClient, ControlGone } from './control-client.js';
import { controlLine } from './control-line.js';

/** execa is ESM-only; the daemon loads it once, on first use. */
let execaModule: Promise<typeof Execa> | null = null;
function loadExeca(): Promise<typeof Execa> {
  execaModule ??= import('execa').then((m) => m.execa);
  return execaModule;
}

/**
 * At most this many tmux clients at once: the server is one thread, and every client it has not
 * answered yet holds a socket in it. Beyond this, calls wait in the daemon (backpressure), instead
 * of piling up clients that make a busy server slower still (ADR 0007, amended: 8, of which at
 * most 4 start sessions, ADR 0040).
 */
const MAX_CLIENTS = 8;
/** A tmux call that has not answered in this long is killed and fails: nothing waits on tmux forever. */
const ANSWER_MS = 20_000;

/** Commands that change nothing: run again as a process when the control client ended before answering. */
const READS = new Set(['list-panes', 'list-sessions', 'capture-pane', 'display-message', 'show-options']);

/** After a control client failed to start, calls are processes for this long before it is tried again. */
const RECONNECT_MS = 5_000;

/**
 * Runs tmux against amux's private server (`-S AMUX_HOME/tmux.sock`, never the user's config):
 * through one control-mode client while the server runs (ADR 0037), else as a `tmux` process per
 * call (a call with stdin input, a line tmux's parser cannot hold, no server yet, or `control` off).
 */
export class Tmux {
  /** Number of tmux processes spawned; the benchmarks read it (scripts/PERFORMANCE.md). */
  spawns = 0;
  /** Number of calls the control client answered. */
  controlCalls = 0;
  private active = 0;
  private readonly queue: (() => void)[] = [];
  private control: ControlClient | null = null;
  /** While a control client connects, every call waits for it (see `connect`). */
  private gate: Promise<void> | null = null;
  /** Calls under way, of either kind. */
  private inflight = 0;
  private failedAt = 0;
  private closed = false;

  /** The tmux program, looked up on PATH once: a call then execs it at once instead of trying each PATH entry. */
  readonly bin: string;

  constructor(
    readonly socket: string,
    bin = 'tmux',
    readonly useControl = true,
  ) {
    this.bin = onPath(bin);
  }

  /** Runs one tmux command line; `lenient` returns stdout even when a chained command failed. */
  async run(args: readonly string[], opts: { input?: string; lenient?: boolean } = {}): Promise<string> {
    while (this.gate) await this.gate;
    this.inflight++;
    let out: string;
    try {
      out = await this.runNow(args, opts);
    } finally {
      this.inflight--;
    }
    this.connect(); // the server answered
    return out;
  }

  private async runNow(args: readonly string[], opts: { input?: string; lenient?: boolean }): Promise<string> {
    const line = opts.input === undefined ? controlLine(args) : null;
    const control = this.control;
    if (line !== null && control?.alive) {
      try {
        const answer = await control.send(line, ANSWER_MS);
        this.controlCalls++;
        if (answer.error !== null && !opts.lenient) throw new TmuxCommandError(args[0] ?? '', answer.error, answer);
        return answer.stdout;
      } catch (err) {
        if (!(err instanceof ControlGone)) throw err instanceof TmuxCommandError ? err : new TmuxCommandError(args[0] ?? '', (err as Error).message, err);
        // The client ended (the server exited, or it was killed) before it answered. A call that only
        // reads runs again as a process; one that changes something may have run, so it is not repeated.
        if (!READS.has(args[0] ?? '')) throw new TmuxCommandError(args[0] ?? '', 'server exited before it answered', err);
      }
    }
    return this.fork(args, opts);
  }

  /** Whether calls go through the control client now. */
  get controlled(): boolean {
    return this.control?.alive ?? false;
  }

  /** Ends the control client (daemon shutdown): its hidden session goes with it. */
  close(): void {
    this.closed = true;
    this.control?.close();
  }

  /**
   * A server answered: start a control client for the calls that follow, unless one runs. Only
   * while no other call is under way, and calls wait until it is up: tmux 3.3a's server crashed
   * (SIGSEGV) in half of the runs where a control client attached while other clients created
   * sessions (ADR 0037).
   */
  private connect(): void {
    if (!this.useControl || this.closed || this.gate || this.inflight > 0 || this.control?.alive || Date.now() - this.failedAt < RECONNECT_MS) return;
    this.gate = ControlClient.connect(this.bin, this.baseArgs(), ANSWER_MS).then(
      (c) => {
        if (this.closed) return c.close();
        this.control = c;
        c.whenGone(() => {
          if (this.control === c) this.control = null;
        });
      },
      () => {
        this.failedAt = Date.now();
      },
    ).finally(() => {
      this.gate = null;
    });
  }

  /** The argv prefix for a private-server tmux call. */
  baseArgs(): string[] {
    return ['-S', this.socket, '-f', '/dev/null'];
  }

  /** One `tmux …` process for the call. */
  private async fork(args: readonly string[], opts: { input?: string; lenient?: boolean }): Promise<string> {
    const execa = await loadExeca();
    // A finishing call hands its slot straight to the oldest waiter (see `finally`).
    if (this.active >= MAX_CLIENTS) await new Promise<void>((go) => this.queue.push(go));
    else this.active++;
    this.spawns++;
    let res: Awaited<ReturnType<typeof execa>>;
    try {
      res = await execa(this.bin, [...this.baseArgs(), ...args], {
        input: opts.input,
        reject: false,
        stripFinalNewline: false,
        env: { TMUX: '' },
        extendEnv: true,
        timeout: ANSWER_MS,
        killSignal: 'SIGKILL',
      });
    } finally {
      const next = this.queue.shift();
      if (next) next();
      else this.active--;
    }
    if (res.timedOut) throw new TmuxCommandError(args[0] ?? '', `the tmux server did not answer within ${ANSWER_MS / 1000} s (overloaded?)`, res);
    if (res.failed && !(opts.lenient && res.exitCode !== undefined)) {
      const stderr = String(res.stderr ?? '').trim();
      if ((res as { code?: string }).code === 'ENOENT') {
        throw new AmuxError('tmux_unavailable', 'tmux is not installed; install tmux 3.2 or newer (e.g. apt-get install tmux)', { cause: res });
      }
      throw new TmuxCommandError(args[0] ?? '', stderr || String(res.shortMessage), res);
    }
    return String(res.stdout);
  }

  /** Like `run`, but an absent server ("no server running") yields ''. */
  async runIfServer(args: readonly string[], opts: { input?: string; lenient?: boolean } = {}): Promise<string> {
    try {
      return await this.run(args, opts);
    } catch (err) {
      if (err instanceof TmuxCommandError && err.noServer) return '';
      throw err;
    }
  }
}

export class TmuxCommandError extends Error {
  constructor(
    readonly command: string,
    readonly stderr: string,
    cause: unknown,
  ) {
    super(`tmux ${command} failed: ${stderr}`, { cause });
    this.name = 'TmuxCommandError';
  }

  get noServer(): boolean {
    return /no server running|error connecting|No such file or directory|server exited/i.test(this.stderr);
  }

  get notFound(): boolean {
    // tmux 3.3a answers 'no current target' for a session that went away between the lookup and the command.
    return this.noServer || /can't find (session|pane|window)|no such (session|pane)|no current target/i.test(this.stderr);
  }
}

/** The major and minor of a `tmux -V` line (`tmux 3.3a`, `tmux next-3.7`); null when it names none. */
export function tmuxRelease(version: string): [number, number] | null {
  const m = /(\d+)\.(\d+)/.exec(version);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/** Whether a `tmux -V` line names release `major`.`minor` or a later one. */
export function tmuxAtLeast(version: string, major: number, minor: number): boolean {
  const r = tmuxRelease(version);
  return r !== null && (r[0] > major || (r[0] === major && r[1] >= minor));
}

/**
 * Whether the daemon's tmux calls go through one control-mode client (ADR 0037, ADR 0046):
 * `AMUX_TMUX_CONTROL=on` or `off` decides; unset (or empty), a tmux of 3.7 or newer, the first
 * release with the fixes for the control-mode server crashes found on 3.3a, gets it; an older one
 * runs a process per call. Another value is a bad setting: the daemon does not start.
 */
export function controlClientWanted(setting: string | undefined, version: string): boolean {
  if (setting === 'on') return true;
  if (setting === 'off') return false;
  if (setting) throw badSetting('AMUX_TMUX_CONTROL', setting, 'must be on or off (unset: the control-mode client from tmux 3.7)');
  return tmuxAtLeast(version, 3, 7);
}

/** Checks that tmux exists and is at least 3.2 (new-session -e, argv commands, pane_dead_status). */
export async function checkTmuxVersion(bin = 'tmux'): Promise<string> {
  const res = await (await loadExeca())(bin, ['-V'], { reject: false });
  if (res.failed) {
    throw new AmuxError('tmux_unavailable', 'tmux is not installed or not on PATH; install tmux 3.2 or newer (e.g. apt-get install tmux)');
  }
  const version = String(res.stdout).trim();
  if (!tmuxAtLeast(version, 3, 2)) {
    throw new AmuxError('tmux_unavailable', `${version || 'tmux'} is too old; amux needs tmux 3.2 or newer`);
  }
  return version;
}
