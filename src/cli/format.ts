import { AmuxError } from '../errors.js';
import { labelsText } from '../core/labels.js';
import { formatTable } from './output.js';
import { visible } from '../core/visible.js';

/**
 * `--format` of `ps`, `history`, `jobs` and `inspect` (src/guides/sessions.md "Output formats"), docker's forms:
 * `json` (one JSON object per line), `table TEMPLATE` (a header and aligned columns, split at
 * tabs), or a TEMPLATE printed once per row. A template holds text and `{{.Field}}` (a field of
 * the `--json` object, any case: `{{.ID}}`, `{{.exitCode}}`), `{{json .Field}}` and `{{json .}}`;
 * `\t` and `\n` are a tab and a newline. Pure: the text comes back, the caller prints it.
 */
type Part = { text: string } | { field: string | null; json: boolean };

export interface Format {
  kind: 'json' | 'rows' | 'table';
  parts: Part[];
}

const ACTION = /\{\{\s*(json\s+)?\.([A-Za-z][A-Za-z0-9]*)?\s*\}\}/g;

/** Parses a `--format` value against the fields rows have; an unknown field names the valid ones. */
export function parseFormat(text: string, fields: readonly string[]): Format {
  if (text.trim() === 'json') return { kind: 'json', parts: [] };
  const table = /^table(\s|$)/.test(text);
  const body = (table ? text.replace(/^table\s*/, '') : text).replace(/\\t/g, '\t').replace(/\\n/g, '\n');
  if (table && body === '') throw new AmuxError('usage', "--format 'table' needs a template: table {{.ID}}\\t{{.Status}}");
  const parts: Part[] = [];
  let last = 0;
  for (const m of body.matchAll(ACTION)) {
    if (m.index > last) parts.push({ text: body.slice(last, m.index) });
    const name = m[2] ?? null;
    if (name === null && !m[1]) throw new AmuxError('usage', `--format: '{{.}}' is only for json: use {{json .}} or a field: ${fields.join(', ')}`);
    parts.push({ field: name === null ? null : fieldName(name, fields), json: m[1] !== undefined });
    last = m.index + m[0].length;
  }
  if (last < body.length) parts.push({ text: body.slice(last) });
  const rest = parts.filter((p): p is { text: string } => 'text' in p).find((p) => p.text.includes('{{'));
  if (rest) throw new AmuxError('usage', `--format: cannot read ${JSON.stringify(rest.text.slice(rest.text.indexOf('{{')).slice(0, 40))}: use {{.Field}}, {{json .Field}} or {{json .}}`);
  return { kind: table ? 'table' : 'rows', parts };
}

function fieldName(name: string, fields: readonly string[]): string {
  const key = name.toLowerCase();
  const found = fields.find((f) => f.toLowerCase() === key);
  if (!found) throw new AmuxError('usage', `--format: unknown field '${name}'; fields: ${fields.join(', ')}`);
  return found;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') {
    if (Array.isArray(value)) return value.join(',');
    // Labels read as `k=v,…`; any other object (attention, declared) as its JSON.
    const values = Object.values(value);
    return values.every((v) => typeof v === 'string') ? labelsText(value as Record<string, string>) : JSON.stringify(value);
  }
  return String(value); // render() escapes what a program wrote (a title, a name: ADR 0050)
}

function render(parts: readonly Part[], row: Record<string, unknown>): string {
  return parts.map((p) => ('text' in p ? p.text : visible(p.json ? JSON.stringify(p.field === null ? row : row[p.field] ?? null) : cell(row[p.field!])))).join('');
}

/** The rows in `format`, each line ending in a newline. */
export function applyFormat(format: Format, rows: readonly object[]): string {
  return [...formatLines(format, rows)].join('');
}

/**
 * The rows in `format`, a line at a time, each made only when the one before was taken: the output
 * of a template that repeats a long field is written as it is made, never held whole (a table, whose
 * columns fit its widest cell, comes as one piece).
 */
export function* formatLines(format: Format, rows: readonly object[]): Generator<string> {
  const records = rows as readonly Record<string, unknown>[];
  if (format.kind === 'json') for (const r of records) yield `${JSON.stringify(r)}\n`;
  else if (format.kind === 'rows') for (const r of records) yield `${render(format.parts, r)}\n`;
  else yield formatTableOf(format, records);
}

function formatTableOf(format: Format, records: readonly Record<string, unknown>[]): string {
  const head = render(format.parts.map((p) => ('text' in p ? p : { text: p.field === null ? 'JSON' : headerOf(p.field) })), {}).split('\t');
  const lines = records.map((r) => render(format.parts, r).split('\t'));
  return formatTable(head, lines);
}

/** A field's column header: `exitCode` → `EXIT CODE`, `id` → `ID`. */
function headerOf(field: string): string {
  return field.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toUpperCase();
}

/** Prints `rows` in the `--format` given, checked against the fields of the row type (`sample` keys or `fields`). */
export async function printFormatted(template: string, rows: readonly object[], fields: readonly string[]): Promise<void> {
  const { writeOut } = require('./output.js') as typeof import('./output.js');
  let pending = '';
  for (const line of formatLines(parseFormat(template, fields), rows)) {
    pending += line;
    if (pending.length < WRITE_CHUNK) continue;
    await writeOut(pending);
    pending = '';
  }
  if (pending) await writeOut(pending);
}

/** Lines are written in pieces of about this many characters (fewer writes than one per line). */
const WRITE_CHUNK = 64 * 1024;
