import { formatAge, formatDuration } from '../../core/duration.js';
import type { Client } from '../../client/client.js';
import type { EventView } from '../../protocol/events.js';
import type { InspectView } from '../../protocol/sessions.js';
import { formatTable, printJson, statusPainter, useColor, writeOut } from '../output.js';
import { isRestarting, restartingNote } from '../marks.js';
import { jobRows, JOB_HEAD } from './jobs.js';
import { visible } from '../../core/visible.js';

export interface InspectOptions {
  json?: boolean;
  format?: string;
}

/** Events shown in the human view; `amux events ID` has them all. */
const EVENTS_SHOWN = 10;

/**
 * `amux inspect`: the whole record (session, jobs, recent events). JSON, as scripts read it, unless
 * stdout is a terminal and `--json` is not given: then it is printed for a person (ADR 0023).
 */
export async function inspectCommand(client: Client, ref: string, opts: InspectOptions = {}): Promise<number> {
  const record = await client.sessions.inspect(ref);
  if (opts.format !== undefined) {
    // The session's fields, and the record's others beside them: {{.Status}}, {{json .Jobs}}.
    const { SESSION_FIELDS } = require('./ps.js') as typeof import('./ps.js');
    const row = { ...record.session, jobs: record.jobs, events: record.events, lastOutput: record.lastOutput };
    await (require('../format.js') as typeof import('../format.js')).printFormatted(opts.format, [row], [...SESSION_FIELDS, 'jobs', 'events', 'lastOutput']);
    return 0;
  }
  if (opts.json || !process.stdout.isTTY) printJson(record);
  else await writeOut(await formatInspect(record, Date.now()));
  return 0;
}

const when = (iso: string | null, now: number) => (iso === null ? '' : `${iso} (${formatAge(now - Date.parse(iso))} ago)`);
const orEmpty = (v: string | number | null) => (v === null ? '' : String(v));

function eventDetail(e: EventView): string {
  const d = e.data;
  if (e.type === 'state_changed') return `${String(d.from)} → ${String(d.to)}${d.reason ? ` (${String(d.reason)})` : ''}${d.error ? `: ${String(d.error)}` : ''}`;
  const text = JSON.stringify(d);
  return text === '{}' ? '' : text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** The record for a person: a key/value table of the session (cli-table3), then its jobs, newest events and last output. */
export async function formatInspect(r: InspectView, now: number): Promise<string> {
  const { keyValueTable } = require('../tables.js') as typeof import('../tables.js');
  const s = r.session;
  const paint = await statusPainter(useColor());
  const rows: Array<[string, string]> = [
    ['id', s.id],
    ['name', orEmpty(s.name)],
    ['status', isRestarting(s) ? `restarting (${restartingNote(s, now)})` : `${paint(s.status)}${s.reason ? ` (${visible(s.reason)})` : ''}`],
    // src/guides/statuses.md: what it asks of a person, and the state its program declared.
    ['attention', s.attention ? `${s.attention.source}${s.attention.title ? ` ${s.attention.title}:` : ''}${s.attention.message ? ` ${s.attention.message}` : ''}, at ${when(s.attention.at, now)}` : ''],
    ['declared', s.declared ? `${s.declared.state}${s.declared.source === 'osc7501' ? ' (OSC 7501)' : ''}${s.declared.message ? `: ${s.declared.message}` : ''}${s.declared.until ? `, until ${s.declared.until}` : ''}` : ''],
    // ADR 0049, ADR 0050: what its programs announce; the title as written, its controls escaped.
    ['title', s.title ? visible(s.title) : ''],
    ['progress', s.progress ? `${s.progress.percent === null ? '' : `${s.progress.percent}% `}${s.progress.state}, since ${when(s.progress.at, now)}` : ''],
    ['prompt mark', s.semanticPrompt ? `${s.semanticPrompt.phase}${s.semanticPrompt.exitCode === null ? '' : ` (exit ${s.semanticPrompt.exitCode})`}, at ${when(s.semanticPrompt.at, now)}` : ''],
    ['command', s.command ?? `(shell)${s.foreground ? ` ${s.foreground}` : ''}`],
    ['cwd', s.cwd],
    ['exit code', orEmpty(s.exitCode)],
    ['signal', orEmpty(s.signal)],
    ['error', orEmpty(s.error)],
    ['pid', orEmpty(s.pid)],
    ['created', when(s.createdAt, now)],
    ['started', when(s.startedAt, now)],
    ['ended', when(s.endedAt, now)],
    ['duration', s.durationMs === null ? '' : formatDuration(s.durationMs)],
    ['last activity', when(s.lastActivityAt, now)],
    ['log', `${s.logBytes} bytes${s.logTruncated ? ' (oldest dropped)' : ''}`],
    ['timeout', s.timeoutMs === null ? '' : formatDuration(s.timeoutMs)],
    ['idle timeout', s.idleTimeoutMs === null ? '' : formatDuration(s.idleTimeoutMs)],
    ['remove when done', s.autoRemove ? 'yes (--rm)' : 'no'],
    ['closed', when(s.closedAt, now)],
    ['removed', when(s.removedAt, now)],
    // src/guides/sessions.md "Restart, labels, groups": one name across runs; the run before this one and how it ended.
    ['restarts', s.restarts ? `${s.restarts}${s.restartPolicy ? ` (--restart ${s.restartPolicy})` : ''}` : ''],
    ['previous run', s.previousEnd ? `${s.previousEnd.id} ended ${s.previousEnd.status}${s.previousEnd.exitCode !== null ? ` (exit ${s.previousEnd.exitCode})` : ''}${s.previousEnd.endedAt ? `, ${when(s.previousEnd.endedAt, now)}` : ''}` : ''],
  ];
  // Every value but the painted status is the session's text: shown, never acted on by the terminal.
  const shown = rows.map(([k, v]): [string, string] => [k, k === 'status' ? v : visible(v, true)]);
  const parts = [keyValueTable(shown.filter(([k, v]) => v !== '' || k === 'name' || k === 'exit code'))];
  parts.push(`\nJobs (${r.jobs.length})\n`, r.jobs.length ? formatTable(JOB_HEAD, jobRows(r.jobs)) : '');
  const events = r.events.slice(-EVENTS_SHOWN);
  parts.push(
    `\nEvents (the newest ${events.length}; all: amux events ${s.id})\n`,
    formatTable(['ID', 'TIME', 'TYPE', 'DETAIL'], events.map((e) => [String(e.id), e.createdAt, e.type, visible(eventDetail(e))])),
  );
  if (r.lastOutput) {
    const last = visible(r.lastOutput, true);
    parts.push('\nLast output\n', last.endsWith('\n') ? last : `${last}\n`);
  }
  return parts.join('');
}
