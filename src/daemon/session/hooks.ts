import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import type { SessionRecord } from '../../core/records.js';
import { isTerminal } from '../../core/status.js';
import type { DaemonContext } from '../context.js';
import { reportError } from './errors.js';

/** A hook that runs longer than this is killed (its process group), and that is its failure. */
export const HOOK_TIMEOUT_MS = 60_000;

/**
 * Notices (README "Notices"): when a session ends, its `run --on-end` command, and config.json's
 * `hooks.onEnd` (every end) and `hooks.onFailure` (failed or expired), each run by `bash -c` in the
 * session's directory with the daemon's environment plus AMUX_ID, AMUX_NAME, AMUX_STATUS,
 * AMUX_EXIT_CODE, AMUX_SIGNAL and AMUX_COMMAND. A hook that fails (non-zero, killed, timed out,
 * not started) is an `error` event on the session; it never touches the daemon or other hooks.
 */
export function watchHooks(ctx: DaemonContext): void {
  const ran = new Set<string>();
  ctx.bus.on('change', (id: string) => {
    if (ran.has(id)) return;
    const s = ctx.store.getSession(id);
    if (!s || !isTerminal(s.status)) return;
    const commands = hooksFor(ctx, s);
    if (commands.length === 0) return;
    ran.add(id);
    for (const [which, command] of commands) runHook(ctx, s, which, command);
  });
}

function hooksFor(ctx: DaemonContext, s: SessionRecord): [string, string][] {
  const out: [string, string][] = [];
  if (s.onEnd) out.push(['--on-end', s.onEnd]);
  const { onEnd, onFailure } = ctx.settings.hooks;
  if (onEnd) out.push(['hooks.onEnd', onEnd]);
  if (onFailure && (s.status === 'failed' || s.status === 'expired')) out.push(['hooks.onFailure', onFailure]);
  return out;
}

function runHook(ctx: DaemonContext, s: SessionRecord, which: string, command: string): void {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    AMUX_ID: s.id, AMUX_NAME: s.name ?? '', AMUX_STATUS: s.status, AMUX_EXIT_CODE: s.exitCode === null ? '' : String(s.exitCode),
    AMUX_SIGNAL: s.signal ?? '', AMUX_COMMAND: s.command ?? '',
  };
  const fail = (why: string) => reportError(ctx, s.id, `${which} hook ${JSON.stringify(command.slice(0, 200))} ${why}`);
  let child;
  try {
    child = spawn('bash', ['-c', command], { cwd: existsSync(s.cwd) ? s.cwd : homedir(), env, stdio: 'ignore', detached: true });
  } catch (err) {
    return fail(`could not start: ${(err as Error).message}`);
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
  }, HOOK_TIMEOUT_MS);
  timer.unref();
  child.on('error', (err) => {
    clearTimeout(timer);
    fail(`could not start: ${err.message}`);
  });
  child.on('exit', (code, signal) => {
    clearTimeout(timer);
    if (code === 0) {
      ctx.store.addEvent({ sessionId: s.id, jobId: null, type: 'hook_ran', data: { hook: which }, createdAt: Date.now() });
      return;
    }
    fail(signal ? `was killed by ${signal}${signal === 'SIGKILL' ? ` (over ${HOOK_TIMEOUT_MS / 1000}s?)` : ''}` : `exited with code ${code}`);
  });
}
