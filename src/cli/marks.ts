import type { SessionView } from '../protocol/sessions.js';

/** The mark of a session that asks for a person (README "Statuses": attention), after its status in `ps` and `top`. */
export const ATTENTION_MARK = '!';

/** The status as tables show it: `idle!` when the session asks for attention. */
export function markedStatus(s: Pick<SessionView, 'status' | 'attention'>): string {
  return s.attention ? `${s.status}${ATTENTION_MARK}` : s.status;
}
