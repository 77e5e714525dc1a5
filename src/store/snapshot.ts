import type { SessionRecord } from '../core/records.js';
import type { SessionStatus } from '../core/status.js';
import type { Store } from './session-store.js';

interface Remembered {
  writes: number;
  value: unknown;
}

const memory = new WeakMap<Store, Map<string, Remembered>>();

/**
 * What `read` gives, from memory while no statement that can write has run since it was read
 * (ADR 0041): the monitor lists the live sessions several times a second, the timeouts the
 * sessions and jobs with a limit, and with nobody calling nothing changes. The count is the
 * Store's own (`writeCount`: every write goes through it, and the daemon is the database's only
 * user), so asking costs no SQL. Filled only outside a transaction, so it never holds what a
 * rollback undid (the rolled-back write raised the count: the next call reads again). What is
 * kept is shared between callers (`rowsRemembered` freezes rows).
 */
export function remembered<T>(store: Store, key: string, read: () => T): T {
  if (store.db.inTransaction) return read();
  let byKey = memory.get(store);
  if (!byKey) memory.set(store, (byKey = new Map()));
  const known = byKey.get(key);
  if (known?.writes === store.writeCount) return known.value as T;
  const value = read();
  byKey.set(key, { writes: store.writeCount, value });
  return value;
}

/** Rows from `read`, remembered as `remembered` does, frozen: they are shared. */
export function rowsRemembered<T extends object>(store: Store, key: string, read: () => T[]): readonly T[] {
  return remembered(store, key, () => read().map((r) => Object.freeze(r)));
}

/** The sessions of some statuses, as `listSessions` gives them. */
export function sessionsIn(store: Store, statuses: readonly SessionStatus[]): readonly SessionRecord[] {
  return rowsRemembered(store, `sessions:${statuses.join(',')}`, () => store.listSessions({ statuses }));
}
