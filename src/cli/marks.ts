import type { SessionView } from '../protocol/sessions.js';

/** The mark of a session that asks for a person (src/guides/statuses.md: attention), after its status in `ps` and `top`. */
export const ATTENTION_MARK = '!';

type Shown = Pick<SessionView, 'status' | 'attention'> & Partial<Pick<SessionView, 'restartOf' | 'startAfter'>>;

/** A restart chain in its backoff: the next run is pending until `startAfter` (src/guides/sessions.md "Restart, labels, groups"). */
export function isRestarting(s: Partial<Pick<SessionView, 'status' | 'restartOf' | 'startAfter'>>): boolean {
  return s.status === 'pending' && s.restartOf != null && s.startAfter != null;
}

/** The status as tables show it: `idle!` when the session asks for attention, `restarting` for a chain in its backoff. */
export function markedStatus(s: Shown): string {
  if (isRestarting(s)) return 'restarting';
  return s.attention ? `${s.status}${ATTENTION_MARK}` : s.status;
}

/** `in 4s, restart 3 of at most 5`: when a restarting chain's next run starts, and which restart it is. */
export function restartingNote(s: Pick<SessionView, 'startAfter' | 'restarts' | 'restartPolicy'>, now: number): string {
  const inS = Math.max(0, Math.ceil((Date.parse(s.startAfter!) - now) / 1000));
  const max = /:(\d+)$/.exec(s.restartPolicy ?? '')?.[1];
  return `in ${inS}s, restart ${s.restarts}${max ? ` of at most ${max} in a row` : ''}`;
}
