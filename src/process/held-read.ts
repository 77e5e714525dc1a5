import { closeSync, openSync, readSync } from 'node:fs';
import { readProc } from './proc-read.js';

/**
 * Small /proc files read again and again (the looks' run marks, ADR 0041), and the ends of session
 * logs (`hasByteAt`, ADR 0071), through descriptors kept
 * open: a read at offset 0 of an open /proc file is the file afresh, for half the system calls of
 * open, read, close. A descriptor stays bound to the thread it was opened for: once that thread is
 * gone its reads fail (ESRCH), even when its pid is used again, and the entry is dropped. At most
 * MAX_HELD are kept (a quarter of the descriptor limit, at most 2048); others are read by path.
 * One not read for IDLE_MS is closed.
 */
const held = new Map<string, { fd: number; usedAt: number }>();
const buffer = Buffer.allocUnsafe(512);
const IDLE_MS = 10_000;
let sweptAt = 0;

export const MAX_HELD = Math.min(2048, Math.floor(openLimit() / 4));

/** The descriptor held for `path`, opened if it is not yet; null when it cannot be opened, or MAX_HELD are held. */
function hold(path: string, now: number): { fd: number; usedAt: number } | null {
  if (now - sweptAt >= IDLE_MS) sweep(now);
  let h = held.get(path);
  if (!h) {
    if (held.size >= MAX_HELD) return null;
    try {
      h = { fd: openSync(path, 'r'), usedAt: now };
    } catch {
      return null;
    }
    held.set(path, h);
  }
  h.usedAt = now;
  return h;
}

export function readHeld(path: string, now = Date.now()): string | null {
  if (held.size >= MAX_HELD && !held.has(path)) return readProc(path);
  const h = hold(path, now);
  if (!h) return null;
  try {
    const n = readSync(h.fd, buffer, 0, buffer.length, 0);
    if (n < buffer.length) return buffer.toString('latin1', 0, n);
  } catch {
    /* the thread is gone */
  }
  // Gone, or a file too long for a run mark: unreadable here, and no longer held.
  drop(path, h.fd);
  return null;
}

/**
 * Whether the file at `path`, held open, has a byte at `offset`: one read through the held
 * descriptor, nothing allocated. A file that only grows (a session's log chunk) has grown past
 * `offset` exactly when it does (ADR 0071). null when it cannot be opened or read, or too many
 * descriptors are held: the caller asks another way.
 */
export function hasByteAt(path: string, offset: number, now = Date.now()): boolean | null {
  const h = hold(path, now);
  if (!h) return null;
  try {
    return readSync(h.fd, buffer, 0, 1, offset) === 1;
  } catch {
    drop(path, h.fd);
    return null;
  }
}

/** Closes the descriptor held for `path`, if any: the next read opens the path afresh. */
export function release(path: string): void {
  const h = held.get(path);
  if (h) drop(path, h.fd);
}

function drop(path: string, fd: number): void {
  held.delete(path);
  try {
    closeSync(fd);
  } catch {
    /* already closed */
  }
}

function sweep(now: number): void {
  sweptAt = now;
  for (const [path, h] of held) if (now - h.usedAt >= IDLE_MS) drop(path, h.fd);
}

/** How many descriptors are held (tests). */
export function heldCount(): number {
  return held.size;
}

/** The soft limit on open descriptors (`Max open files` of /proc/self/limits); 1024 when unreadable. */
function openLimit(): number {
  const m = /^Max open files\s+(\d+)/m.exec(readProc('/proc/self/limits') ?? '');
  return m ? Number(m[1]) : 1024;
}
