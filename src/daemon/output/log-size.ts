import type { SessionRecord } from '../../core/records.js';
import { sessionPaths } from '../../paths.js';
import { runtimeOf, type DaemonContext } from '../context.js';
import { hasByteAt, release } from '../../process/held-read.js';
import { chunkPath, LOG_PREFIX, logSize, sessionLogKeep } from './log-files.js';

/** How long a log's size may be known from reads at its end before it is `stat`ed again (a file replaced by hand). */
const RESTAT_MS = 10_000;

/**
 * Bytes written to the session's log so far. While its current chunk has not grown since the last
 * measure, one read at its known end through a held descriptor tells so (ADR 0071: the idle daemon
 * asks this hundreds of times a second, and a `stat` leaves a `Stats` object each time); otherwise
 * one or two `stat` calls, the chunk index kept as a hint.
 */
export function logBytes(ctx: DaemonContext, s: SessionRecord): number {
  const rt = runtimeOf(ctx, s.id);
  const now = Date.now();
  const known = rt.logKnown;
  if (known && known.size < s.logChunkBytes && now - known.at < RESTAT_MS && hasByteAt(known.path, known.size, now) === false) {
    return known.index * s.logChunkBytes + known.size;
  }
  // At the 10 s `stat`, the descriptor too is opened afresh: a chunk replaced by hand is read as it is now.
  if (known && now - known.at >= RESTAT_MS) release(known.path);
  const dir = sessionPaths(ctx.paths, s.id).logDir;
  const size = logSize(dir, s.logChunkBytes, rt.logIndex);
  rt.logIndex = size.index;
  const inChunk = size.end - size.index * s.logChunkBytes;
  rt.logKnown = { index: size.index, size: inChunk, path: known?.index === size.index ? known.path : chunkPath(dir, size.index, LOG_PREFIX), at: now };
  return size.end;
}

/** Forgets a session's log end (its files are gone): the descriptor held on its chunk is closed, and its space freed. */
export function forgetLogEnd(ctx: DaemonContext, id: string): void {
  const path = ctx.runtime.get(id)?.logKnown?.path;
  if (path) release(path);
}

/** The row's log fields for `bytes`: chunk 0 is gone once chunk `keep` was opened (the capture pipeline drops whole chunks). */
export function logPatch(ctx: DaemonContext, s: SessionRecord, bytes: number): Partial<SessionRecord> {
  if (bytes === s.logBytes) return {};
  const index = runtimeOf(ctx, s.id).logIndex ?? 0;
  return { logBytes: bytes, logTruncated: index >= sessionLogKeep(s) };
}

/**
 * Re-reads a session's log size into its row. Output still in flight when the exit was seen
 * lands a moment later, so this runs on `inspect` and once more after a session ends.
 */
export function syncLog(ctx: DaemonContext, id: string): SessionRecord | null {
  const s = ctx.store.getSession(id);
  if (!s || s.removedAt) return s;
  const patch = logPatch(ctx, s, logBytes(ctx, s));
  if (Object.keys(patch).length === 0) return s;
  ctx.store.updateSession(id, patch);
  return { ...s, ...patch };
}
