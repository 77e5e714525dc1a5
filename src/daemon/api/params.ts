import { durationField } from '../../core/duration.js';

/**
 * Query values the schemas of protocol/schemas.ts leave as text because their meaning is the
 * route's: a duration (`since`, `graceMs`) as milliseconds or a text such as `90s`.
 */
export function queryDuration(v: string | undefined, key: string): number | undefined {
  return v === undefined ? undefined : durationField(v, key, 0);
}
