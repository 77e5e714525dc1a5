import { setTimeout as sleep } from 'node:timers/promises';
import { spawn } from 'node:child_process';
import { closeSync, constants, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { checkHome, NO_FOLLOW_WRITE } from '../home.js';
import { join } from 'node:path';
import { AmuxError, isErrorCode } from '../errors.js';
import { ensureDir, type AmuxPaths } from '../paths.js';
import { ROUTES } from '../protocol/routes.js';
import { isNotRunning, send } from './http.js';
import { daemonEnv, DAEMON_NODE_FLAGS } from '../daemon-options.js';
import { forgetCaches } from '../cli/code-cache.js';

const START_TIMEOUT_MS = 15_000;

/** The daemon's script in the build: its entry bundled with its libraries (ADR 0014). */
export function daemonEntry(): string {
  return join(__dirname, '..', 'daemon', 'amuxd.js');
}

/** `amux daemon run`: the daemon in this process, until it is stopped. */
export function runDaemonHere(): Promise<never> {
  // Not from the code cache: this process lacks the daemon's V8 flags, and gets them as it runs (ADR 0069).
  forgetCaches();
  require(daemonEntry());
  return new Promise<never>(() => undefined);
}

/**
 * Starts a detached daemon and waits until it answers. Many CLIs may do this at once: one of them
 * claims the start (`daemon.starting`) and spawns the daemon, the others only wait for its answer
 * (ADR 0014): 50 CLIs at once start one node process, not 50 that lose the daemon lock. The daemon
 * lock stays what keeps it to one daemon; the claim only saves the work.
 */
export async function launchDaemon(paths: AmuxPaths): Promise<void> {
  try {
    ensureDir(paths.home);
  } catch (err) {
    throw new AmuxError('daemon_unreachable', `cannot create AMUX_HOME ${paths.home}: ${(err as NodeJS.ErrnoException).code ?? err}; set AMUX_HOME to a writable directory`, { cause: err });
  }
  checkHome(paths); // before the daemon log is opened in it
  const launchedAt = Date.now() - 1000;
  const waitingSince = Date.now() - 50; // a file's mtime may lag the clock by a tick
  let child: { exit: number | null } | null = null;
  const deadline = Date.now() + START_TIMEOUT_MS;
  try {
    // Asked every 10–25 ms: a connection refused costs a few µs, and a daemon that answers 250 ms
    // in (its bundle from the code cache, ADR 0069) is found then, not up to 100 ms later.
    for (let delay = 10; Date.now() < deadline; delay = Math.min(delay * 1.5, 25)) {
      if (!child && claimStart(paths)) child = startDaemon(paths);
      try {
        (await send(paths.socket, ROUTES.health.method, ROUTES.health.path)).destroy();
        return;
      } catch (err) {
        if (!isNotRunning(err)) throw err;
      }
      const exit = child ? child.exit : null;
      // Ours failed, or lost the lock race to one that then failed: a fresh error file tells why.
      if (exit !== null && (exit !== 0 || errorWrittenSince(paths, launchedAt))) throw startupError(paths, exit, launchedAt);
      // The daemon of the CLI that claimed the start failed.
      if (!child && errorWrittenSince(paths, waitingSince)) throw startupError(paths, 1, waitingSince);
      // Ours lost the lock to a daemon that does not answer: one that is stopping. Try again.
      if (child && exit === 0) child = startDaemon(paths);
      await sleep(delay);
    }
  } finally {
    if (child) releaseStart(paths);
  }
  throw new AmuxError('daemon_unreachable', `the amux daemon did not start within ${START_TIMEOUT_MS / 1000}s; see ${paths.daemonLog}`);
}

/** Claims the start of the daemon, or finds it claimed by a live CLI (a dead one's claim is taken over). */
function claimStart(paths: AmuxPaths): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      // O_EXCL: never through a link, and only one CLI creates it.
      const fd = openSync(paths.startClaim, NO_FOLLOW_WRITE | constants.O_EXCL, 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (claimHolderAlive(paths)) return false;
    rmSync(paths.startClaim, { force: true });
  }
  return false;
}

/** Whether the CLI that claimed the start still runs (and has not held it past its own deadline). */
function claimHolderAlive(paths: AmuxPaths): boolean {
  try {
    const age = Date.now() - statSync(paths.startClaim).mtimeMs;
    if (age > START_TIMEOUT_MS + 1000) return false;
    const pid = Number(readFileSync(paths.startClaim, 'utf8').trim());
    if (!Number.isInteger(pid) || pid <= 0) return age < 1000; // being written
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function releaseStart(paths: AmuxPaths): void {
  try {
    if (readFileSync(paths.startClaim, 'utf8').trim() === String(process.pid)) rmSync(paths.startClaim, { force: true });
  } catch {
    /* gone already */
  }
}

/** Spawns a detached daemon; `exit` becomes its exit code once it ends. */
function startDaemon(paths: AmuxPaths): { exit: number | null } {
  const state: { exit: number | null } = { exit: null };
  const logFd = openSync(paths.daemonLog, NO_FOLLOW_WRITE | constants.O_APPEND, 0o600);
  // Not marked as a process of the session the CLI runs in (ADR 0027): its end must not end the daemon.
  const { AMUX_SESSION_ID: _own, ...env } = process.env;
  // Its bundle compiled from the code cache (ADR 0069): `node code-cache.js amuxd.js`.
  const child = spawn(process.execPath, [...DAEMON_NODE_FLAGS, join(__dirname, '..', 'cli', 'code-cache.js'), daemonEntry()], { detached: true, stdio: ['ignore', logFd, logFd], env: daemonEnv(env) });
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
