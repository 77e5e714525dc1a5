import { renderPlain } from './log-render.js';
import { timeAt, type Mark } from './log-times.js';
import { MarkerStream } from './markers.js';

/** One line of output with the time by which it was in the log (epoch ms; null: no mark reaches it yet). */
export interface StampedLine {
  at: number | null;
  text: string;
  /** The absolute log offset just after the line (its newline). */
  end: number;
  /** The last line, not ended by a newline yet (a follower goes on from the line before). */
  open?: true;
}

/**
 * `logs -t` (src/guides/sessions.md: logs): the raw bytes read from absolute `offset`, amux's job
 * markers removed, cut into lines at their absolute end offsets, each rendered as plain text and
 * given the time of the first mark that covers it. Pure.
 */
export function stampLines(raw: Buffer, offset: number, nonce: string, marks: readonly Mark[]): StampedLine[] {
  const lines: StampedLine[] = [];
  let pending: Buffer[] = [];
  const flush = (end: number, open: boolean) => {
    const text = renderPlain(Buffer.concat(pending).toString('utf8'));
    pending = [];
    lines.push({ at: timeAt(marks, end), text: text.endsWith('\n') ? text.slice(0, -1) : text, end, ...(open ? { open: true as const } : {}) });
  };
  // One feed with `final`: every data piece is a view of `raw`, so its place in the log is known.
  for (const piece of new MarkerStream(nonce).feed(raw, true)) {
    if (!('data' in piece)) continue;
    const at = offset + (piece.data.byteOffset - raw.byteOffset);
    let from = 0;
    for (;;) {
      const nl = piece.data.indexOf(10, from);
      if (nl < 0) break;
      pending.push(piece.data.subarray(from, nl + 1));
      flush(at + nl + 1, false);
      from = nl + 1;
    }
    if (from < piece.data.length) pending.push(piece.data.subarray(from));
  }
  if (pending.length) flush(offset + raw.length, true);
  return lines;
}
