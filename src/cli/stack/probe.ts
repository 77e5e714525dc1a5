import { spawn } from 'node:child_process';
import { get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';

/** Per attempt of an http or exec probe, at most this long (and never past the readiness deadline). */
const ATTEMPT_MS = 10_000;

/** How long one attempt may take: ATTEMPT_MS, never past what is left of the readiness deadline. */
export function attemptMs(remainingMs: number): number {
  return Math.min(ATTEMPT_MS, Math.max(100, remainingMs));
}

/**
 * One attempt, settled once: by the probe, by its deadline (a whole-attempt clock, not an idle
 * one: a server that sends a byte a second does not hold it) or by `signal` (Ctrl-C of `up`).
 * `stop` then ends what the attempt left running; it runs whichever way the attempt ended.
 */
function attempt(timeoutMs: number, signal: AbortSignal | undefined, body: (settle: (ok: boolean) => void) => () => void): Promise<boolean> {
  return new Promise((resolve) => {
    let done = false;
    let stop: () => void = () => {};
    const settle = (ok: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
      stop();
      resolve(ok);
    };
    const abort = () => settle(false);
    const timer = setTimeout(abort, timeoutMs);
    if (signal?.aborted) return settle(false);
    signal?.addEventListener('abort', abort);
    stop = body(settle);
    if (done) stop();
  });
}

/**
 * One look of an `http:` probe, from this machine (ADR 0035): a GET that answers 2xx. The status
 * decides; the body is never read, and the connection is closed at once, so a 200 that keeps
 * streaming (server-sent events, metrics) neither holds `up` nor keeps its process alive.
 */
export function httpProbe(url: string, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
  return attempt(attemptMs(timeoutMs), signal, (settle) => {
    const get = url.startsWith('https:') ? httpsGet : httpGet;
    const req = get(url, { agent: false }, (res) => settle((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300));
    req.on('error', () => settle(false));
    return () => req.destroy();
  });
}

/** The process groups of the exec probes under way, killed if this process exits before they end. */
const running = new Set<number>();
const killGroup = (pgid: number) => {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    /* already gone */
  }
};
process.on('exit', () => running.forEach(killGroup));

/** Kills every exec probe under way (their process groups): for a CLI about to die of a signal. */
export function killProbes(): void {
  running.forEach(killGroup);
  running.clear();
}

/**
 * One look of an `exec:` probe, on this machine (ADR 0035): `sh -c CMD` exits 0. It runs in a
 * process group of its own, killed (SIGKILL) once the attempt is over, whether it exited, ran out
 * of time or was interrupted: a probe that ignores TERM, or left children behind, never outlives
 * its attempt.
 */
export function execProbe(command: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
  return attempt(attemptMs(timeoutMs), signal, (settle) => {
    const child = spawn('sh', ['-c', command], { cwd, env, stdio: 'ignore', detached: true });
    const pgid = child.pid;
    if (pgid !== undefined) running.add(pgid);
    child.on('error', () => settle(false));
    child.on('exit', (code) => settle(code === 0));
    return () => {
      if (pgid === undefined) return;
      running.delete(pgid);
      killGroup(pgid);
    };
  });
}
