import { renderPlain } from '../../core/log-render.js';
import { MarkerStream } from '../../core/markers.js';
import type { SessionRecord } from '../../core/records.js';
import { isTerminal } from '../../core/status.js';
import { sessionPaths } from '../../paths.js';
import type { DaemonContext } from '../context.js';
import { logExtent, readLog } from '../output/log-files.js';
import { captureScreen } from './screen.js';

/** Without a cursor, the newest this many bytes of output are searched (then everything new). */
const SEARCH_BACK = 1024 * 1024;
/** Read (and match, in one go of the regex thread: ADR 0029) at most this much per step. */
const STEP = 256 * 1024;
/** Raw bytes kept from one look to the next, so a match across two pieces of output is found. */
const CARRY = 8 * 1024;
/** The screen is captured at most this often (a tmux call), and only when output came. */
const SCREEN_EVERY_MS = 500;
/** A matched line is cut to this many characters in the answer. */
const MAX_MATCH = 500;

/** The line of `text` that holds index `at`. */
function lineAt(text: string, at: number): string {
  const from = text.lastIndexOf('\n', at - 1) + 1;
  const to = text.indexOf('\n', at);
  return text.slice(from, to < 0 ? text.length : to).slice(0, MAX_MATCH);
}

/**
 * `wait --until output:REGEX` for one session (ADR 0018): REGEX is matched against the plain text
 * of the terminal output (amux's markers removed, escapes stripped, overwrites applied) from the
 * cursor on. Without a cursor, the newest SEARCH_BACK bytes count too, and so does the screen
 * (full-screen programs draw with cursor moves that plain text cannot render).
 */
export class OutputWatch {
  private pos: number;
  private carry = Buffer.alloc(0);
  private readonly markers: MarkerStream;
  private readonly screen: boolean;
  private screenAt = 0;
  private screenPos = -1;

  constructor(
    private readonly ctx: DaemonContext,
    s: SessionRecord,
    /** The expression's source, matched in the regex thread (ADR 0029). */
    private readonly source: string,
    sinceOffset: number | null,
    /** Whose turn its matches take in the regex threads (ADR 0056): one wait request. */
    private readonly client: object = {},
  ) {
    this.markers = new MarkerStream(s.nonce);
    this.screen = sinceOffset === null;
    this.pos = sinceOffset ?? Math.max(0, logExtent(this.dir(s), s.logChunkBytes).end - SEARCH_BACK);
  }

  private dir(s: SessionRecord): string {
    return sessionPaths(this.ctx.paths, s.id).logDir;
  }

  /** The matching line, or null. Reads on from where the last look stopped. */
  async look(s: SessionRecord): Promise<string | null> {
    const dir = this.dir(s);
    for (;;) {
      const read = readLog(dir, s.logChunkBytes, this.pos, STEP);
      if (read.data.length === 0) break;
      this.pos = read.nextOffset;
      const data = Buffer.concat(this.markers.feed(read.data).flatMap((p) => ('data' in p ? [p.data] : [])));
      const window = this.carry.length ? Buffer.concat([this.carry, data]) : data;
      this.carry = Buffer.from(window.subarray(Math.max(0, window.length - CARRY)));
      const text = renderPlain(window.toString('utf8'));
      const at = await this.ctx.regex.match(this.source, text, this.client);
      if (at >= 0) return lineAt(text, at);
      if (read.data.length < STEP) break;
    }
    if (!this.screen || s.removedAt || !s.paneId || s.closedAt || isTerminal(s.status) || s.status === 'pending') return null;
    const now = Date.now();
    if (this.screenPos === this.pos || now - this.screenAt < SCREEN_EVERY_MS) return null;
    this.screenAt = now;
    this.screenPos = this.pos;
    let screen: string;
    try {
      screen = await captureScreen(this.ctx, s);
    } catch {
      return null; // closed meanwhile: the log said all there is
    }
    const at = await this.ctx.regex.match(this.source, screen, this.client);
    return at >= 0 ? lineAt(screen, at) : null;
  }
}
