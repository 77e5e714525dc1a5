import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { abortChildren, benchEnv, pool, run, runOk, sleep, type RunResult } from './measure.js';

/** bin/amux of the tree this bench runs from, found from dist/scripts/bench/ (this file, compiled). */
export const AMUX_BIN = join(__dirname, '..', '..', '..', 'bin', 'amux');

/** Sends `signal` (0: just count) to every live process whose session id is in `leaders`, from /proc. */
export function killSessions(leaders: ReadonlySet<number>, signal: NodeJS.Signals | 0): number {
  if (leaders.size === 0) return 0;
  let killed = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const [state, , , sid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state !== 'Z' && leaders.has(Number(sid))) {
        process.kill(Number(entry), signal);
        killed++;
      }
    } catch {
      /* gone meanwhile */
    }
  }
  return killed;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return false;
  }
}

/** One temporary AMUX_HOME: its own daemon and tmux server, torn down by `cleanup`. */
export class BenchHome {
  readonly env: NodeJS.ProcessEnv;
  readonly tmuxSocket: string;
  private cleaned = false;
  /** Processes of this home's sessions still alive after kill-server (killed by cleanup). */
  survivors = 0;

  /** `bin` is the amux this home runs (another built tree's for an A/B; default: this tree's). */
  constructor(readonly dir: string, readonly bin: string = AMUX_BIN) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.env = benchEnv({ AMUX_HOME: dir });
    this.tmuxSocket = join(dir, 'tmux.sock');
  }

  /** Runs `bin/amux ARGS` (timed), whatever its exit code. */
  amux(...args: string[]): Promise<RunResult> {
    return run([this.bin, ...args], this.env);
  }

  /** Runs `bin/amux ARGS`; a non-zero exit is an error. */
  amuxOk(...args: string[]): Promise<RunResult> {
    return runOk([this.bin, ...args], this.env);
  }

  /** Starts `n` sessions running `command` through the CLI, `concurrency` at a time; returns their ids. */
  async runMany(n: number, command: string, concurrency = 8): Promise<string[]> {
    return pool(n, concurrency, async () => (await this.amuxOk('run', '--', command)).stdout.trim());
  }

  /** The daemon's pid from `amux daemon status --json`. */
  async daemonPid(): Promise<number> {
    return (JSON.parse((await this.amuxOk('daemon', 'status', '--json')).stdout) as { pid: number }).pid;
  }

  /** Stops the daemon, kills the private tmux server (and with it every session), removes the dir. */
  async cleanup(): Promise<void> {
    if (this.cleaned) return;
    this.cleaned = true;
    const pidFile = join(this.dir, 'daemon.pid');
    const daemonPid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : 0;
    const cleanupRun = (argv: string[]) => run(argv, this.env, { forCleanup: true }).catch(() => null);
    if (existsSync(join(this.dir, 'amux.sock'))) await cleanupRun([this.bin, 'daemon', 'stop']);
    for (let i = 0; i < 20 && daemonPid > 0 && isRunning(daemonPid); i++) await sleep(100);
    if (daemonPid > 0 && isRunning(daemonPid)) {
      process.stderr.write(`bench cleanup: daemon ${daemonPid} of ${this.dir} still runs 2 s after 'amux daemon stop'; killing it\n`);
      process.kill(daemonPid, 'SIGKILL');
    }
    if (existsSync(this.tmuxSocket)) {
      const tmux = ['tmux', '-S', this.tmuxSocket, '-f', '/dev/null'];
      const panes = await cleanupRun([...tmux, 'list-panes', '-a', '-F', '#{pane_pid}']);
      await cleanupRun([...tmux, 'kill-server']);
      // Each pane's shell leads its own process session; whatever of it outlives the hang-up goes too.
      const leaders = new Set((panes?.stdout ?? '').split('\n').filter(Boolean).map(Number));
      for (let i = 0; i < 20 && killSessions(leaders, 0) > 0; i++) await sleep(100);
      this.survivors = killSessions(leaders, 'SIGKILL');
      if (this.survivors) process.stderr.write(`bench cleanup: ${this.survivors} session processes still alive 2 s after tmux kill-server in ${this.dir}; killed them\n`);
    }
    // The dying shells still write their exit-status files for a moment: retry on ENOTEMPTY.
    rmSync(this.dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  }
}

/**
 * SIGKILLs every process (but this one) whose environment carries `KEY=value`; returns how many.
 * Every child of the bench inherits the marker, so this finds what a cleanup step missed.
 */
export function killByEnvMarker(key: string, value: string): number {
  const marker = `${key}=${value}`;
  let killed = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(marker) && isRunning(Number(entry))) {
        process.kill(Number(entry), 'SIGKILL');
        killed++;
      }
    } catch {
      /* gone meanwhile, or not ours */
    }
  }
  return killed;
}

const MARKER = 'AMUX_BENCH_ROOT';

/** Owns the bench's temp root (short, under /tmp, for socket paths) and everything made in it. */
export class Homes {
  readonly root = mkdtempSync('/tmp/amb-');
  private readonly cleanups: (() => Promise<void> | void)[] = [];
  private readonly homes: BenchHome[] = [];

  constructor() {
    // Inherited by every daemon, tmux server and shell the bench starts (the last-resort sweep).
    process.env[MARKER] = this.root;
  }

  /** On SIGINT or SIGTERM: stops what runs, cleans every home up, exits 130. */
  cleanupOnSignal(log: (msg: string) => void): void {
    // `on`, not `once`: execa's signal-exit re-raises the signal when no other listener is left.
    let interrupted = false;
    const onSignal = () => {
      if (interrupted) return;
      interrupted = true;
      log('interrupted: cleaning up');
      void abortChildren().then(() => this.cleanupAll()).finally(() => process.exit(130));
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }

  home(name: string, bin?: string): BenchHome {
    const h = new BenchHome(join(this.root, name), bin);
    this.homes.push(h);
    this.cleanups.push(() => h.cleanup());
    return h;
  }

  /** Session processes that outlived `tmux kill-server`, over all homes (a product finding). */
  get survivors(): number {
    return this.homes.reduce((n, h) => n + h.survivors, 0);
  }

  /** Registers an extra cleanup step (run in reverse order). */
  onCleanup(fn: () => Promise<void> | void): void {
    this.cleanups.push(fn);
  }

  private cleaning: Promise<void> | null = null;

  /** Runs every cleanup once, newest first; concurrent callers (an interrupt, `finally`) share it. */
  cleanupAll(): Promise<void> {
    this.cleaning ??= this.doCleanup();
    return this.cleaning;
  }

  private async doCleanup(): Promise<void> {
    for (const fn of this.cleanups.reverse()) {
      try {
        await fn();
      } catch (err) {
        process.stderr.write(`bench cleanup: ${(err as Error).message}\n`);
      }
    }
    this.cleanups.length = 0;
    await sleep(300);
    const stray = killByEnvMarker(MARKER, this.root);
    if (stray) process.stderr.write(`bench cleanup: killed ${stray} stray processes started by this run\n`);
    rmSync(this.root, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  }
}
