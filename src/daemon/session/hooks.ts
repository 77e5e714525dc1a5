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
 * Notices (src/guides/sessions.md "Notices"): when a session ends, its `run --on-end` command, and config.json's
 * `hooks.onEnd` (every end) and `hooks.onFailure` (failed or expired), each run by `bash -c` in the
 * session's directory with the daemon's environment plus AMUX_ID, AMUX_NAME, AMUX_STATUS,
 * AMUX_EXIT_CODE, AMUX_SIGNAL and AMUX_COMMAND (cut to 64 KiB). A hook that fails (non-zero, killed, timed out,
 * not started) is an `error` event on the session; it never touches the daemon or other hooks.
 */
export function watchHooks(ctx: DaemonContext): void {
  // `ended` comes once per end, from the daemon that saw it: a later daemon's `rm` or prune of the
  // session, or any other change of its row, never runs its hooks again.
  ctx.bus.on('ended', (id: string) => {
    const s = ctx.store.getSession(id);
    if (!s || !isTerminal(s.status)) return;
    for (const [which, command] of hooksFor(ctx, s)) runHook(ctx, s, which, command);
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
    AMUX_SIGNAL: s.signal ?? '', ...commandEnv(s.command ?? ''),
  };
  const fail = (why: string) => reportError(ctx, s.id, `${which} hook ${JSON.stringify(command.slice(0, 200))} ${why}`);
  let child;
  try {
    child = spawn('bash', ['-c', command], { cwd: existsSync(s.cwd) ? s.cwd : homedir(), env, stdio: 'ignore', detached: true });
  } catch (err) {
    return fail(`could not start: ${(err as Error).message}`);
  }
  // The limit holds for the hook's whole process group, what it left in the background too: at
  // HOOK_TIMEOUT_MS whatever of it still runs is killed, whether or not its bash has exited.
  let exited = false;
  const timer = setTimeout(() => {
    const pgid = child.pid!;
    if (!exited) return killGroup(pgid);
    if (!groupAlive(pgid)) return;
    killGroup(pgid);
    fail(`left processes running past its ${HOOK_TIMEOUT_MS / 1000}s limit: they were killed`);
  }, HOOK_TIMEOUT_MS);
  timer.unref();
  child.on('error', (err) => {
    clearTimeout(timer);
    fail(`could not start: ${err.message}`);
  });
  child.on('exit', (code, signal) => {
    exited = true;
    if (code === 0) {
      ctx.store.addEvent({ sessionId: s.id, jobId: null, type: 'hook_ran', data: { hook: which }, createdAt: Date.now() });
      return;
    }
    fail(signal ? `was killed by ${signal}${signal === 'SIGKILL' ? ` (over ${HOOK_TIMEOUT_MS / 1000}s?)` : ''}` : `exited with code ${code}`);
  });
}

/**
 * The most of the command AMUX_COMMAND holds: one environment string longer than 128 KiB
 * (Linux's MAX_ARG_STRLEN) would fail the hook's exec with E2BIG.
 */
export const HOOK_COMMAND_BYTES = 64 * 1024;

/** AMUX_COMMAND, cut to HOOK_COMMAND_BYTES at a character's start, and AMUX_COMMAND_TRUNCATED=1 when cut. */
export function commandEnv(command: string): Record<string, string> {
  const bytes = Buffer.from(command, 'utf8');
  if (bytes.length <= HOOK_COMMAND_BYTES) return { AMUX_COMMAND: command };
  let end = HOOK_COMMAND_BYTES;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--; // not inside a UTF-8 character
  return { AMUX_COMMAND: bytes.subarray(0, end).toString('utf8'), AMUX_COMMAND_TRUNCATED: '1' };
}

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    /* gone */
  }
}

/** Whether a process of the group still runs (signal 0 tests without signalling). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
