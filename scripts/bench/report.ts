import type { Stats } from './measure.js';

/** One line of the report; `met` is undefined for context rows that carry no goal of scripts/PERFORMANCE.md. */
export interface Row {
  metric: string;
  median: string;
  p90: string;
  value: string;
  goal: string;
  met?: boolean;
}

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
export const ms = (n: number) => `${fmt(n)} ms`;
export const mb = (n: number) => `${fmt(n)} MB`;

/** A timed row compared with a floor: the value is the ratio of medians. */
export function ratioRow(metric: string, s: Stats, floor: Stats, goal?: number): Row {
  const ratio = s.median / floor.median;
  return {
    metric, median: ms(s.median), p90: ms(s.p90), value: `${fmt(ratio, 2)}× (floor ${ms(floor.median)})`,
    goal: goal === undefined ? '' : `≤ ${goal}×`, met: goal === undefined ? undefined : ratio <= goal,
  };
}

/** A timed row against an absolute limit in ms (on the median). */
export function limitRow(metric: string, s: Stats, limitMs?: number): Row {
  return {
    metric, median: ms(s.median), p90: ms(s.p90), value: '',
    goal: limitMs === undefined ? '' : `≤ ${limitMs} ms`, met: limitMs === undefined ? undefined : s.median <= limitMs,
  };
}

/** A single value against an upper bound. */
export function valueRow(metric: string, value: number, shown: string, limit?: number, limitShown?: string): Row {
  return {
    metric, median: '', p90: '', value: shown,
    goal: limit === undefined ? '' : `≤ ${limitShown ?? limit}`, met: limit === undefined ? undefined : value <= limit,
  };
}

export function errorRow(metric: string, err: unknown): Row {
  return { metric, median: '', p90: '', value: `ERROR: ${(err as Error).message.split('\n')[0]}`, goal: '', met: false };
}

/** Plain aligned columns; no colour, so the output pastes into a README as is. */
export function renderTable(rows: readonly Row[]): string {
  const head = ['measurement', 'median', 'p90', 'value', 'goal', 'result'];
  const cells = rows.map((r) => [r.metric, r.median, r.p90, r.value, r.goal, r.met === undefined ? '' : r.met ? 'met' : 'NOT MET']);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i === 1 || i === 2 ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}
