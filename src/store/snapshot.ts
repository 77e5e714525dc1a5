import type { SessionRecord } from '../core/records.js';
import type { SessionStatus } from '../core/status.js';
import type { Store } from './session-store.js';

/** Rows from `read`, from the Store's memory while nothing was written since (`Store.remembered`, ADR 0041), frozen: they are shared. */
export function rowsRemembered<T extends object>(store: Store, key: string, read: () => T[]): readonly T[] {
  return store.remembered(key, () => read().map((r) => Object.freeze(r)));
}

/** The sessions of some statuses, as `listSessions` gives them. */
export function sessionsIn(store: Store, statuses: readonly SessionStatus[]): readonly SessionRecord[] {
  return rowsRemembered(store, `sessions:${statuses.join(',')}`, () => store.listSessions({ statuses }));
}
