const locks = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` after every earlier operation on the same session has finished. Create, kill and rm
 * take it; the monitor leaves a locked session alone (`isSessionLocked`), so that an exit seen
 * while a kill is under way does not turn a `stopped` session into `failed`.
 */
export function withSessionLock<T>(id: string, fn: () => Promise<T>): Promise<T> {
  const prev = locks.get(id) ?? Promise.resolve();
  const next = prev.then(fn, fn);
  const tail = next.catch(() => undefined);
  locks.set(id, tail);
  void tail.then(() => {
    if (locks.get(id) === tail) locks.delete(id);
  });
  return next;
}

/** An operation on the session is under way or queued. */
export function isSessionLocked(id: string): boolean {
  return locks.has(id);
}

/** Resolves when no session operation is under way (graceful shutdown). */
export async function allSessionLocksIdle(): Promise<void> {
  while (locks.size) await Promise.allSettled([...locks.values()]);
}
