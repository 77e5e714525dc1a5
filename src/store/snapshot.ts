import type { SessionRecord } from '../core/records.js';
import type { SessionStatus } from '../core/status.js';
import type { Store } from './session-store.js';

interface Snapshot {
  generation: string;
  rows: readonly SessionRecord[];
}

const snapshots = new WeakMap<Store, Map<string, Snapshot>>();

/**
 * The sessions of some statuses, as `listSessions` gives them, from memory while no row of the
 * database changed since they were read (ADR 0041): the monitor lists the live sessions several
 * times a second, and with nobody calling nothing changes. "Changed" is SQLite's own count of rows
 * written by this connection (`total_changes()`), with `data_version` for any other connection.
 * Filled only outside a transaction, so a snapshot never holds what a rollback undid (a rollback
 * leaves the count raised: the next call reads again). The rows are frozen: they are shared.
 */
export function sessionsIn(store: Store, statuses: readonly SessionStatus[]): readonly SessionRecord[] {
  if (store.db.inTransaction) return store.listSessions({ statuses });
  const generation = store.sql(GENERATION).pluck().get() as string;
  let byKey = snapshots.get(store);
  if (!byKey) snapshots.set(store, (byKey = new Map()));
  const key = statuses.join(',');
  const known = byKey.get(key);
  if (known?.generation === generation) return known.rows;
  const rows = store.listSessions({ statuses }).map((r) => Object.freeze(r));
  byKey.set(key, { generation, rows });
  return rows;
}

const GENERATION = "SELECT total_changes() || ' ' || (SELECT data_version FROM pragma_data_version)";
