import { durationField } from '../../core/duration.js';
import { parseTimeRef } from '../../core/log-times.js';
import { AmuxError } from '../../errors.js';

/**
 * Query values the schemas of protocol/schemas.ts leave as text because their meaning is the
 * route's: a duration (`since`, `graceMs`) as milliseconds or a text such as `90s`.
 */
export function queryDuration(v: string | undefined, key: string): number | undefined {
  return v === undefined ? undefined : durationField(v, key, 0);
}

/**
 * A point in time from a query value (`since`, `until` of history and events): an ISO-8601 time
 * or epoch ms (12 digits or more), else a duration before `now` as queryDuration reads it.
 */
export function queryTime(v: string | undefined, key: string, now: number): number | undefined {
  if (v === undefined) return undefined;
  if (/^\d{4}-\d\d-\d\d/.test(v) || /^\d{12,}$/.test(v)) {
    try {
      return parseTimeRef(v, now, key);
    } catch (err) {
      throw new AmuxError('invalid_argument', (err as Error).message);
    }
  }
  return now - queryDuration(v, key)!;
}
