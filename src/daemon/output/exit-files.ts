import { existsSync, readFileSync, statSync } from 'node:fs';
import { exitFile, shellExitFile, startFile } from '../../paths.js';
import { isMainJob } from '../../core/job-end.js';
import type { SessionRecord } from '../../core/records.js';
import type { DaemonContext } from '../context.js';

/** Parses an exit-status file's text; null while it is empty or half-written. */
export function parseExitStatus(text: string): number | null {
  const m = /^(\d{1,3})\n$/.exec(text);
  return m ? Number(m[1]) : null;
}

/** Reads the exit status of job `seq` of session `id`, written by the session's shell. */
export function readExitStatus(ctx: DaemonContext, id: string, seq: number): number | null {
  const file = exitFile(ctx.paths, id, seq);
  // The usual answer is "not finished": checked without the cost of a thrown ENOENT.
  if (!existsSync(file)) return null;
  try {
    return parseExitStatus(readFileSync(file, 'latin1'));
  } catch {
    return null;
  }
}

/** The status the session's shell exited with, as its EXIT trap wrote it; null before, or from a shell of an older amux (an empty file). */
export function readShellExit(ctx: DaemonContext, id: string): number | null {
  try {
    return parseExitStatus(readFileSync(shellExitFile(ctx.paths, id), 'latin1'));
  } catch {
    return null;
  }
}

/**
 * When job `seq` of session `id` ended: its exit file's mtime, written by the shell as the job
 * ended, so that an end seen late (by a daemon that was down) keeps its real time. Never later
 * than now; now when the file cannot be read.
 */
export function exitTime(ctx: DaemonContext, id: string, seq: number, now = Date.now()): number {
  try {
    return Math.min(now, Math.round(statSync(exitFile(ctx.paths, id, seq)).mtimeMs));
  } catch {
    return now;
  }
}

/**
 * Splits a name in `exits/`: `<sessionId>.<seq>` (job seq ended), `<sessionId>.<seq>.start` (it
 * started; `start` is true) or `<sessionId>.shell` (the shell exited; seq 0).
 */
export function parseExitFileName(name: string): { id: string; seq: number; start: boolean } | null {
  const m = /^([0-9a-f]{8})\.(\d+|shell)(\.start)?$/.exec(name);
  if (!m || (m[2] === 'shell' && m[3])) return null;
  return { id: m[1]!, seq: m[2] === 'shell' ? 0 : Number(m[2]), start: m[3] !== undefined };
}

/** The exit status of a command session's main command (job 1); null while it runs, and for a shell session. */
export function mainExit(ctx: DaemonContext, s: Pick<SessionRecord, 'id' | 'hasCommand'>): number | null {
  return isMainJob(s, 1) ? readExitStatus(ctx, s.id, 1) : null;
}

/** The content of job `seq`'s start notice (a background job's pid, or `fg`), or null when there is none yet. */
export function readStartNotice(ctx: DaemonContext, id: string, seq: number): string | null {
  try {
    const text = readFileSync(startFile(ctx.paths, id, seq), 'latin1');
    return text.endsWith('\n') ? text.trim() : null; // whole only once it ends with its newline
  } catch {
    return null;
  }
}
