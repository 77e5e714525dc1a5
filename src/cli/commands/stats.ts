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
const counts = (byKey: Record<string, number>) => Object.entries(byKey).map(([k, n]) => `${n} ${k}`).join(', ');

/** The human block: one line per topic. */
export function formatStats(s: StatsView): string {
  const b = s.byStatus;
  const ran = s.durationCount === 0
    ? 'no session both started and ended'
    : `avg ${formatDuration(s.avgDurationMs!)}, p95 ${formatDuration(s.p95DurationMs!)} (over ${s.durationCount})`;
  const ended = `of ${s.terminal} ended`;
  return [
    `since      ${s.since} (last ${formatDuration(s.windowMs).replace(/(?<=[hm])0[ms]$/, '')})`,
    `sessions   ${s.total}: ${counts(b)}`,
    `duration   ${ran}`,
    `failures   ${percent(s.failureRate)} (${b.failed} ${ended})`,
    `expired    ${percent(s.expiryRate)} (${b.expired} ${ended})`,
    `events     ${s.eventsTotal}${s.eventsTotal ? `: ${counts(s.eventsByType)}` : ''}`,
    '',
  ].join('\n');
}
