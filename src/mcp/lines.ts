/*
 * The messages of `amux mcp`'s stdio (src/guides/agents.md): one JSON-RPC message a line, each at most
 * MAX_MESSAGE_BYTES. A longer line is dropped as it streams in (never held whole) and answered with
 * an error; the id it carried is recovered from its first and last bytes, where clients put it.
 */

/** The largest message `amux mcp` reads (src/guides/agents.md). */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** How much of the start and end of an oversize line is kept to find its id. */
const KEEP = 4096;

/** What a chunk of input brought: whole lines, and lines over the limit (their size and id, if found). */
export type Piece = { kind: 'line'; text: string } | { kind: 'oversize'; bytes: number; id: string | number | null };

/** Splits a byte stream into lines of at most `max` bytes (a trailing CR is dropped). */
export class LineReader {
  private parts: Buffer[] = [];
  private size = 0;
  /** Set while dropping a line over the limit: its start, its newest bytes and its size so far. */
  private over: { head: Buffer; tail: Buffer; bytes: number } | null = null;

  constructor(private readonly max = MAX_MESSAGE_BYTES) {}

  push(chunk: Buffer): Piece[] {
    const pieces: Piece[] = [];
    let rest = chunk;
    for (;;) {
      const nl = rest.indexOf(0x0a);
      const part = nl < 0 ? rest : rest.subarray(0, nl);
      this.take(part);
      if (nl < 0) break;
      pieces.push(this.end());
      rest = rest.subarray(nl + 1);
    }
    return pieces;
  }

  private take(part: Buffer): void {
    if (part.length === 0) return;
    if (!this.over && this.size + part.length <= this.max) {
      this.parts.push(part);
      this.size += part.length;
      return;
    }
    if (!this.over) {
      const whole = Buffer.concat(this.parts);
      this.over = { head: whole.subarray(0, KEEP), tail: Buffer.alloc(0), bytes: this.size };
      this.parts = [];
      this.size = 0;
    }
    const tail = Buffer.concat([this.over.tail, part]);
    this.over.tail = Buffer.from(tail.subarray(Math.max(0, tail.length - KEEP)));
    this.over.bytes += part.length;
  }

  private end(): Piece {
    if (this.over) {
      const { head, tail, bytes } = this.over;
      this.over = null;
      return { kind: 'oversize', bytes, id: messageId(head.toString('utf8'), tail.toString('utf8')) };
    }
    const text = Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.size = 0;
    return { kind: 'line', text };
  }
}

const ID_VALUE = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
/** `{"jsonrpc":"2.0","id":7,…`: the id among the first members, before any nested value. */
const HEAD_ID = new RegExp(String.raw`^\s*\{(?:\s*"(?:[^"\\]|\\.)*"\s*:\s*(?:"(?:[^"\\]|\\.)*"|-?[\d.eE+-]+|true|false|null)\s*,)*?\s*"id"\s*:\s*${ID_VALUE}`);
/** `…,"jsonrpc":"2.0","id":7}`: the id among the last members (the SDKs write it last). */
const TAIL_ID = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${ID_VALUE}\s*(?:,\s*"(?:[^"\\]|\\.)*"\s*:\s*(?:"(?:[^"\\]|\\.)*"|-?[\d.eE+-]+|true|false|null)\s*)*\}\s*$`);

/** The id of a message of which only the start and the end are known; null when neither shows it. */
export function messageId(head: string, tail: string): string | number | null {
  const m = HEAD_ID.exec(head) ?? TAIL_ID.exec(tail);
  if (!m) return null;
  try {
    const id: unknown = JSON.parse(m[1]!);
    return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : null;
  } catch {
    return null;
  }
}
