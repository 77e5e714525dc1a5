import { setTimeout as sleep } from 'node:timers/promises';
import { spawn } from 'node:child_process';
import { closeSync, constants, openSync, readFileSync, statSync } from 'node:fs';
import { checkHome, NO_FOLLOW_WRITE } from '../home.js';
import { join } from 'node:path';
import { AmuxError, isErrorCode } from '../errors.js';
import { ensureDir, type AmuxPaths } from '../paths.js';
import { ROUTES } from '../protocol/routes.js';
import { isNotRunning, send } from './http.js';

const START_TIMEOUT_MS = 15_000;

/** Path of the daemon's entry script, next to this file in the build. */
export function daemonEntry(): string {
  return join(__dirname, '..', 'daemon', 'entry.js');
}

/** `amux daemon run`: the daemon in this process, until it is stopped. */
export function runDaemonHere(): Promise<never> {
  require(daemonEntry());
  return new Promise<never>(() => undefined);
}

/**
 * Starts a detached daemon and waits until it answers. Many CLIs may do this at once: every
 * daemon but one loses the lock and exits 0, and every CLI waits for the one that won.
 */
export async function launchDaemon(paths: AmuxPaths): Promise<void> {
  try {
    ensureDir(paths.home);
  } catch (err) {
    throw new AmuxError('daemon_unreachable', `cannot create AMUX_HOME ${paths.home}: ${(err as NodeJS.ErrnoException).code ?? err}; set AMUX_HOME to a writable directory`, { cause: err });
  }
  checkHome(paths); // before the daemon log is opened in it
  const launchedAt = Date.now() - 1000;
  let child = startDaemon(paths);
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (let delay = 10; Date.now() < deadline; delay = Math.min(delay * 1.5, 100)) {
    try {
      (await send(paths.socket, ROUTES.health.method, ROUTES.health.path)).destroy();
      return;
    } catch (err) {
      if (!isNotRunning(err)) throw err;
    }
    const exit = child.exit;
    // Our daemon failed, or lost the lock race to one that then failed: a fresh error file tells why.
    if (exit !== null && (exit !== 0 || errorWrittenSince(paths, launchedAt))) throw startupError(paths, exit, launchedAt);
    // It lost the lock to a daemon that does not answer: one that is stopping. Try again.
    if (exit === 0) child = startDaemon(paths);
    await sleep(delay);
  }
  throw new AmuxError('daemon_unreachable', `the amux daemon did not start within ${START_TIMEOUT_MS / 1000}s; see ${paths.daemonLog}`);
}

/** Spawns a detached daemon; `exit` becomes its exit code once it ends. */
function startDaemon(paths: AmuxPaths): { exit: number | null } {
  const state: { exit: number | null } = { exit: null };
  const logFd = openSync(paths.daemonLog, NO_FOLLOW_WRITE | constants.O_APPEND, 0o600);
  const child = spawn(process.execPath, [daemonEntry()], { detached: true, stdio: ['ignore', logFd, logFd], env: process.env });
  closeSync(logFd);
  child.on('exit', (code) => {
    state.exit = code ?? 1;
  });
  child.unref();
  return state;
}

function errorWrittenSince(paths: AmuxPaths, since: number): boolean {
  try {
    return statSync(paths.startupError).mtimeMs >= since;
  } catch {
    return false;
  }
}

function startupError(paths: AmuxPaths, code: number, since: number): AmuxError {
  if (errorWrittenSince(paths, since)) {
    try {
      const { error } = JSON.parse(readFileSync(paths.startupError, 'utf8'));
      if (isErrorCode(error.code)) return new AmuxError(error.code, error.message);
    } catch {
      /* fall through */
    }
  }
  return new AmuxError('daemon_unreachable', `the amux daemon exited with code ${code} while starting; see ${paths.daemonLog}`);
}
