import { spawn } from 'node:child_process';
import type { AmuxPaths } from '../paths.js';
import { DEFAULT_GRACE_MS } from '../process/terminate.js';
import { WARDEN_SCRIPT } from '../shell/warden.js';
import { logLine } from './log.js';

/**
 * Starts this daemon's warden (ADR 0066, src/shell/warden.ts): one bash in a Unix session of its own,
 * its stdin a pipe whose write end only this process holds (unreferenced: it never keeps the daemon
 * up). It does nothing until this process is gone; then it ends what is left of each session whose
 * pane closes while no daemon runs (ADR 0027).
 */
export function startWarden(paths: AmuxPaths, bash: string): void {
  const child = spawn(bash, ['--noprofile', '--norc', '-c', WARDEN_SCRIPT, 'amux-warden', paths.home, String(Math.ceil(DEFAULT_GRACE_MS / 1000)), paths.pidFile], {
    cwd: '/', detached: true, stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.on('error', (err) => logLine(`could not start the warden: ${err.message}`));
  child.stdin?.on('error', () => undefined);
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  child.unref();
}
