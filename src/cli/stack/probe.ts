import { spawn } from 'node:child_process';
import { get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';

/** Per attempt of an http or exec probe, at most this long (and never past the readiness deadline). */
const ATTEMPT_MS = 10_000;

/** One look of an `http:` probe, from this machine (ADR 0035): a GET that answers 2xx. */
export function httpProbe(url: string, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const get = url.startsWith('https:') ? httpsGet : httpGet;
    const req = get(url, { timeout: Math.min(ATTEMPT_MS, Math.max(100, timeoutMs)) }, (res) => {
      res.resume();
      resolve((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

/** One look of an `exec:` probe, on this machine (ADR 0035): `sh -c CMD` exits 0. */
export function execProbe(command: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { cwd, env, stdio: 'ignore', timeout: Math.min(ATTEMPT_MS, Math.max(100, timeoutMs)) });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
}
