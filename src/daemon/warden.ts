import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { AmuxPaths } from '../paths.js';
import { DEFAULT_GRACE_MS } from '../process/terminate.js';
import { WARDEN_SCRIPT } from '../shell/warden.js';
import { logLine } from './log.js';

/**
 * Starts this daemon's warden (ADR 0066, src/shell/warden.ts): one bash in a Unix session of its own,
 * its stdin a pipe whose write end only this process holds (unreferenced: it never keeps the daemon
 * up). It does nothing until this process is gone or stopping; then it ends what is left of each session whose
 * pane closes while no daemon runs (ADR 0027).
 */
export function startWarden(paths: AmuxPaths, bash: string): void {
  const child = spawn(bash, ['--noprofile', '--norc', '-c', WARDEN_SCRIPT, 'amux-warden', paths.home, String(Math.ceil(DEFAULT_GRACE_MS / 1000)), paths.pidFile], {
    cwd: '/', detached: true, stdio: ['pipe', 'pipe', 'ignore'],
  });
  child.on('error', (err) => logLine(`could not start the warden: ${err.message}`));
  child.stdin.on('error', () => undefined);
  child.stdout.on('error', () => undefined);
  unref(child.stdin);
  unref(child.stdout);
  child.unref();
  warden = child;
}

let warden: ChildProcessByStdio<Writable, Readable, null> | null = null;

function unref(stream: unknown): void {
  (stream as { unref?: () => void }).unref?.();
}

/**
 * A daemon that stops (sessions keep running) tells its warden first, and waits (up to 3 s) until the
 * warden has found the sessions' panes: a \`tmux kill-server\` right after \`daemon stop\` must not close
 * them before the warden knows them (ADR 0066). A daemon that is killed cannot; what its warden missed
 * is ended by the next daemon's start (ADR 0027).
 */
export async function handOverToWarden(): Promise<void> {
  const w = warden;
  if (!w || w.exitCode !== null || w.stdin.destroyed) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      w.stdout.off('data', done);
      resolve();
    };
    const timer = setTimeout(done, 3000);
    w.stdout.on('data', done);
    w.stdin.write('stop\n');
  });
}
