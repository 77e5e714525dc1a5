import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AmuxError, isErrorCode } from '../errors.js';
import type { AmuxPaths } from '../paths.js';
import { isNotRunning, send } from './http.js';

const START_TIMEOUT_MS = 15_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Path of the daemon's entry script, next to this file in the build. */
export function daemonEntry(): string {
  return fileURLToPath(new URL('../daemon/entry.js', import.meta.url));
}

/**
 * Starts a detached daemon and waits until it answers. Many CLIs may do this at once: every
 * daemon but one loses the lock and exits 0, and every CLI waits for the one that won.
 */
export async function launchDaemon(paths: AmuxPaths): Promise<void> {
  mkdirSync(paths.home, { recursive: true, mode: 0o700 });
  const logFd = openSync(paths.daemonLog, 'a', 0o600);
  let exit: number | null = null;
  const child = spawn(process.execPath, [daemonEntry()], { detached: true, stdio: ['ignore', logFd, logFd], env: process.env });
  closeSync(logFd);
  child.on('exit', (code) => {
    exit = code ?? 1;
  });
  child.unref();
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (let delay = 10; Date.now() < deadline; delay = Math.min(delay * 1.5, 100)) {
    try {
      const res = await send(paths.socket, 'GET', '/v1/health');
      res.resume();
      return;
    } catch (err) {
      if (!isNotRunning(err)) throw err;
    }
    if (exit !== null && exit !== 0) throw startupError(paths, exit);
    await sleep(delay);
  }
  throw new AmuxError('daemon_unreachable', `the amux daemon did not start within ${START_TIMEOUT_MS / 1000}s; see ${paths.daemonLog}`);
}

function startupError(paths: AmuxPaths, code: number): AmuxError {
  if (existsSync(paths.startupError)) {
    try {
      const { error } = JSON.parse(readFileSync(paths.startupError, 'utf8'));
      if (isErrorCode(error.code)) return new AmuxError(error.code, error.message);
    } catch {
      /* fall through */
    }
  }
  return new AmuxError('daemon_unreachable', `the amux daemon exited with code ${code} while starting; see ${paths.daemonLog}`);
}
