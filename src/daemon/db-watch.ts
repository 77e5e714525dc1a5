import { statSync } from 'node:fs';

/** How often the daemon checks that its database file is still the one it has open. */
const CHECK_MS = 2000;

function identity(path: string): string | null {
  try {
    const st = statSync(path);
    return `${st.dev}:${st.ino}`;
  } catch {
    return null;
  }
}

/**
 * Calls `gone` once when `path` (amux.db) is deleted or replaced under the running daemon: its
 * writes would go to a file nobody can open again, and the next daemon would start from nothing
 * (src/guides/configuration.md). Returns the function that stops watching.
 */
export function watchDatabase(path: string, gone: (why: string) => void): () => void {
  const first = identity(path);
  const timer = setInterval(() => {
    const now = identity(path);
    if (now === first) return;
    clearInterval(timer);
    gone(now === null ? `${path} was deleted` : `${path} was replaced`);
  }, CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
