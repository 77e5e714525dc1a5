import { spawn, execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { CONTROL_SESSION } from '../../src/tmux/control-client.js';

/** The built CLI under test. */
export const BIN = join(__dirname, '..', '..', '..', 'bin', 'amux');

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  raw: Buffer;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
  /** The working directory of the command (default: the test's). */
  cwd?: string;
}

function requireTmux(): void {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
  } catch {
    throw new Error('tmux is required for integration tests and was not found on PATH (install tmux)');
  }
}

/** A private amux installation for one test: its own AMUX_HOME, daemon and tmux server. */
export class AmuxHome {
  readonly home: string;

  constructor(readonly env: Record<string, string | undefined> = {}) {
    requireTmux();
    this.home = mkdtempSync('/tmp/amux-t-');
  }

  /** Runs `amux ARGS…` and resolves with its exit code and output (never rejects on non-zero). */
  run(args: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
    return new Promise((resolve, reject) => {
      const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', AMUX_HOME: this.home, ...this.env, ...opts.env };
      delete env.NODE_EXTRA_CA_CERTS;
      const child = spawn(process.execPath, [BIN, ...args], { env: env as NodeJS.ProcessEnv, cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stderr.on('data', (d: Buffer) => err.push(d));
      const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
      child.on('error', reject);
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        const raw = Buffer.concat(out);
        resolve({ code: code ?? 128 + (signal ? 9 : 0), stdout: raw.toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), raw });
      });
      child.stdin.end(opts.input ?? '');
    });
  }

  /** Runs and expects exit 0; returns trimmed stdout. */
  async ok(args: readonly string[], opts: RunOptions = {}): Promise<string> {
    const r = await this.run(args, opts);
    if (r.code !== 0) throw new Error(`amux ${args.join(' ')} exited ${r.code}: ${r.stderr.trim()}`);
    return r.stdout.trim();
  }

  async json<T = any>(args: readonly string[]): Promise<T> {
    return JSON.parse(await this.ok([...args, '--json'])) as T;
  }

  async session(ref: string): Promise<any> {
    return (JSON.parse(await this.ok(['inspect', ref])) as { session: unknown }).session;
  }

  /** Polls until `predicate` holds for the session (tests never assert on time; this only bounds a wait). */
  async until(ref: string, predicate: (s: any) => boolean, timeoutMs = 20_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    let last: any;
    while (Date.now() < deadline) {
      last = await this.session(ref);
      if (predicate(last)) return last;
      await new Promise((r) => setTimeout(r, 150));
    }
    throw new Error(`session ${ref} never reached the expected state; last: ${JSON.stringify(last)}`);
  }

  /** One raw API request over the daemon's socket (the daemon must be running): status and parsed JSON body. */
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
      const req = request({ socketPath: join(this.home, 'amux.sock'), method, path, headers: { 'content-type': 'application/json' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            /* not JSON: the text */
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  get tmuxSocket(): string {
    return join(this.home, 'tmux.sock');
  }

  daemonPid(): number | null {
    const f = join(this.home, 'daemon.pid');
    return existsSync(f) ? Number(readFileSync(f, 'utf8').trim()) || null : null;
  }

  tmux(args: readonly string[]): string {
    return execFileSync('tmux', ['-S', this.tmuxSocket, ...args], { encoding: 'utf8' });
  }

  /** Names of the sessions on the private tmux server ([] when it is not running), but the daemon's hidden control session (ADR 0037). */
  tmuxSessions(): string[] {
    try {
      return this.tmux(['list-sessions', '-F', '#{session_name}']).split('\n').filter((n) => n && n !== CONTROL_SESSION);
    } catch {
      return [];
    }
  }

  /** Stops the daemon, kills the private tmux server, removes the directory. Safe to call twice. */
  async cleanup(): Promise<void> {
    if (!existsSync(this.home)) return;
    const pid = this.daemonPid();
    await this.run(['daemon', 'stop'], { timeoutMs: 15_000 }).catch(() => undefined);
    if (pid) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    try {
      execFileSync('tmux', ['-S', this.tmuxSocket, 'kill-server'], { stdio: 'ignore' });
    } catch {
      /* no server */
    }
    // Shells of the killed tmux server may still write their exit files for a moment: move the
    // directory away first (their absolute paths then lead nowhere), then remove it.
    const doomed = `${this.home}.removing`;
    try {
      renameSync(this.home, doomed);
    } catch {
      /* already gone */
    }
    rmSync(doomed, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    // A daemon that a command of the test autostarted while this cleanup ran had no daemon.pid yet
    // to be killed by: found by its AMUX_HOME, it would otherwise outlive the test.
    for (const pid of daemonsOf(this.home)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone meanwhile */
      }
    }
  }
}

/** The pids of amux daemons running with AMUX_HOME=`home` (from /proc). */
function daemonsOf(home: string): number[] {
  const mark = `AMUX_HOME=${home}\0`;
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('amuxd')) continue;
      if (`${readFileSync(`/proc/${entry}/environ`, 'utf8')}\0`.includes(mark)) found.push(Number(entry));
    } catch {
      /* gone, or not ours to read */
    }
  }
  return found;
}

/** A fresh AmuxHome cleaned up when the test (or suite) ends, pass or fail. */
export function amuxHome(t: Pick<TestContext, 'after'> | { after: (fn: () => Promise<void>) => void }, env: Record<string, string | undefined> = {}): AmuxHome {
  const h = new AmuxHome(env);
  t.after(() => h.cleanup());
  return h;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
