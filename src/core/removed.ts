import { AmuxError } from '../errors.js';
import { formatAge } from './duration.js';
import { isoTime } from './iso-time.js';

/**
 * The one answer to every verb that acts on a session that was removed (src/guides/sessions.md: rm;
 * ADR 0031): `session_removed`, exit 1, saying when. Only what reads history still finds it:
 * inspect, history, events, jobs, wait.
 */
export function sessionRemoved(id: string, removedAt: number, now = Date.now()): AmuxError {
  const at = isoTime(removedAt)!.replace(/\.\d+Z$/, 'Z');
  return new AmuxError('session_removed', `session ${id} was removed ${formatAge(now - removedAt)} ago (${at}); its record and last output are kept: 'amux inspect ${id}'`);
}
