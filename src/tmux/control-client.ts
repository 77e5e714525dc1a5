import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect as connectSocket } from 'node:net';
import { ControlParser, type ControlBlock } from './control-parser.js';

/**
 * The hidden session a control client sits in (ADR 0037). Not `amux-<id>`, so nothing takes it
 * for a session of amux's. It keeps the server up only while a daemon uses it: `close` kills it,
 * and its pane (`tail --pid`) ends within a second of the daemon's death. Not `destroy-unattached`:
 * with it, tmux 3.3a's server crashed (SIGSEGV) in 1 of 4 runs when the client left.
 */
export const CONTROL_SESSION = '_amux-control';

/** What one line of commands answered: the output of those that ran, and the first error. */
export interface ControlAnswer {
  stdout: string;
  error: string | null;
}

/** The client ended before the answer came: the caller may run the command as a process instead. */
export class ControlGone extends Error {
  constructor() {
    super('the tmux control client ended');
    this.name = 'ControlGone';
  }
}

interface Pending {
  resolve: (a: ControlAnswer) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * One `tmux -C` client on amux's server (ADR 0037): commands are written to its stdin, one line
 * each, and answered in order. A line of chained commands answers one block per command that ran
 * (tmux stops a chain at the first error), so each line is followed by a `display-message` of a
 * mark only this client knows: the blocks before the mark's are that line's answer.
 */
export class ControlClient {
  private readonly pending: Pending[] = [];
  private collected: ControlBlock[] = [];
  private readonly mark = `amux-mark-${randomBytes(8).toString('hex')}`;
  private gone = false;
  private onGone: (() => void) | null = null;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    const parser = new ControlParser((b) => this.block(b));
    child.stdout.on('data', (d: Buffer) => parser.push(d));
    child.stdin.on('error', () => this.end());
    child.on('error', () => this.end());
    child.on('close', () => this.end());
    child.stderr.resume();
  }

  /** Starts a client in the control session (created if need be) and waits for its first answer. */
  static async connect(bin: string, baseArgs: readonly string[], timeoutMs: number): Promise<ControlClient> {
    const child = spawn(bin, [
      ...baseArgs, '-C', 'new-session', '-A', '-s', CONTROL_SESSION, '--', 'tail', `--pid=${process.pid}`, '-f', '/dev/null',
    ], { env: { ...process.env, TMUX: '' }, stdio: 'pipe' });
    const client = new ControlClient(child);
    try {
      await client.send(`display-message -p ''`, timeoutMs);
    } catch (err) {
      client.kill();
      throw err;
    }
    return client;
  }

  get alive(): boolean {
    return !this.gone;
  }

  /** Called once when the client has ended (the server exited, or it was killed). */
  whenGone(fn: () => void): void {
    this.onGone = fn;
  }

  /** Runs one line of tmux commands (see `controlLine`); rejects with ControlGone if the client ends first. */
  send(line: string, timeoutMs: number): Promise<ControlAnswer> {
    if (this.gone) return Promise.reject(new ControlGone());
    return new Promise((resolve, reject) => {
      // A server that does not answer is not waited on forever: this client is given up.
      const timer = setTimeout(() => {
        reject(new Error(`the tmux server did not answer within ${timeoutMs / 1000} s (overloaded?)`));
        this.kill();
      }, timeoutMs);
      timer.unref();
      this.pending.push({ resolve, reject, timer });
      this.child.stdin.write(`${line}\ndisplay-message -p '${this.mark}'\n`);
    });
  }

  /** Detaches (stdin closed): tmux then ends the control session. */
  close(): void {
    this.child.stdin.end(`kill-session -t '=${CONTROL_SESSION}'\n`);
  }

  kill(): void {
    this.child.kill('SIGKILL');
    this.end();
  }

  private block(b: ControlBlock): void {
    if (!b.fromClient) return; // the answer to the command the client was started with
    if (!(b.ok && b.lines.length === 1 && b.lines[0] === this.mark)) {
      this.collected.push(b);
      return;
    }
    const blocks = this.collected;
    this.collected = [];
    const p = this.pending.shift();
    if (!p) return;
    clearTimeout(p.timer);
    const failed = blocks.find((x) => !x.ok);
    const stdout = blocks.filter((x) => x.ok).flatMap((x) => x.lines.map((l) => `${l}\n`)).join('');
    p.resolve({ stdout, error: failed ? failed.lines.join('\n') : null });
  }

  private end(): void {
    if (this.gone) return;
    this.gone = true;
    for (const p of this.pending.splice(0)) {
      clearTimeout(p.timer);
      p.reject(new ControlGone());
    }
    this.onGone?.();
  }
}

/**
 * Whether a tmux server listens on `socket`. Looked at without a tmux client (which would start a
 * server or run a command): a connection tmux accepts and sees end at once, like a client that
 * left before identifying anything (no flags: not a control client, ADR 0067).
 */
export function serverAnswers(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connectSocket(socket);
    s.on('connect', () => {
      s.destroy();
      resolve(true);
    });
    // ENOENT (no socket) and ECONNREFUSED (a socket left by a server that died) mean none; any
    // other failure is not taken as "none", so a client never starts beside a server it cannot see.
    s.on('error', (err: NodeJS.ErrnoException) => resolve(err.code !== 'ENOENT' && err.code !== 'ECONNREFUSED'));
  });
}
