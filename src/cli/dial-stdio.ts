import { connect, type Socket } from 'node:net';
import { toAmuxError } from '../errors.js';
import { amuxPaths } from '../paths.js';

/**
 * bin/amux calls this for `amux daemon dial-stdio` without loading the CLI's bundle (ADR 0024):
 * it runs once per remote request. Errors as the CLI reports them: one line, the code's exit.
 */
export function main(): void {
  process.stdout.on('error', () => process.exit(0)); // the client went away
  dialStdio().then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      const e = toAmuxError(err);
      process.stderr.write(`amux: ${e.message}\n`);
      process.exitCode = e.exitCode;
    },
  );
}

/**
 * `amux daemon dial-stdio`: this process's stdin and stdout become a connection to the local
 * daemon's socket, started first when it is not running. The far end of `amux --host ssh://…`
 * (src/guides/remote.md, ADR 0024); a fast path, since every remote request starts one.
 * The client never ends its side of a request, so stdin's end means it went away: the
 * connection to the daemon is closed then, which ends whatever it was following.
 */
export async function dialStdio(): Promise<number> {
  const paths = amuxPaths();
  let socket: Socket;
  try {
    socket = await open(paths.socket);
  } catch (err) {
    if (!notRunning(err)) throw err;
    const { launchDaemon } = require('../client/launcher.js') as typeof import('../client/launcher.js');
    await launchDaemon(paths);
    socket = await open(paths.socket);
  }
  return new Promise<number>((resolve) => {
    const stdin = process.stdin;
    stdin.pipe(socket, { end: false });
    stdin.on('end', () => socket.destroy());
    stdin.on('error', () => socket.destroy());
    socket.on('error', () => undefined); // the daemon went away: the end of the stream tells the client
    socket.pipe(process.stdout, { end: false });
    socket.on('close', () => {
      stdin.unpipe(socket);
      stdin.pause();
      stdin.destroy();
      process.stdout.end(() => resolve(0));
    });
  });
}

function open(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(path);
    s.once('connect', () => {
      s.off('error', reject);
      resolve(s);
    });
    s.once('error', reject);
  });
}

function notRunning(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ECONNREFUSED';
}
