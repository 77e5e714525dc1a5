import type { SessionRecord } from '../../core/records.js';
import { sessionPaths } from '../../paths.js';
import { runtimeOf, type DaemonContext } from '../context.js';
import { logSize, sessionLogKeep } from './log-files.js';

/** Bytes written to the session's log so far (one or two stat calls; the chunk index is kept as a hint). */
export function logBytes(ctx: DaemonContext, s: SessionRecord): number {
  const rt = runtimeOf(ctx, s.id);
  const size = logSize(sessionPaths(ctx.paths, s.id).logDir, s.logChunkBytes, rt.logIndex);
  rt.logIndex = size.index;
  return size.end;
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
