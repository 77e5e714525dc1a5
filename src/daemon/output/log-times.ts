import { closeSync, constants, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { markLine, parseMarks, type Mark } from '../../core/log-times.js';
import { readHomeFile } from '../../home.js';
import { sessionPaths } from '../../paths.js';
import type { DaemonContext } from '../context.js';
import { sessionsIn } from '../../store/snapshot.js';
import { logBytes } from './log-size.js';

/** A mark at most this often per session while output flows (README "Commands": logs --since). */
const MARK_EVERY_MS = 1000;

const FILE = 'log-times';
const last = new WeakMap<DaemonContext, Map<string, { bytes: number; at: number }>>();

function marksFile(ctx: DaemonContext, id: string): string {
  return join(sessionPaths(ctx.paths, id).dir, FILE);
}

/**
 * Notes that session `id`'s log holds `bytes` now: a mark when it grew and the last mark is at
 * least a second old (`force`: whenever it grew, at the session's end). A mark that cannot be
 * written (a full disk) is skipped: times are a help, never a reason to fail.
 */
export function markLog(ctx: DaemonContext, id: string, bytes: number, now = Date.now(), force = false): void {
  let seen = last.get(ctx);
  if (!seen) last.set(ctx, (seen = new Map()));
  const prev = seen.get(id);
  if (prev && (bytes <= prev.bytes || (!force && now - prev.at < MARK_EVERY_MS))) return;
  if (!prev && bytes === 0) return;
  seen.set(id, { bytes, at: now });
  let fd: number | null = null;
  try {
    fd = openSync(marksFile(ctx, id), constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
    writeSync(fd, markLine(bytes, now));
  } catch {
    /* the session's directory is gone (removed), or the disk is full */
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** Forgets what was noted of a session (removed). */
export function forgetMarks(ctx: DaemonContext, id: string): void {
  last.get(ctx)?.delete(id);
}

/** The marks of a session's log, oldest first; none for a session without output or files. */
export function readMarks(ctx: DaemonContext, id: string): Mark[] {
  try {
    return parseMarks(readHomeFile(marksFile(ctx, id)) ?? '');
  } catch {
    return [];
  }
}

/** Once a second: a mark for each working session whose log grew (one or two stat calls each). */
export function startLogClock(ctx: DaemonContext): () => void {
  const timer = setInterval(() => {
    const now = Date.now();
    for (const s of sessionsIn(ctx.store, ['working'])) {
      try {
        markLog(ctx, s.id, logBytes(ctx, s), now);
      } catch {
        /* its files went meanwhile */
      }
    }
  }, MARK_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
