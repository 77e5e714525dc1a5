import { AmuxError } from '../errors.js';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * The longest duration amux takes anywhere, 100 years (ADR 0054): a time computed from it (`now +
 * delay`, `now - since`) is always a date, whatever the flag, the API field or the stack key.
 */
export const MAX_DURATION_MS = 36_500 * UNIT_MS.d!;
const MAX_TEXT = '36500d (100 years, 3153600000000 ms)';
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/y;
/** Units in the order a duration writes them, each at most once (`1h30m`, not `30m1h` or `5m5m`). */
const ORDER = ['d', 'h', 'm', 's', 'ms'];

/** Parses `1500ms`, `90s`, `5m`, `2h`, `1h30m`, `1d`, or a bare integer (seconds) into ms; units largest first, once each. */
export function parseDuration(input: string, what = 'duration'): number {
  const text = String(input).trim();
  const fail = () =>
    new AmuxError('usage', `invalid ${what} '${input}': use e.g. 1500ms, 90s, 5m, 2h, 1h30m, 1d, or a number of seconds`);
  if (/^\d+$/.test(text)) return checked(Number(text) * 1000, fail, input, what);
  if (text === '') throw fail();
  let total = 0;
  let last = -1;
  PART.lastIndex = 0;
  while (PART.lastIndex < text.length) {
    const start = PART.lastIndex;
    const m = PART.exec(text);
    const rank = m ? ORDER.indexOf(m[2]!) : -1;
    if (!m || m.index !== start || rank <= last) throw fail();
    last = rank;
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
  }
  return checked(Math.round(total), fail, input, what);
}

/** A time in the API: an integer of milliseconds (number or digits), or a duration text such as `5s`. */
export function durationField(v: unknown, what: string, fallback: number): number {
  if (v === undefined || v === null) return fallback;
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return boundedMs(v, what);
  if (typeof v === 'string' && /^\d+$/.test(v)) return boundedMs(Number(v), what);
  if (typeof v === 'string') return parseDuration(v, what);
  throw new AmuxError('invalid_argument', `${what} must be an integer of milliseconds or a duration such as 5s`);
}

/** A number of milliseconds no longer than MAX_DURATION_MS, or `invalid_argument` saying the longest. */
export function boundedMs(ms: number, what: string): number {
  if (!(ms <= MAX_DURATION_MS)) throw tooLong(String(ms), what, 'invalid_argument');
  return ms;
}

function checked(ms: number, fail: () => AmuxError, input: string, what: string): number {
  if (!Number.isFinite(ms)) throw fail();
  if (ms > MAX_DURATION_MS) throw tooLong(input, what, 'usage');
  return ms;
}

function tooLong(input: string, what: string, code: 'usage' | 'invalid_argument'): AmuxError {
  return new AmuxError(code, `invalid ${what} '${String(input).slice(0, 40)}': the longest is ${MAX_TEXT}`);
}

/** A short human age: `45s`, `3m`, `2h`, `4d`. */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}

/** A duration as people write it: `850ms`, `1s`, `1.5s`, `3m5s`, `2h10m`, `30d`, `1d2h`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(1)}s`;
  const s = Math.floor(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)}m${s % 60}s`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h${Math.floor((s % 3600) / 60)}m`;
  const h = Math.floor((s % 86_400) / 3600);
  return `${Math.floor(s / 86_400)}d${h ? `${h}h` : ''}`;
}

/** Parses a byte size: `8MiB`, `512KiB`, `1048576`, `2MB`. */
export function parseBytes(input: string, what = 'size'): number {
  const m = /^(\d+(?:\.\d+)?)\s*(b|kib|kb|k|mib|mb|m|gib|gb|g)?$/i.exec(String(input).trim());
  if (!m) throw new AmuxError('usage', `invalid ${what} '${input}': use a byte count or e.g. 512KiB, 8MiB`);
  const unit = (m[2] ?? 'b').toLowerCase();
  const mult = unit.startsWith('k') ? 1024 : unit.startsWith('m') ? 1024 ** 2 : unit.startsWith('g') ? 1024 ** 3 : 1;
  return Math.floor(Number(m[1]) * mult);
}
