import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Duplex } from 'node:stream';
import { parseDuration } from '../core/duration.js';
import { AmuxError } from '../errors.js';
import { ensureDir } from '../paths.js';
import type { Dialer } from './http.js';

/**
 * The daemon of another machine, reached over OpenSSH (src/guides/remote.md, ADR 0024): each
 * request runs `ssh HOST amux daemon dial-stdio`, which bridges its stdin and stdout to the
 * daemon socket there, and the same HTTP goes over the channel. One master connection per host
 * (ControlMaster, its socket in the local AMUX_HOME/ssh) makes every request after the first cost
 * a channel, not a handshake. Loaded only when a host is given: a local command never needs it.
 */

/** `ssh://[user@]host[:port]`, taken apart. */
export interface SshHost {
  /** As the user wrote it (ssh://…), for messages and the HOST column. */
  url: string;
  user?: string;
  host: string;
  port?: number;
}

const DEFAULT_CONNECT_TIMEOUT_S = 10;
/** sun_path (108) less ssh's temporary suffix while it creates the socket (`.` + 16 characters) and a NUL. */
const MAX_CONTROL_PATH = 108 - 18;
const HASH_LENGTH = 40; // %C: a SHA-1 in hex

export function parseHostUrl(raw: string): SshHost {
  const bad = (why: string) => new AmuxError('usage', `bad host '${raw}': ${why}; use ssh://[user@]host[:port]`);
  if (!raw.startsWith('ssh://')) throw bad('not an ssh:// address');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw bad('not a valid address');
  }
  if ((url.pathname && url.pathname !== '/') || url.search || url.hash || url.password) throw bad('only a user, a host and a port may be given');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!host || !/^[A-Za-z0-9_.:-]+$/.test(host) || host.startsWith('-')) throw bad('not a host name');
  const user = url.username ? decodeUser(url.username, bad) : undefined;
  if (user !== undefined && !/^[A-Za-z0-9_.][A-Za-z0-9_.@-]*$/.test(user)) throw bad('not a user name');
  // URL takes port 0, which ssh would read as "the default port" (22).
  if (url.port === '0') throw bad('port 0 is not a port');
  const port = url.port ? Number(url.port) : undefined;
  return { url: raw.replace(/\/$/, ''), host, ...(user ? { user } : {}), ...(port ? { port } : {}) };
}

function decodeUser(raw: string, bad: (why: string) => AmuxError): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw bad('a malformed %-escape in the user name');
  }
}

/** One word for the far side's shell: quoted unless it is plain. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** `amux` on the far side: AMUX_REMOTE_PATH when set (src/guides/remote.md). */
function remoteAmux(env: NodeJS.ProcessEnv): string {
  return shellWord(env.AMUX_REMOTE_PATH || 'amux');
}

function connectTimeoutS(env: NodeJS.ProcessEnv): number {
  const v = env.AMUX_CONNECT_TIMEOUT;
  return v ? Math.max(1, Math.ceil(parseDuration(v, 'AMUX_CONNECT_TIMEOUT') / 1000)) : DEFAULT_CONNECT_TIMEOUT_S;
}

/** The options every ssh of amux gets, ahead of the destination. */
export function sshOptions(h: SshHost, home: string, opts: { tty: boolean }, env: NodeJS.ProcessEnv = process.env): string[] {
  const args: string[] = [];
  if (env.AMUX_SSH_CONFIG) args.push('-F', env.AMUX_SSH_CONFIG);
  // Nothing of ssh's may wait for an answer in a script: a prompt only with a terminal to answer it.
  if (!process.stdin.isTTY) args.push('-o', 'BatchMode=yes');
  args.push('-o', `ConnectTimeout=${connectTimeoutS(env)}`);
  const dir = join(home, 'ssh');
  // %C is a hash of the destination; a home too long for the socket (or with characters ssh's
  // option parser would split on) goes without a shared connection rather than fail.
  if (Buffer.byteLength(dir) + 1 + HASH_LENGTH <= MAX_CONTROL_PATH && /^[^\s"'%]+$/.test(dir)) {
    try {
      ensureDir(dir, 0o700);
      args.push('-o', 'ControlMaster=auto', '-o', `ControlPath=${dir}/%C`, '-o', 'ControlPersist=60s');
    } catch {
      /* no shared connection */
    }
  }
  if (h.user) args.push('-l', h.user);
  if (h.port) args.push('-p', String(h.port));
  args.push(opts.tty ? '-t' : '-T');
  return args;
}

/** A daemon on another machine. */
export class SshTarget implements Dialer {
  readonly host: SshHost;

  constructor(
    url: string | SshHost,
    private readonly home: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.host = typeof url === 'string' ? parseHostUrl(url) : url;
  }

  get url(): string {
    return this.host.url;
  }

  /** `ssh … HOST amux daemon dial-stdio` as a byte stream. */
  open(): Duplex {
    const args = [...sshOptions(this.host, this.home, { tty: false }, this.env), '--', this.host.host, `${remoteAmux(this.env)} daemon dial-stdio`];
    const child = spawn(this.env.AMUX_SSH || 'ssh', args, { stdio: ['pipe', 'pipe', 'pipe'], env: this.env });
    return new SshChannel(child, this.host);
  }

  /** The argv of `ssh -t HOST amux attach ID` (src/guides/remote.md). */
  attachArgv(ref: string, readOnly: boolean): string[] {
    const words = [remoteAmux(this.env), '--context', 'local', 'attach', ...(readOnly ? ['-r'] : []), '--', shellWord(ref)];
    return [this.env.AMUX_SSH || 'ssh', ...sshOptions(this.host, this.home, { tty: true }, this.env), '--', this.host.host, words.join(' ')];
  }
}

/** A child ssh's stdout and stdin as one Duplex; a failure of ssh (or of the far side) becomes its one-line error. */
class SshChannel extends Duplex {
  private stderr = '';
  private received = false;
  private stdoutEnded = false;
  private exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  private stderrEnded = false;

  constructor(private readonly child: ChildProcess, private readonly host: SshHost) {
    super();
    const out = child.stdout!;
    out.on('data', (d: Buffer) => {
      this.received = true;
      if (!this.push(d)) out.pause();
    });
    out.on('end', () => {
      this.stdoutEnded = true;
      this.settle();
    });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (d: string) => {
      if (this.stderr.length < 16_384) this.stderr += d;
    });
    // A ControlPersist master forked off this ssh closes its copy of stderr; should one keep it, the exit decides.
    child.stderr!.on('end', () => {
      this.stderrEnded = true;
      this.settle();
    });
    child.stdin!.on('error', () => undefined); // EPIPE once ssh is gone: its exit says why
    child.on('exit', (code, signal) => {
      this.exit = { code, signal };
      setTimeout(() => {
        this.stderrEnded = true;
        this.settle();
      }, 200).unref();
      this.settle();
    });
    child.on('error', (err: NodeJS.ErrnoException) => {
      const what = err.code === 'ENOENT' ? "ssh is not installed here; install OpenSSH's client (apt-get install openssh-client)" : err.message;
      this.destroy(new AmuxError('host_unreachable', `${host.url}: cannot run ssh: ${what}`));
    });
  }

  private settle(): void {
    if (!this.stdoutEnded || !this.exit || !this.stderrEnded || this.destroyed || this.readableEnded) return;
    if (this.exit.code === 0 || this.received) this.push(null);
    else this.destroy(sshFailure(this.host, this.exit.code, this.stderr));
  }

  override _read(): void {
    this.child.stdout!.resume();
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    const stdin = this.child.stdin!;
    if (stdin.destroyed) return cb();
    if (stdin.write(chunk)) cb();
    else {
      const done = () => {
        stdin.off('drain', done).off('close', done);
        cb();
      };
      stdin.on('drain', done).on('close', done);
    }
  }

  override _final(cb: (err?: Error | null) => void): void {
    this.child.stdin!.end();
    cb();
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    this.child.stdout!.destroy();
    this.child.stderr!.destroy();
    this.child.stdin!.destroy();
    cb(err);
  }
}

/** The line of ssh's (or the far side's) stderr that tells what went wrong. */
function reason(stderr: string): string {
  const lines = stderr.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !/^Warning: Permanently added/.test(l));
  const telling = lines.find((l) => /^amux: /.test(l)) ?? lines[lines.length - 1] ?? '';
  return telling.length > 300 ? `${telling.slice(0, 300)}…` : telling;
}

/** ssh exited without an answer: one line naming the host and the fix (src/guides/remote.md). */
export function sshFailure(host: SshHost, code: number | null, stderr: string): AmuxError {
  const why = reason(stderr);
  const u = host.url;
  if (code === 255) {
    if (/Permission denied|Too many authentication failures|Authentication failed|no mutual signature/i.test(stderr)) {
      return new AmuxError('host_auth_failed', `${u}: authentication failed (${why}); amux runs ssh without prompts (BatchMode): load the key into ssh-agent or name it in ~/.ssh/config`);
    }
    if (/Host key verification failed|HOST IDENTIFICATION HAS CHANGED|No .* host key is known/i.test(stderr)) {
      return new AmuxError('host_auth_failed', `${u}: host key verification failed (${why}); connect once with ssh to check and accept the host's key`);
    }
    return new AmuxError('host_unreachable', `${u}: cannot connect (${why || 'ssh exited with 255'}); check the address and port, and that sshd runs there (ConnectTimeout: AMUX_CONNECT_TIMEOUT)`);
  }
  if (code === 127 || /command not found|No such file or directory|not found/i.test(why)) {
    return new AmuxError('remote_amux_missing', `${u}: amux was not found there (${why || 'exit 127'}); install it there or set AMUX_REMOTE_PATH to its path on that host`);
  }
  if (/unknown daemon action|unknown command|unknown option/i.test(stderr)) {
    return new AmuxError('api_version_mismatch', `${u}: the amux there cannot serve remote clients (${why}); upgrade amux on that host`);
  }
  if (why.startsWith('amux: ')) return new AmuxError('daemon_unreachable', `${u}: ${why.slice(6)}`);
  return new AmuxError('host_unreachable', `${u}: ssh exited with ${code ?? 'a signal'}${why ? ` (${why})` : ''}`);
}
