import { formatAge, formatDuration } from '../../core/duration.js';
import { stripAnsi } from '../../core/log-render.js';
import type { SessionView } from '../../core/types.js';
import type { Client } from '../../client/client.js';
import { formatTable, printJson, statusPainter, useColor, writeOut } from '../output.js';
import { oneLine } from './ps.js';

export interface HistoryOptions {
  status?: string;
  /** Only sessions created within the last `since` ms. */
  since?: number;
  n?: number;
  json?: boolean;
  trunc?: boolean;
}

/** `amux history`: every session in the store, removed ones included, newest first. */
export async function historyCommand(client: Client, opts: HistoryOptions): Promise<number> {
  const q = new URLSearchParams();
  if (opts.status) q.set('status', opts.status);
  if (opts.since !== undefined) q.set('since', String(opts.since));
  if (opts.n !== undefined) q.set('limit', String(opts.n));
  const sessions = await client.json<SessionView[]>('GET', `/v1/history?${q}`);
  if (opts.json) {
    printJson(sessions);
    return 0;
  }
  const paint = await statusPainter(useColor());
  const now = Date.now();
  // The columns of `amux ps`, and how long each ran and when it was removed.
  const rows = sessions.map((s) => [
    s.id,
    s.name ?? '',
    paint(s.status),
    s.exitCode === null ? '' : String(s.exitCode),
    formatAge(now - Date.parse(s.createdAt)),
    s.durationMs === null ? '' : formatDuration(s.durationMs),
    s.removedAt === null ? '' : `${formatAge(now - Date.parse(s.removedAt))} ago`,
    oneLine(s.command ?? '(shell)', opts.trunc !== false),
  ]);
  await writeOut(formatTable(['ID', 'NAME', 'STATUS', 'EXIT', 'AGE', 'DURATION', 'REMOVED', 'COMMAND'], rows, stripAnsi));
  return 0;
}
