import { AmuxError } from '../errors.js';
import { parseDuration } from './duration.js';

/**
 * When a session's log grew (src/guides/sessions.md: logs --since/--until/-t): marks `[offset, at]`,
 * each saying that by time `at` (epoch ms) the log held `offset` bytes. The daemon writes one at
 * most every second while output flows, so a byte written between two marks is placed at the
 * later one: times are exact to about a second, and a time window reads at most that much more.
 * Pure: parsing, and the offsets and times the marks give.
 */
export type Mark = readonly [offset: number, at: number];

/** The marks file: one `OFFSET AT` a line, in the order written; a torn last line is skipped. */
export function parseMarks(text: string): Mark[] {
  const marks: Mark[] = [];
  for (const line of text.split('\n')) {
    const m = parseMark(line);
    if (m) marks.push(m);
  }
  return marks;
}

/** One line of the marks file; null for a torn or foreign one. */
export function parseMark(line: string): Mark | null {
  const m = /^(\d+) (\d+)$/.exec(line);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/**
 * The marks worth keeping: none for bytes no longer on disk (below `first`, the oldest chunk
 * kept), and at most `max`: beyond it every other mark of the older half goes, so old output's
 * times get coarser (a window then reads a little more) while the newest stay exact to a second.
 */
export function keptMarks(marks: readonly Mark[], first: number, max: number): Mark[] {
  let kept = marks.filter(([o]) => o >= first);
  while (kept.length > max) {
    const half = kept.length >> 1;
    kept = [...kept.slice(0, half).filter((_, i) => i % 2 === 1), ...kept.slice(half)];
  }
  return kept;
}

export function markLine(offset: number, at: number): string {
  return `${offset} ${at}\n`;
}

/** The first offset that may hold a byte written at or after `t` (0 when every mark is later). */
export function offsetSince(marks: readonly Mark[], t: number): number {
  let offset = 0;
  for (const [o, at] of marks) if (at <= t) offset = o;
  return offset;
}

/** Marks come at most this late after the bytes they cover (a second while output flows). */
export const MARK_SLACK_MS = 1000;

/**
 * The offset by which what was written before `t` is in the log: the last mark at most a
 * second after `t`; null (all of it) when `t` is after the last mark.
 */
export function offsetUntil(marks: readonly Mark[], t: number): number | null {
  if (marks.length === 0 || t >= marks[marks.length - 1]![1]) return null;
  let offset = 0;
  for (const [o, at] of marks) if (at <= t + MARK_SLACK_MS) offset = o;
  return offset;
}

/** The time by which the byte before `offset` was written; null when no mark reaches it yet. */
export function timeAt(marks: readonly Mark[], offset: number): number | null {
  for (const [o, at] of marks) if (o >= offset) return at;
  return null;
}

/**
 * `--since`/`--until` values: an ISO-8601 time (`2026-11-26T10:00:00Z`, a date alone is its UTC
 * midnight), epoch milliseconds, or a duration before `now` (`10m`, `1h30m`).
 */
export function parseTimeRef(text: string, now: number, what: string): number {
  if (/^\d{4}-\d\d-\d\d/.test(text)) {
    const t = Date.parse(text);
    if (Number.isNaN(t)) throw new AmuxError('usage', `invalid ${what} '${text}': give an ISO time (2026-11-26T10:00:00Z), epoch ms, or a duration such as 10m`);
    return t;
  }
  if (/^\d{12,}$/.test(text)) return Number(text);
  return now - parseDuration(text, what);
}
