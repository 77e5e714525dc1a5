import { existsSync, readFileSync } from 'node:fs';
import { exitFile } from '../paths.js';
import type { SessionRecord } from '../core/records.js';
import type { DaemonContext } from './context.js';

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
  return s.hasCommand ? readExitStatus(ctx, s.id, 1) : null;
}
