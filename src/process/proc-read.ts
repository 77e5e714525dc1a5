import { closeSync, openSync, readFileSync, readSync } from 'node:fs';

/**
 * One buffer for every small /proc read (ADR 0038). `readFileSync` sees a size of 0 for a /proc
 * file, so it allocates a fresh 64 KiB buffer per read: the monitor's looks read thousands of
 * these a second at 200 sessions, and the garbage was a fifth of the daemon's CPU.
 */
const buffer = Buffer.allocUnsafe(16 * 1024);

/** A /proc file's text (latin1), or null when it cannot be read (the process is gone). */
export function readProc(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const n = readSync(fd, buffer, 0, buffer.length, null);
    // A file that fills the buffer may hold more: read it whole the ordinary way.
    return n < buffer.length ? buffer.toString('latin1', 0, n) : readFileSync(path, 'latin1');
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
