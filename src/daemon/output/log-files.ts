import { closeSync, openSync, readSync, readdirSync, rmSync, statSync } from 'node:fs';

/**
 * A session's terminal log: fixed-size chunks `log.000000`, `log.000001`, … written by `split`
 * straight from tmux's pipe-pane (ADR 0005). Chunk k holds absolute bytes [k·C, (k+1)·C), so
 * offsets stay absolute when old chunks are dropped whole to respect the cap (the capture
 * pipeline drops them itself: see `chunkFilter` in src/tmux/commands.ts).
 */
export const LOG_PREFIX = 'log.';

/**
 * Captured job streams (src/guides/sessions.md: exec): the newest 1 MiB of each is kept. Chunks of
 * 256 KiB, of which the shell's pipeline keeps the newest 5 (one more than the cap holds, for the
 * partial one), so at least 1 MiB is always on disk; readers serve the last 1 MiB of it.
 */
export const JOB_STREAM_CAP = 1024 * 1024;
export const JOB_STREAM_CHUNK = 256 * 1024;

/** Chunk size for a cap: an eighth of it, between 4 KiB and 1 MiB. */
export function chunkBytesFor(capBytes: number): number {
  return Math.min(1024 * 1024, Math.max(4096, Math.floor(capBytes / 8)));
}

/** How many newest chunks to keep so that at most `cap` bytes stay (the partial one included). */
export function chunksToKeep(capBytes: number, chunkBytes: number): number {
  return Math.max(1, Math.floor(capBytes / chunkBytes));
}

/** The chunks a session's log keeps (its cap and chunk size as of its start): chunk 0 is gone once this one was opened. */
export function sessionLogKeep(s: { logCapBytes: number; logChunkBytes: number }): number {
  return chunksToKeep(s.logCapBytes, s.logChunkBytes);
}

/** The chunks a captured job stream keeps: the cap's worth, plus the partial one. */
export const JOB_STREAM_KEEP = chunksToKeep(JOB_STREAM_CAP, JOB_STREAM_CHUNK) + 1;

export interface LogExtent {
  /** First absolute offset still on disk. */
  first: number;
  /** Absolute offset just past the last byte. */
  end: number;
  /** Older bytes were dropped. */
  truncated: boolean;
  indices: number[];
}

function chunkName(index: number, prefix: string): string {
  return `${prefix}${String(index).padStart(6, '0')}`;
}

/** `logDir` is a normalized path (sessionPaths): joined without path.join's normalizing (the monitor asks for sizes hundreds of times a second). */
export function chunkPath(logDir: string, index: number, prefix: string): string {
  return `${logDir.endsWith('/') ? logDir.slice(0, -1) : logDir}/${chunkName(index, prefix)}`;
}

function listChunks(logDir: string, prefix: string): number[] {
  let names: string[];
  try {
    names = readdirSync(logDir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.startsWith(prefix) && /^\d+$/.test(n.slice(prefix.length)))
    .map((n) => Number(n.slice(prefix.length)))
    .sort((a, b) => a - b);
}

function sizeOf(path: string): number {
  try {
    return statSync(path, { throwIfNoEntry: false })?.size ?? -1;
  } catch {
    return -1;
  }
}

/**
 * What is on disk of a chunked stream: a session log (prefix `log.`) or a captured job stream
 * (`out.`, `err.`, written the same way by the session's shell).
 */
export function logExtent(logDir: string, chunkBytes: number, prefix = LOG_PREFIX): LogExtent {
  const indices = listChunks(logDir, prefix);
  if (indices.length === 0) return { first: 0, end: 0, truncated: false, indices };
  const last = indices[indices.length - 1]!;
  const lastSize = Math.max(0, sizeOf(chunkPath(logDir, last, prefix)));
  return { first: indices[0]! * chunkBytes, end: last * chunkBytes + lastSize, truncated: indices[0]! > 0, indices };
}

/**
 * Total bytes written so far, from a hint of the current chunk index: one stat call (two when a
 * chunk just filled) instead of a directory listing (the monitor calls it for every live session).
 */
export function logSize(logDir: string, chunkBytes: number, hint: number | undefined): { index: number; end: number } {
  let index = hint ?? 0;
  let size = hint === undefined ? -1 : sizeOf(chunkPath(logDir, index, LOG_PREFIX));
  if (size < 0) {
    // No hint yet (a new daemon), or the hinted chunk was dropped: one listing finds the newest.
    const { indices } = logExtent(logDir, chunkBytes, LOG_PREFIX);
    if (indices.length === 0) return { index: 0, end: 0 };
    index = indices[indices.length - 1]!;
    size = sizeOf(chunkPath(logDir, index, LOG_PREFIX));
  }
  for (;;) {
    if (size < 0) return { index, end: index * chunkBytes };
    if (size < chunkBytes) return { index, end: index * chunkBytes + size };
    const next = sizeOf(chunkPath(logDir, index + 1, LOG_PREFIX));
    if (next < 0) return { index, end: (index + 1) * chunkBytes };
    index++;
    size = next;
  }
}

export interface LogRead {
  data: Buffer;
  /** Absolute offset of data[0]. */
  offset: number;
  /** Absolute offset just past the data: pass it as the next `sinceOffset`. */
  nextOffset: number;
  extent: LogExtent;
}

/** Reads up to `limit` bytes from absolute `offset` (clamped to what is still on disk). */
export function readLog(logDir: string, chunkBytes: number, offset: number, limit: number, prefix = LOG_PREFIX): LogRead {
  const extent = logExtent(logDir, chunkBytes, prefix);
  const start = Math.min(Math.max(offset, extent.first), extent.end);
  const stop = Math.min(extent.end, start + Math.max(0, limit));
  const parts: Buffer[] = [];
  let pos = start;
  while (pos < stop) {
    const index = Math.floor(pos / chunkBytes);
    const within = pos - index * chunkBytes;
    const want = Math.min(stop - pos, chunkBytes - within);
    const buf = Buffer.alloc(want);
    let got = 0;
    try {
      const fd = openSync(chunkPath(logDir, index, prefix), 'r');
      try {
        got = readSync(fd, buf, 0, want, within);
      } finally {
        closeSync(fd);
      }
    } catch {
      break; // pruned under us: return what we have
    }
    parts.push(buf.subarray(0, got));
    pos += got;
    if (got < want) break;
  }
  const data = Buffer.concat(parts);
  return { data, offset: start, nextOffset: start + data.length, extent };
}

/** Deletes all but the newest `keep` chunks of a stream (after a reader's hold, ADR 0009). */
export function pruneChunks(dir: string, prefix: string, keep: number): void {
  const indices = listChunks(dir, prefix);
  for (const i of indices.slice(0, Math.max(0, indices.length - keep))) rmSync(chunkPath(dir, i, prefix), { force: true });
}
