import { formatAge } from '../../core/duration.js';
import { stripAnsi } from '../../core/log-render.js';
import type { SessionView } from '../../protocol/sessions.js';
import type { Client } from '../../client/client.js';
import { markedStatus } from '../marks.js';
import { formatTable, printJson, statusPainter, useColor, writeOut } from '../output.js';
import { visible } from '../../core/visible.js';

export interface PsOptions {
  quiet?: boolean;
  json?: boolean;
  status?: string;
  /** Only sessions that ask for attention (src/guides/statuses.md). */
  attention?: boolean;
  trunc?: boolean;
  /** `--filter` values (src/guides/sessions.md "Restart, labels, groups"). */
  filter?: string[];
  /** `-n`: the newest N. */
  last?: number;
  /** `--format` (src/guides/sessions.md "Output formats"). */
  format?: string;
  /** `--usage`: CPU % and memory of each live session (as `docker stats` once). */
  usage?: boolean;
  /** Contexts, comma-separated: the fleet view (src/guides/remote.md). */
  context?: string;
  allContexts?: boolean;
  /** `--stack NAME`: `--filter label=stack=NAME` (src/guides/stacks.md). */
  stack?: string;
}

const COMMAND_WIDTH = 40;

function oneLine(text: string, trunc: boolean): string {
  const flat = visible(text.replace(/\s*\n\s*/g, ' ↵ '));
  return trunc && flat.length > COMMAND_WIDTH ? `${flat.slice(0, COMMAND_WIDTH - 1)}…` : flat;
}

/** `amux ps`: sessions not removed, newest first. */
export async function psCommand(client: Client, opts: PsOptions): Promise<number> {
  if (opts.context !== undefined || opts.allContexts) return (require('./fleet.js') as typeof import('./fleet.js')).fleetPs(opts);
  if (opts.stack !== undefined) opts = { ...opts, filter: [...(opts.filter ?? []), `label=stack=${opts.stack}`] };
  const query = { ...sessionQuery(opts), limit: opts.last, usage: opts.usage, ...(opts.attention ? { attention: true } : {}) };
  let sessions = await client.sessions.list(query);
  // CPU % is over the time since the daemon's previous look (at least 1 s apart): a first look has
  // none yet, so look again a second later, as `docker stats --no-stream` samples.
  if (opts.usage && sessions.some((s) => s.rssBytes !== null && s.rssBytes !== undefined && s.cpuPercent === null)) {
    await new Promise((r) => setTimeout(r, 1100));
    sessions = await client.sessions.list(query);
  }
  if (opts.format !== undefined) {
    await (require('../format.js') as typeof import('../format.js')).printFormatted(opts.format, sessions, SESSION_FIELDS);
    return 0;
  }
  if (opts.json) {
    printJson(sessions);
    return 0;
  }
  if (opts.quiet) {
    await writeOut(sessions.map((s) => `${s.id}\n`).join(''));
    return 0;
  }
  const columns: ExtraColumns[] = [];
  if (opts.usage) {
    const { formatBytes, formatCpu } = require('../top/text.js') as typeof import('../top/text.js');
    columns.push({
      head: ['CPU%', 'MEM'],
      cells: (s) => (s.rssBytes === null || s.rssBytes === undefined ? ['', ''] : [formatCpu(s.cpuPercent), formatBytes(s.rssBytes)]),
    });
  }
  // A stack's view says why each session is as it is: a failed dependency names itself (ADR 0039).
  if (opts.stack !== undefined) columns.push({ head: ['REASON'], cells: (s) => [s.error ?? s.reason ?? ''] });
  await printSessions(sessions, opts.trunc !== false, {
    head: columns.flatMap((c) => c.head),
    cells: (s, now) => columns.flatMap((c) => c.cells(s, now)),
  });
  return 0;
}

/**
 * The fields of a session for `--format`: every field of `--json`. Keyed by SessionView, so a field
 * added to the API and not here fails the build (one list, src/guides/sessions.md "Output formats").
 */
const SESSION_FIELD_SET: Record<keyof SessionView, true> = {
  id: true, name: true, status: true, command: true, cwd: true, exitCode: true, signal: true, error: true, reason: true, foreground: true,
  pid: true, createdAt: true, startedAt: true, endedAt: true, durationMs: true, lastActivityAt: true, removed: true, removedAt: true,
  closedAt: true, logBytes: true, logTruncated: true, autoRemove: true, timeoutMs: true, idleTimeoutMs: true, labels: true, group: true,
  after: true, onEnd: true, restartOf: true, restarts: true, previousEnd: true, restartPolicy: true, startAfter: true, attention: true, declared: true,
  cpuPercent: true, rssBytes: true, title: true, progress: true, semanticPrompt: true,
};
export const SESSION_FIELDS = Object.keys(SESSION_FIELD_SET) as readonly (keyof SessionView)[];

/** `--status` and `--filter` as the query of `GET /v1/sessions` and `/v1/history`: statuses of both together, names and labels. */
export function sessionQuery(opts: { status?: string; filter?: string[] }): { status?: string; name?: string[]; label?: string[] } {
  const { emptyFilters, filtersQuery, parseFilter, parseStatusList } = require('../../core/filters.js') as typeof import('../../core/filters.js');
  if (opts.status) {
    // Checked here, so the error names the flag, not the API's query parameter.
    try {
      parseStatusList(opts.status);
    } catch (err) {
      const { AmuxError } = require('../../errors.js') as typeof import('../../errors.js');
      throw new AmuxError('usage', `--status: ${(err as Error).message}`);
    }
  }
  let f = emptyFilters();
  for (const v of opts.filter ?? []) f = parseFilter(v, f);
  if (opts.status && f.statuses.length) {
    const { AmuxError } = require('../../errors.js') as typeof import('../../errors.js');
    throw new AmuxError('usage', 'give --status or --filter status=, not both');
  }
  const status = opts.status ?? (f.statuses.length ? f.statuses.join(',') : undefined);
  return { status, ...filtersQuery(f) };
}

/** Columns that `amux history` adds before COMMAND. */
export interface ExtraColumns {
  head: string[];
  cells: (s: SessionView, now: number) => string[];
}

/** The table of `ps` (and of `history`, with `extra` columns): ID, NAME, STATUS, EXIT, AGE, …, COMMAND. */
export async function printSessions(
  sessions: readonly SessionView[], trunc: boolean, extra: ExtraColumns = { head: [], cells: () => [] }, host?: (s: SessionView) => string,
): Promise<void> {
  const paint = await statusPainter(useColor());
  const now = Date.now();
  const rows = sessions.map((s) => [
    ...(host ? [visible(host(s))] : []),
    s.id,
    visible(s.name ?? ''),
    // `idle!`: it asks for a person (src/guides/statuses.md: attention); `restarting`: a chain in its backoff.
    paint(s.status).replace(s.status, markedStatus(s)),
    s.exitCode === null ? '' : String(s.exitCode),
    formatAge(now - Date.parse(s.createdAt)),
    ...extra.cells(s, now),
    // A shell session shows what runs in its foreground now (src/guides/statuses.md: foreground).
    oneLine(s.command ?? (s.foreground ? `(shell) ${s.foreground}` : '(shell)'), trunc),
  ]);
  // Colour codes take no room on screen: cells are measured without them.
  await writeOut(formatTable([...(host ? ['HOST'] : []), 'ID', 'NAME', 'STATUS', 'EXIT', 'AGE', ...extra.head, 'COMMAND'], rows, stripAnsi));
}
