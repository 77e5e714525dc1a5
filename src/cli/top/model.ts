/**
 * The pure part of `amux top` (src/guides/sessions.md "Dashboard"; ADR 0020): ordering, the filter, the layout of
 * the screen, the columns of a row and the keys. No terminal, no daemon and no React here, so it
 * is unit-tested as it is (test/unit/top-model.test.ts).
 */
import { isTerminal, SESSION_STATUSES, TERMINAL_STATUSES, type SessionStatus } from '../../core/status.js';
import type { SessionView } from '../../protocol/sessions.js';
import { isRestarting, markedStatus, restartingNote } from '../marks.js';
import { groupByStack } from './stacks.js';
import { textWidth, clean, truncate, fit, formatRuntime, formatCpu, formatBytes } from './text.js';

// ---------------------------------------------------------------------------------------------
// Order and filter

/** Sessions that ask for a person come first (src/guides/statuses.md: attention), then live ones, then finished ones. */
function rank(s: SessionView): number {
  if (s.attention) return 0;
  return isTerminal(s.status) ? 2 : 1;
}

/**
 * What needs a person first (the longest waiting first), then live (and pending) sessions, then
 * finished ones; newest first within those two (src/guides/sessions.md "Dashboard").
 */
export function sortSessions(sessions: readonly SessionView[]): SessionView[] {
  return [...sessions].sort((a, b) => {
    const fa = rank(a);
    const fb = rank(b);
    if (fa !== fb) return fa - fb;
    if (a.attention && b.attention && a.attention.at !== b.attention.at) return a.attention.at < b.attention.at ? -1 : 1;
    if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
    return a.id < b.id ? 1 : -1;
  });
}

export interface Filter {
  /** Any of these statuses (none: every status). */
  statuses: ReadonlySet<SessionStatus>;
  /** Each word is in the session's name, id or command (case-insensitive). */
  words: readonly string[];
  /** `label:KEY` or `label:KEY=VALUE` (src/guides/sessions.md "Restart, labels, groups"): every one must hold. */
  labels?: readonly { key: string; value: string | null }[];
}

const LIVE_WORDS: readonly SessionStatus[] = ['pending', 'working', 'idle', 'paused'];
const STATUS_ALIASES: Record<string, readonly SessionStatus[]> = {
  live: LIVE_WORDS,
  running: LIVE_WORDS,
  finished: [...TERMINAL_STATUSES],
  done: [...TERMINAL_STATUSES],
  ended: [...TERMINAL_STATUSES],
};

/**
 * The `/` filter: words separated by spaces. A status name (`idle`, `failed`), `live` or
 * `finished` (also `done`, `ended`) selects statuses (any of them); `status:` forces that reading
 * and `name:` the other; `label:KEY` and `label:KEY=VALUE` select by label. Every other word must
 * appear in the name, the id or the command.
 */
export function parseFilter(text: string): Filter {
  const statuses = new Set<SessionStatus>();
  const words: string[] = [];
  const labels: { key: string; value: string | null }[] = [];
  for (const raw of text.split(/\s+/)) {
    // Labels keep their case, as `ps --filter label=` matches them.
    const label = /^label:([^=]+)(?:=(.*))?$/i.exec(raw);
    if (label) {
      labels.push({ key: label[1]!, value: label[2] ?? null });
      continue;
    }
  }
  for (const raw of text.toLowerCase().split(/\s+/)) {
    if (!raw || raw.startsWith('label:')) continue;
    const forced = /^(status|name):(.*)$/.exec(raw);
    const word = forced ? forced[2]! : raw;
    if (!word) continue;
    const asStatus = (SESSION_STATUSES as readonly string[]).includes(word) ? [word as SessionStatus] : STATUS_ALIASES[word];
    if (forced?.[1] !== 'name' && asStatus) for (const s of asStatus) statuses.add(s);
    else words.push(word);
  }
  return { statuses, words, labels };
}

export function matchFilter(f: Filter, s: SessionView): boolean {
  if (f.statuses.size > 0 && !f.statuses.has(s.status)) return false;
  if (f.labels?.some((l) => !Object.hasOwn(s.labels ?? {}, l.key) || (l.value !== null && s.labels[l.key] !== l.value))) return false;
  if (f.words.length === 0) return true;
  const hay = `${s.name ?? ''}\n${s.id}\n${s.command ?? '(shell)'}`.toLowerCase();
  return f.words.every((w) => hay.includes(w));
}

/**
 * The rows shown: filtered, live first, newest first, a stack's sessions together. `keep` (the selected session) stays shown
 * though it no longer matches, so that an action that changes its status (`p` with a status
 * filter on) does not move the selection to another session under the next key.
 */
export function visibleSessions(sessions: readonly SessionView[], filter: string, keep: string | null = null): SessionView[] {
  const f = parseFilter(filter);
  // A stack's sessions together, under its heading (src/cli/top/stacks.ts).
  return groupByStack(sortSessions(sessions.filter((s) => s.id === keep || matchFilter(f, s))));
}

// ---------------------------------------------------------------------------------------------
// Layout

/** Lines above the table (header, column heads) and below the preview (footer). */
export const CHROME_LINES = 4;

/**
 * How many lines the table rows and the preview get on a terminal `height` lines high. Ink keeps
 * the cursor on the line below its output, so the frame is `height - 1` lines: header, column
 * heads, rows, the preview's title, the preview, footer. The table takes what its rows need, at
 * most about half (and at least 3 rows); the preview takes the rest.
 */
export function layout(height: number, rowCount: number): { tableRows: number; previewRows: number } {
  const body = Math.max(2, height - 1 - CHROME_LINES);
  const maxTable = Math.max(Math.min(3, body - 1), Math.floor(body / 2));
  const tableRows = Math.max(1, Math.min(maxTable, Math.max(rowCount, 1)));
  return { tableRows, previewRows: Math.max(0, body - tableRows) };
}

/** The first row to show so that `selected` is visible in a window of `size` rows. */
export function scrollTop(selected: number, count: number, size: number, previousTop = 0): number {
  if (count <= size || selected < 0) return 0;
  let top = Math.min(previousTop, count - size);
  if (selected < top) top = selected;
  if (selected >= top + size) top = selected - size + 1;
  return Math.max(0, top);
}

// ---------------------------------------------------------------------------------------------
// Columns

export interface Columns {
  name: number;
  reason: number;
  command: number;
  /** Narrow terminals drop these. */
  showReason: boolean;
  showUsage: boolean;
}

/** Fixed columns: marker 2, ID 8, STATUS 9, EXIT 4, TIME 6, CPU% 5, MEM 5. */
const W = { marker: 2, id: 8, status: 9, exit: 4, time: 6, cpu: 5, mem: 5 } as const;

/**
 * Column widths for a terminal `width` columns wide: the fixed ones, then NAME (its longest
 * value, 4–16), REASON (its longest, at most 22) and COMMAND share the rest, COMMAND keeping at
 * least 12. Below 64 columns CPU% and MEM go, below 50 REASON too.
 */
export function columns(width: number, rows: readonly SessionView[]): Columns {
  const showUsage = width >= 64;
  const showReason = width >= 50;
  // One space between columns: after ID, NAME, STATUS, EXIT and TIME (then COMMAND).
  let fixed = W.marker + W.id + 1 + 1 + W.status + 1 + W.exit + 1 + W.time + 1;
  if (showUsage) fixed += W.cpu + 1 + W.mem + 1;
  if (showReason) fixed += 1;
  const avail = Math.max(8, width - fixed);
  const longest = (f: (s: SessionView) => string) => rows.reduce((m, s) => Math.max(m, textWidth(f(s))), 0);
  const name = Math.min(Math.max(4, longest((s) => s.name ?? '')), 16, Math.max(4, Math.floor(avail * 0.3)));
  let reason = 0;
  if (showReason) reason = Math.max(6, Math.min(22, longest((s) => s.reason ?? ''), avail - name - 12));
  const command = Math.max(1, avail - name - reason);
  return { name, reason, command, showReason, showUsage };
}

/** What COMMAND shows: the command, or `(shell)`; with the foreground program when it is another one. */
export function commandText(s: SessionView): string {
  const fg = s.foreground;
  if (s.command === null) return fg ? `(shell) ${fg}` : '(shell)';
  const first = /^\s*(?:\S+=\S*\s+)*(\S+)/.exec(s.command)?.[1] ?? '';
  const program = first.replace(/^['"]|['"]$/g, '').split('/').pop();
  // A program that names itself after its command line (npm's process title `npm run dev`) is not another program.
  return fg && fg !== program && !s.command.trimStart().startsWith(fg) ? `[${fg}] ${s.command}` : s.command;
}

/** One row's cells, each already fitted to its column: before the status, the status, after it. */
export interface RowText {
  before: string;
  status: string;
  after: string;
}

export function headerText(c: Columns): string {
  const parts = [fit('', W.marker) + fit('ID', W.id), fit('NAME', c.name), fit('STATUS', W.status)];
  if (c.showReason) parts.push(fit('REASON', c.reason));
  parts.push(fit('EXIT', W.exit), fit('TIME', W.time, true));
  if (c.showUsage) parts.push(fit('CPU%', W.cpu, true), fit('MEM', W.mem, true));
  parts.push('COMMAND');
  return parts.join(' ');
}

export function rowText(s: SessionView, c: Columns, selected: boolean): RowText {
  const finished = isTerminal(s.status);
  const before = `${selected ? '▶ ' : '  '}${fit(s.id, W.id)} ${fit(clean(s.name ?? ''), c.name)} `;
  const after: string[] = [];
  if (c.showReason) after.push(fit(clean(isRestarting(s) ? restartingNote(s, Date.now()) : s.reason ?? ''), c.reason));
  after.push(fit(s.exitCode === null ? '' : String(s.exitCode), W.exit), fit(formatRuntime(s.durationMs), W.time, true));
  if (c.showUsage) {
    after.push(fit(finished ? '' : formatCpu(s.cpuPercent), W.cpu, true), fit(finished ? '' : formatBytes(s.rssBytes), W.mem, true));
  }
  after.push(truncate(clean(commandText(s)).replace(/\s+/g, ' '), c.command));
  return { before, status: fit(markedStatus(s), W.status), after: ` ${after.join(' ')}` };
}

/** The preview's lines: trailing blank lines dropped, the last `rows` kept, each cut to `width`. */
export function previewLines(text: string, rows: number, width: number): string[] {
  const lines = text.split('\n').map((l) => clean(l.replace(/\r$/, '')).trimEnd());
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines.slice(Math.max(0, lines.length - rows)).map((l) => truncate(l, width));
}
