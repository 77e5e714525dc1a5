import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

/**
 * Reproductions of the tmux server crashes of control mode (ADR 0037, ADR 0067), each on a private
 * server of its own. Every probe answers whether the server died; the script
 * `scripts/tmux-control-crashes.ts` repeats them per tmux version, the tests assert on them.
 */

/** A private tmux server: its socket, and tmux run against it. */
export class PrivateServer {
  readonly dir = mkdtempSync('/tmp/amux-crash-');
  readonly socket = join(this.dir, 'tmux.sock');

  constructor(readonly bin = 'tmux') {}

  /** Runs one tmux command; resolves to its exit code and output (never rejects). */
  tmux(args: readonly string[], input?: string): Promise<{ code: number; out: string }> {
    return new Promise((resolve) => {
      const child = execFile(this.bin, ['-S', this.socket, '-f', '/dev/null', ...args], { env: { ...process.env, TMUX: '' }, timeout: 60_000 }, (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: `${stdout}${stderr}` }),
      );
      if (input !== undefined) child.stdin?.end(input);
    });
  }

  /** Whether a server answers on the socket. */
  async alive(): Promise<boolean> {
    return (await this.tmux(['list-sessions'])).code === 0;
  }

  /** Ends the server (if it runs) and removes its directory. */
  async dispose(): Promise<void> {
    await this.tmux(['kill-server']);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** tmux's client protocol (tmux-protocol.h, the same from 3.2 to 3.7): enough to be a client that never finishes identifying. */
const PROTOCOL_VERSION = 8;
const MSG_IDENTIFY_LONGFLAGS = 111;
const CLIENT_CONTROL = 0x2000n;

/**
 * A client that says it is a control client and never says it is done identifying. Until a
 * client's MSG_IDENTIFY_DONE, tmux < 3.7 has it flagged as a control client without the control
 * state that a notification is written into: any control notification in that window dereferences
 * NULL (tmux GitHub issue 4980). A real `tmux -C` client passes through the same window while its
 * identify messages arrive (they take several reads of the server: two carry file descriptors).
 */
export function halfIdentifiedControlClient(socket: string): Promise<{ close: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const s = connect(socket);
    s.on('error', reject);
    s.on('connect', () => {
      // imsg header: type, length (u16 + u16 flags before 3.6, u32 since: the same bytes when flags are 0), peer id (the protocol version), pid.
      const msg = Buffer.alloc(16 + 8);
      msg.writeUInt32LE(MSG_IDENTIFY_LONGFLAGS, 0);
      msg.writeUInt32LE(msg.length, 4);
      msg.writeUInt32LE(PROTOCOL_VERSION, 8);
      msg.writeUInt32LE(process.pid, 12);
      msg.writeBigUInt64LE(CLIENT_CONTROL, 16);
      s.write(msg, () =>
        resolve({
          close: () =>
            new Promise<void>((done) => {
              s.on('close', () => done());
              s.end();
            }),
        }),
      );
    });
  });
}

/** What a probe found: whether the server died, and what it did to get there. */
export interface ProbeResult {
  crashed: boolean;
  detail: string;
}

/** Crash 1, made certain: a notification (another client's new-session) reaches a control client that has not finished identifying. */
export async function probeHalfIdentified(bin = 'tmux'): Promise<ProbeResult> {
  const srv = new PrivateServer(bin);
  try {
    await srv.tmux(['new-session', '-d', '-s', 'keep', 'sleep 300']);
    const half = await halfIdentifiedControlClient(srv.socket);
    const created = await srv.tmux(['new-session', '-d', '-s', 'other', 'sleep 300']);
    const crashed = !(await srv.alive());
    if (!crashed) await half.close();
    return { crashed, detail: `new-session by another client: ${created.out.trim() || 'ok'}` };
  } finally {
    await srv.dispose();
  }
}

/** Crash 1b (tmux GitHub issue 5004): a control client that leaves before it has finished identifying. */
export async function probeLostBeforeIdentified(bin = 'tmux'): Promise<ProbeResult> {
  const srv = new PrivateServer(bin);
  try {
    await srv.tmux(['new-session', '-d', '-s', 'keep', 'sleep 300']);
    const half = await halfIdentifiedControlClient(srv.socket);
    await half.close();
    return { crashed: !(await srv.alive()), detail: 'closed after its flags' };
  } finally {
    await srv.dispose();
  }
}

/**
 * Crash 1 as ADR 0037 met it, a race: a real `tmux -C attach` while eleven other clients create
 * sessions. Whether one run crashes depends on timing (10 of 20 when found).
 */
export async function probeAttachWhileCreating(bin = 'tmux', creators = 11): Promise<ProbeResult> {
  const srv = new PrivateServer(bin);
  try {
    await srv.tmux(['new-session', '-d', '-s', 'keep', 'sleep 300']);
    const creating = Array.from({ length: creators }, () => srv.tmux(['new-session', '-d', 'sleep 300']));
    const attach = new Promise<void>((resolve) => {
      const c = spawn(bin, ['-S', srv.socket, '-f', '/dev/null', '-C', 'attach', '-t', '=keep'], { stdio: ['pipe', 'ignore', 'ignore'], env: { ...process.env, TMUX: '' } });
      c.on('close', () => resolve());
      c.stdin.end('display-message -p x\n');
    });
    await Promise.all([attach, ...creating]);
    return { crashed: !(await srv.alive()), detail: `${creators} creators beside a -C attach` };
  } finally {
    await srv.dispose();
  }
}

/**
 * Crash 2, made certain: the control client's session has `destroy-unattached`; the client is
 * leaving (its input ended) but has not gone yet (stopped here; a busy machine does the same for a
 * moment), and another client comes and goes. tmux's sweep of unattached sessions then destroys the
 * session without detaching the leaving client from it (fixed after 3.7c, GitHub issue 5497), and
 * the server dereferences the destroyed session.
 */
export async function probeDestroyUnattached(bin = 'tmux'): Promise<ProbeResult> {
  const srv = new PrivateServer(bin);
  try {
    await srv.tmux(['new-session', '-d', '-s', 'keep', 'sleep 300']);
    const c = spawn(bin, ['-S', srv.socket, '-f', '/dev/null', '-C', 'new-session', '-s', 'ctl', 'sleep 300'], { stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, TMUX: '' } });
    const gone = new Promise<void>((resolve) => c.on('close', () => resolve()));
    c.stdout.resume();
    c.stdin.write('set-option destroy-unattached on\n');
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      if ((await srv.tmux(['show-options', '-t', '=ctl', 'destroy-unattached'])).out.includes('on')) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    c.kill('SIGSTOP');
    c.stdin.end(); // the server reads the client's input itself: it sees the end while the client is stopped
    // Clients that come and go, each a sweep: one after the server has seen the end is enough.
    for (let i = 0; i < 10 && (await srv.alive()); i++);
    c.kill('SIGCONT');
    await gone;
    return { crashed: !(await srv.alive()), detail: 'a client left while the control client was leaving' };
  } finally {
    await srv.dispose();
  }
}

/** Runs `n` copies of `make()` at once. */
function together<T>(n: number, make: (i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => make(i)));
}

/** amux's way, 1: the client starts the server, then its calls and other clients' come and go at once. */
export async function probeOwnServer(bin = 'tmux', rounds = 3): Promise<ProbeResult & { controlled: boolean; first: string }> {
  const { Tmux } = await import('../../src/tmux/tmux.js');
  const srv = new PrivateServer(bin);
  const tmux = new Tmux(srv.socket, bin, 'own-server');
  try {
    // The daemon's first creates, at once: the first starts the server with the client, the others wait for it.
    await together(4, (i) => tmux.run(['new-session', '-d', '-s', `a${i}`, '--', 'sleep', '300']));
    const first = (await srv.tmux(['list-sessions', '-F', '#{session_id} #{session_name}'])).out.split('\n')[0] ?? '';
    for (let r = 0; r < rounds && (await srv.alive()); r++) {
      await Promise.all([
        together(8, (i) => tmux.run(['new-session', '-d', '-s', `r${r}-${i}`, '--', 'sleep', '300'])),
        together(4, (i) => srv.tmux(['new-session', '-d', '-s', `x${r}-${i}`, 'sleep 300'])),
        together(4, (i) => srv.tmux(['kill-session', '-t', `=a${i}`])),
        together(4, () => srv.tmux(['list-sessions'])),
        together(4, (i) => tmux.run(['kill-session', '-t', `=x${r}-${i}`]).catch(() => '')),
      ]);
    }
    return { crashed: !(await srv.alive()), controlled: tmux.controlled, first, detail: `${rounds} rounds of creates and kills beside the client` };
  } finally {
    tmux.close();
    await srv.dispose();
  }
}

/**
 * amux's way, 2: a server it did not start, with another client creating sessions in a loop (the
 * pressure of crash 1): the daemon's calls run as processes and no control client joins.
 */
export async function probeForeignServer(bin = 'tmux', use: 'own-server' | 'any-server' = 'own-server', creators = 11): Promise<ProbeResult & { controlled: boolean }> {
  const { Tmux } = await import('../../src/tmux/tmux.js');
  const srv = new PrivateServer(bin);
  const tmux = new Tmux(srv.socket, bin, use);
  try {
    await srv.tmux(['new-session', '-d', '-s', 'keep', 'sleep 300']);
    let stop = false;
    const loop = (async () => {
      for (let i = 0; !stop && i < 400; i++) await srv.tmux(['new-session', '-d', 'sleep 300']);
    })();
    let controlled = false;
    for (let r = 0; r < 3; r++) {
      await together(creators, (i) => tmux.run(['new-session', '-d', '-s', `t${r}-${i}`, '--', 'sleep', '300']).catch(() => ''));
      await tmux.run(['list-sessions']).catch(() => '');
      controlled ||= tmux.controlled;
    }
    stop = true;
    await loop;
    return { crashed: !(await srv.alive()), controlled, detail: `${use}: calls beside a client creating sessions in a loop` };
  } finally {
    tmux.close();
    await srv.dispose();
  }
}

/** amux's way, 3: the daemon stops (its client kills its own session and leaves) while other clients come and go. */
export async function probeClose(bin = 'tmux'): Promise<ProbeResult> {
  const { Tmux } = await import('../../src/tmux/tmux.js');
  const srv = new PrivateServer(bin);
  const tmux = new Tmux(srv.socket, bin, 'own-server');
  try {
    await tmux.run(['new-session', '-d', '-s', 'keep', '--', 'sleep', '300']);
    const others = together(8, () => srv.tmux(['list-sessions']));
    tmux.close();
    await others;
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      const names = (await srv.tmux(['list-sessions', '-F', '#{session_name}'])).out;
      if (!names.includes('_amux-control')) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    await together(4, () => srv.tmux(['list-sessions']));
    return { crashed: !(await srv.alive()), detail: 'close() beside clients that come and go' };
  } finally {
    await srv.dispose();
  }
}
