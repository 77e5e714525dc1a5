import type { Client } from '../../client/client.js';
import { readBody } from '../../client/http.js';
import { renderPlain } from '../../core/log-render.js';
import { isTerminal } from '../../core/status.js';
import { toAmuxError } from '../../errors.js';
import type { SessionView } from '../../protocol/sessions.js';

/** How much of a finished session's log the preview reads (its last lines). */
const TAIL_BYTES = 32 * 1024;

/** What the preview shows: the selected session's screen (live), its log's last lines (finished), or a note. */
export interface Preview {
  id: string | null;
  kind: 'screen' | 'log' | 'note';
  text: string;
}

/**
 * Where `top`'s preview comes from (src/guides/sessions.md "Dashboard"): one request for the selected row only, the
 * screen of a live session or the last lines of a finished one; a finished one's log is read again
 * only when it grew.
 */
export class PreviewSource {
  private tailOf: { id: string; logBytes: number } | null = null;

  constructor(private readonly client: Client) {}

  /**
   * The preview of `s` (the selected row, or none); 'unchanged' when the shown log tail of `shownId`
   * is still current; 'gone' when the daemon no longer answers.
   */
  async read(s: SessionView | undefined, anySessions: boolean, shownId: string | null): Promise<Preview | 'unchanged' | 'gone'> {
    if (!s) return { id: null, kind: 'note', text: anySessions ? 'no session matches the filter' : "no sessions yet: start one with 'amux run'" };
    if (s.status === 'pending') return { id: s.id, kind: 'note', text: 'pending: waiting for a maxLive slot' };
    try {
      if (!isTerminal(s.status)) {
        this.tailOf = null;
        const { screen } = await this.client.sessions.screen(s.id);
        return { id: s.id, kind: 'screen', text: screen };
      }
      if (this.tailOf?.id === s.id && this.tailOf.logBytes === s.logBytes && shownId === s.id) return 'unchanged';
      const res = await this.client.sessions.logs(s.id, { sinceOffset: Math.max(0, s.logBytes - TAIL_BYTES) });
      const text = renderPlain((await readBody(res)).toString('utf8'));
      this.tailOf = { id: s.id, logBytes: s.logBytes };
      return { id: s.id, kind: 'log', text };
    } catch (err) {
      const e = toAmuxError(err);
      if (e.code === 'daemon_unreachable') return 'gone';
      return { id: s.id, kind: 'note', text: e.message };
    }
  }
}
