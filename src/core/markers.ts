/**
 * Job boundary markers in a session's terminal stream.
 *
 * The session's shell prints an OSC sequence before and after each job it runs:
 *   ESC ] 5150 ; amux ; <nonce> ; s ; <seq> BEL          (job started)
 *   ESC ] 5150 ; amux ; <nonce> ; e ; <seq> ; <code> BEL (job ended)
 * Terminals (and tmux) ignore unknown OSC sequences, so an attached user sees nothing.
 * The nonce is private to the session, so program output cannot forge a marker.
 * Readers strip markers and use them to cut out exactly one job's bytes.
 */
export type Mark = { kind: 'start'; seq: number } | { kind: 'end'; seq: number; code: number };

export type Piece = { data: Buffer } | { mark: Mark };

const ESC = 0x1b;
const BEL = 0x07;
/** The longest a marker can be; a reader holding fewer bytes may hold half of one. */
export const MAX_MARK = 96;

export function markerPrefix(nonce: string): Buffer {
  return Buffer.from(`\x1b]5150;amux;${nonce};`);
}

/** Streaming splitter of a terminal stream into data and marks; safe across chunk borders. */
export class MarkerStream {
  private readonly prefix: Buffer;
  private carry: Buffer = Buffer.alloc(0);
  private input = 0;

  constructor(nonce: string) {
    this.prefix = markerPrefix(nonce);
  }

  /** Input bytes fully consumed so far (a held-back partial marker excluded). */
  get offset(): number {
    return this.input - this.carry.length;
  }

  feed(chunk: Buffer, final = false): Piece[] {
    this.input += chunk.length;
    const buf = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    const pieces: Piece[] = [];
    let pos = 0;
    let from = 0;
    let keep = -1;
    for (;;) {
      const at = buf.indexOf(this.prefix, from);
      if (at < 0) break;
      const end = buf.indexOf(BEL, at + this.prefix.length);
      if (end < 0 && !final && buf.length - at <= MAX_MARK) {
        keep = at; // an unfinished marker: wait for the rest
        break;
      }
      const mark = end < 0 || end - at > MAX_MARK ? null : parseMark(buf.subarray(at + this.prefix.length, end).toString('latin1'));
      if (!mark) {
        from = at + 1;
        continue;
      }
      if (at > pos) pieces.push({ data: buf.subarray(pos, at) });
      pieces.push({ mark });
      pos = end + 1;
      from = pos;
    }
    if (keep < 0) keep = final ? buf.length : partialPrefixStart(buf, this.prefix, pos);
    if (keep > pos) pieces.push({ data: buf.subarray(pos, keep) });
    this.carry = Buffer.from(buf.subarray(keep));
    return pieces;
  }
}

function partialPrefixStart(buf: Buffer, prefix: Buffer, pos: number): number {
  const from = Math.max(pos, buf.length - prefix.length + 1);
  for (let i = from; i < buf.length; i++) {
    if (buf[i] === ESC && prefix.subarray(0, buf.length - i).equals(buf.subarray(i))) return i;
  }
  return buf.length;
}

const DIGITS = /^\d+$/;

function parseMark(body: string): Mark | null {
  const parts = body.split(';');
  if (!DIGITS.test(parts[1] ?? '') || Number(parts[1]) < 1 || !Number.isSafeInteger(Number(parts[1]))) return null;
  const seq = Number(parts[1]);
  if (parts[0] === 's' && parts.length === 2) return { kind: 'start', seq };
  if (parts[0] === 'e' && parts.length === 3 && DIGITS.test(parts[2]!)) return { kind: 'end', seq, code: Number(parts[2]) };
  return null;
}

/** Removes every marker of `nonce` from a complete buffer. */
export function stripMarkers(buf: Buffer, nonce: string): Buffer {
  const pieces = new MarkerStream(nonce).feed(buf, true);
  return Buffer.concat(pieces.flatMap((p) => ('data' in p ? [p.data] : [])));
}
