import { emptyFilters, matchesFilters, parseFilter, type SessionFilters } from '../../core/filters.js';
import type { SessionRecord } from '../../core/records.js';
import type { SessionStatus } from '../../core/status.js';
import { AmuxError } from '../../errors.js';
import type { DaemonContext } from '../context.js';

/** The query of `GET /v1/sessions` and `GET /v1/history` after its schema: statuses, name globs, labels, a limit. */
export interface ListQuery {
  statuses?: SessionStatus[];
  names?: string[];
  labels?: string[];
  limit?: number;
  includeRemoved?: boolean;
  from?: number;
  /** Only sessions created before this time (epoch ms). */
  until?: number;
}

/**
 * Sessions newest first, filtered as src/guides/sessions.md "Restart, labels, groups" says. Statuses, age and the limit
 * are SQL; names and labels are matched here (the same rule as the CLI's `--filter`), so the limit
 * is applied after them.
 */
export function listFiltered(ctx: DaemonContext, q: ListQuery): SessionRecord[] {
  let filters: SessionFilters = emptyFilters();
  try {
    for (const n of q.names ?? []) filters = parseFilter(`name=${n}`, filters);
    for (const l of q.labels ?? []) filters = parseFilter(`label=${l}`, filters);
  } catch (err) {
    throw new AmuxError('invalid_argument', (err as Error).message);
  }
  const base = { includeRemoved: q.includeRemoved, statuses: q.statuses, from: q.from, until: q.until };
  if (!filters.names.length && !filters.labels.length) return ctx.store.listSessions({ ...base, limit: q.limit });
  const all = ctx.store.listSessions(base).filter((s) => matchesFilters(s, filters));
  return q.limit === undefined ? all : all.slice(0, q.limit);
}
