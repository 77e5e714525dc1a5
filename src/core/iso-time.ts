/** The latest (and, negated, the earliest) time a JavaScript Date holds: 8.64e15 ms from the epoch. */
const DATE_LIMIT_MS = 8.64e15;

/**
 * A stored time as ISO 8601 text, never throwing (ADR 0054): a row written by an older build with a
 * time past the Date range (`--delay 99999999d`) shows that range's end instead of failing the
 * whole listing it is in; a time that is no number at all shows as null.
 */
export function isoTime(ms: number | null | undefined): string | null {
  if (ms == null || !Number.isFinite(ms)) return null;
  return new Date(Math.max(-DATE_LIMIT_MS, Math.min(DATE_LIMIT_MS, ms))).toISOString();
}
