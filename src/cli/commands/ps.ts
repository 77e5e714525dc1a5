import { formatAge } from '../../core/duration.js';
import { stripAnsi } from '../../core/log-render.js';
import type { SessionView } from '../../protocol/sessions.js';
import type { Client } from '../../client/client.js';
import { markedStatus } from '../marks.js';
import { formatTable, printJson, statusPainter, useColor, writeOut } from '../output.js';

export interface PsOptions {
  quiet?: boolean;
  json?: boolean;
  status?: string;
  /** Only sessions that ask for attention (README "Statuses"). */
  attention?: boolean;
  trunc?: boolean;
  /** Contexts, comma-separated: the fleet view (README "Remote hosts"). */
  context?: string;
  allContexts?: boolean;
}

const COMMAND_WIDTH = 40;

function oneLine(text: string, trunc: boolean): string {
  const flat = text.replace(/\s*\n\s*/g, ' ↵ ');
  return trunc && flat.length > COMMAND_WIDTH ? `${flat.slice(0, COMMAND_WIDTH - 1)}…` : flat;
}

/** `amux ps`: sessions not removed, newest first. */
export async function psCommand(client: Client, opts: PsOptions): Promise<number> {
  if (opts.context !== undefined || opts.allContexts) return (require('./fleet.js') as typeof import('./fleet.js')).fleetPs(opts);
  const sessions = await client.sessions.list({ status: opts.status, ...(opts.attention ? { attention: true } : {}) });
  if (opts.json) {
    printJson(sessions);
    return 0;
  }
  if (opts.quiet) {
    await writeOut(sessions.map((s) => `${s.id}\n`).join(''));
    return 0;
  }
  await printSessions(sessions, opts.trunc !== false);
  return 0;
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
    ...(host ? [host(s)] : []),
    s.id,
    s.name ?? '',
    // `idle!`: it asks for a person (README "Statuses": attention).
    paint(s.status) + markedStatus(s).slice(s.status.length),
    s.exitCode === null ? '' : String(s.exitCode),
    formatAge(now - Date.parse(s.createdAt)),
    ...extra.cells(s, now),
    // A shell session shows what runs in its foreground now (README "Statuses": foreground).
    oneLine(s.command ?? (s.foreground ? `(shell) ${s.foreground}` : '(shell)'), trunc),
  ]);
  // Colour codes take no room on screen: cells are measured without them.
  await writeOut(formatTable([...(host ? ['HOST'] : []), 'ID', 'NAME', 'STATUS', 'EXIT', 'AGE', ...extra.head, 'COMMAND'], rows, stripAnsi));
}
