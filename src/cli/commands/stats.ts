import { formatDuration } from '../../core/duration.js';
import type { Client } from '../../client/client.js';
import type { StatsView } from '../../protocol/events.js';
import { printJson, writeOut } from '../output.js';

export interface StatsOptions {
  /** The window: the last `since` ms (the daemon's default is 24h). */
  since?: number;
  json?: boolean;
}

/** `amux stats`: counts by status, durations, failure and expiry rates, events per type. */
export async function statsCommand(client: Client, opts: StatsOptions): Promise<number> {
  const stats = await client.stats({ since: opts.since });
  if (opts.json) printJson(stats);
  else await writeOut(formatStats(stats));
  return 0;
}

const percent = (rate: number | null) => (rate === null ? 'n/a' : `${(rate * 100).toFixed(1)}%`);

/**
 * The human report (ADR 0023): the window, then cli-table3 tables: the summary, the sessions by
 * status (all eight, zeros included), and the events by type.
 */
export function formatStats(s: StatsView): string {
  const { gridTable, keyValueTable } = require('../tables.js') as typeof import('../tables.js');
  const b = s.byStatus;
  const ran = s.durationCount === 0
    ? 'no session both started and ended'
    : `avg ${formatDuration(s.avgDurationMs!)}, p95 ${formatDuration(s.p95DurationMs!)} (over ${s.durationCount})`;
  const ended = `of ${s.terminal} ended`;
  const parts = [
    `Sessions created and events written since ${s.since} (last ${formatDuration(s.windowMs).replace(/(?<=[hm])0[ms]$/, '')})\n`,
    keyValueTable([
      ['sessions', String(s.total)],
      ['duration', ran],
      ['failures', `${percent(s.failureRate)} (${b.failed} ${ended})`],
      ['expired', `${percent(s.expiryRate)} (${b.expired} ${ended})`],
      ['events', String(s.eventsTotal)],
    ]),
    gridTable(Object.keys(b), [Object.values(b).map(String)], Object.keys(b).map((_, i) => i)),
  ];
  if (s.eventsTotal) parts.push(gridTable(['event', 'count'], Object.entries(s.eventsByType).map(([type, n]) => [type, String(n)]), [1]));
  return parts.join('');
}
