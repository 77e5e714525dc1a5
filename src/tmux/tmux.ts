import type { execa as Execa } from 'execa';
import { AmuxError } from '../errors.js';
import { onPath } from '../process/program-path.js';
import { ControlClient, ControlGone, serverAnswers } from './control-client.js';
import { controlLine } from './control-line.js';
import type { ControlUse } from './version.js';

export { checkTmuxVersion, controlClientWanted, tmuxAtLeast, tmuxRelease, type ControlUse } from './version.js';

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
 * through one control-mode client while one is up (ADR 0037; when it may connect: `ControlUse`),
 * else as a `tmux` process per call (a call with stdin input, a line tmux's parser cannot hold, no
 * server yet, a server the client may not join, or `off`).
 */
export class Tmux {
  /** Number of tmux processes spawned; the benchmarks read it (scripts/PERFORMANCE.md). */
  spawns = 0;
  /** Number of calls the control client answered. */
  controlCalls = 0;
  private active = 0;
  private readonly queue: (() => void)[] = [];
  private control: ControlClient | null = null;
  /** While a control client connects, every call waits for it (see `connect`, `startOwnServer`). */
  private gate: Promise<void> | null = null;
  /** Calls under way, of either kind; `drained` wakes those waiting for none. */
  private inflight = 0;
  private drained: (() => void)[] = [];
  private failedAt = 0;
  private closed = false;
  /** `own-server`: a server answered that this client did not start; calls are processes until it ends. */
  private foreign = false;

  /** The tmux program, looked up on PATH once: a call then execs it at once instead of trying each PATH entry. */
  readonly bin: string;

  constructor(
    readonly socket: string,
    bin = 'tmux',
    readonly use: ControlUse = 'own-server',
  ) {
    this.bin = onPath(bin);
  }

  /** Whether calls may go through a control client (the daemon's start line says it). */
  get useControl(): boolean {
    return this.use !== 'off';
  }

  /** Runs one tmux command line; `lenient` returns stdout even when a chained command failed. */
  async run(args: readonly string[], opts: { input?: string; lenient?: boolean } = {}): Promise<string> {
    for (;;) {
      while (this.gate) await this.gate;
      if (!this.startsOwnServer(args)) break;
      this.gate = this.startOwnServer().finally(() => {
        this.gate = null;
      });
    }
    this.inflight++;
    let out: string;
    try {
      out = await this.runNow(args, opts);
    } catch (err) {
      if (err instanceof TmuxCommandError && err.noServer) this.foreign = false;
      throw err;
    } finally {
      if (--this.inflight === 0) for (const wake of this.drained.splice(0)) wake();
    }
    if (this.use === 'any-server') this.connect(); // the server answered
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
   * `any-server`: a server answered; start a control client for the calls that follow, unless one
   * runs. Only while no other call is under way, and calls wait until it is up: tmux 3.3a's server
   * crashed (SIGSEGV) in half of the runs where a control client attached while other clients
   * created sessions (ADR 0037).
   */
  private connect(): void {
    if (this.closed || this.gate || this.inflight > 0 || this.control?.alive || Date.now() - this.failedAt < RECONNECT_MS) return;
    this.gate = this.attach().finally(() => {
      this.gate = null;
    });
  }

  /** `own-server`: a create while no client is up, and no server is known to run that this client did not start. */
  private startsOwnServer(args: readonly string[]): boolean {
    return this.use === 'own-server' && args[0] === 'new-session' && !this.closed && !this.foreign && !this.control?.alive && Date.now() - this.failedAt >= RECONNECT_MS;
  }

  /**
   * `own-server` (ADR 0067): once no call of this daemon is under way (none can then be starting a
   * server), and only if no server answers, the control client starts the server itself: it
   * identifies before any session or other client exists, so no notification can reach it half
   * made. A server that answers is someone else's (a daemon before this one left it running):
   * processes until it ends.
   */
  private async startOwnServer(): Promise<void> {
    while (this.inflight > 0) await new Promise<void>((wake) => this.drained.push(wake));
    if (await serverAnswers(this.socket)) {
      this.foreign = true;
      return;
    }
    await this.attach();
  }

  /** Starts a control client (in `own-server`, it starts the server too); calls are processes for a while if it fails. */
  private attach(): Promise<void> {
    return ControlClient.connect(this.bin, this.baseArgs(), ANSWER_MS).then(
      (c) => {
        if (this.closed) return c.close();
        this.control = c;
        c.whenGone(() => {
          if (this.control !== c) return;
          this.control = null;
          this.foreign = false; // the next create looks again: a server still up is not this client's any more
        });
      },
      () => {
        this.failedAt = Date.now();
      },
    );
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

