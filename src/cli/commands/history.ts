import { formatAge, formatDuration } from '../../core/duration.js';
import type { Client } from '../../client/client.js';
import { printJson } from '../output.js';
import { printSessions, sessionQuery, SESSION_FIELDS } from './ps.js';

export interface HistoryOptions {
  status?: string;
  /** Only sessions created since / before these times (a duration before now, ISO, epoch ms). */
  since?: string;
  until?: string;
  n?: number;
  json?: boolean;
  trunc?: boolean;
  filter?: string[];
  format?: string;
}

/** `amux history`: every session in the store, removed ones included, newest first. */
export async function historyCommand(client: Client, opts: HistoryOptions): Promise<number> {
  const sessions = await client.history({ ...sessionQuery(opts), since: opts.since, until: opts.until, limit: opts.n });
  if (opts.format !== undefined) {
    await (require('../format.js') as typeof import('../format.js')).printFormatted(opts.format, sessions, SESSION_FIELDS);
    return 0;
  }
  if (opts.json) {
    printJson(sessions);
    return 0;
  }
  // The columns of `amux ps`, and how long each ran and when it was removed.
  await printSessions(sessions, opts.trunc !== false, {
    head: ['DURATION', 'REMOVED'],
    cells: (s, now) => [
      s.durationMs === null ? '' : formatDuration(s.durationMs),
      s.removedAt === null ? '' : `${formatAge(now - Date.parse(s.removedAt))} ago`,
    ],
  });
  return 0;
}
