/**
 * Where a page of terminal output may begin and end (src/guides/sessions.md: logs; ADR 0031): never
 * inside an escape sequence (CSI, OSC, and so amux's job markers, DCS/SOS/PM/APC strings, the
 * short escapes) nor inside a UTF-8 character. A page that would end inside one ends before it,
 * so the next page starts with it whole; a page asked to start inside one starts after it. Pure:
 * the readers (src/daemon/output/log-stream.ts, src/daemon/job/streams.ts) do the reading.
 */

/** Sequences longer than this are not kept whole (a page then splits them, as bytes). */
export const MAX_SEQUENCE = 4096;

const ESC = 0x1b;
const BEL = 0x07;

const inRange = (b: number | undefined, lo: number, hi: number): boolean => b !== undefined && b >= lo && b <= hi;

/**
 * The index just past the escape sequence that starts at `buf[i]` (an ESC), or -1 when `buf` ends
 * before the sequence does. A malformed sequence ends where it stops being one.
 */
export function sequenceEnd(buf: Uint8Array, i: number): number {
  const b = buf[i + 1];
  if (b === undefined) return -1;
  if (b === 0x5b) {
    // CSI: parameters, intermediates, one final byte.
    let j = i + 2;
    while (inRange(buf[j], 0x30, 0x3f)) j++;
    while (inRange(buf[j], 0x20, 0x2f)) j++;
    if (j >= buf.length) return -1;
    return inRange(buf[j], 0x40, 0x7e) ? j + 1 : j;
  }
  if (b === 0x5d || b === 0x50 || b === 0x58 || b === 0x5e || b === 0x5f) {
    // OSC (ended by BEL or ST), DCS, SOS, PM, APC (ended by ST = ESC \).
    for (let j = i + 2; j < buf.length; j++) {
      if (buf[j] === BEL && b === 0x5d) return j + 1;
      if (buf[j] === ESC) {
        if (j + 1 >= buf.length) return -1;
        return buf[j + 1] === 0x5c ? j + 2 : j;
      }
    }
    return -1;
  }
  if (inRange(b, 0x20, 0x2f)) {
    // nF escapes (charset designations such as ESC ( B): intermediates, then one final byte.
    let j = i + 1;
    while (inRange(buf[j], 0x20, 0x2f)) j++;
    if (j >= buf.length) return -1;
    return inRange(buf[j], 0x30, 0x7e) ? j + 1 : j;
  }
  return inRange(b, 0x30, 0x7e) ? i + 2 : i + 1;
}

/** Bytes of the UTF-8 character a lead byte starts (1 for anything else). */
function utf8Length(b: number): number {
  if (b >= 0xf0 && b <= 0xf4) return 4;
  if (b >= 0xe0) return b <= 0xef ? 3 : 1;
  return b >= 0xc2 ? 2 : 1;
}

const isContinuation = (b: number | undefined): boolean => inRange(b, 0x80, 0xbf);

/**
 * Scans `buf` from `from` (a point between sequences) and returns the start of the sequence or
 * character that `buf` ends inside, or `buf.length` when it ends between two. One that began more
 * than MAX_SEQUENCE bytes before the end is not waited for.
 */
export function pageEnd(buf: Uint8Array, from = Math.max(0, buf.length - MAX_SEQUENCE)): number {
  let i = from;
  for (;;) {
    const at = buf.indexOf(ESC, i);
    if (at < 0) break;
    const end = sequenceEnd(buf, at);
    if (end < 0) return buf.length - at <= MAX_SEQUENCE ? at : buf.length;
    i = end;
  }
  for (let k = buf.length - 1; k >= Math.max(i, buf.length - 3); k--) {
    if (isContinuation(buf[k])) continue;
    return buf.length - k < utf8Length(buf[k]!) ? k : buf.length;
  }
  return buf.length;
}

/**
 * The index just past the escape sequence or UTF-8 character that starts at `buf[i]`, or -1 when
 * `buf` ends before it does.
 */
export function unitEnd(buf: Uint8Array, i: number): number {
  if (buf[i] === ESC) return sequenceEnd(buf, i);
  const end = i + utf8Length(buf[i]!);
  return end <= buf.length ? end : -1;
}

/**
 * The one rule for "more follows" (ADR 0052), for the CLI's pages and MCP `read_output` alike:
 * the next page's offset is below the end of what can be read now. A page may end short of its
 * limit (so as not to split a sequence or a character) or hold no visible byte (a job marker) and
 * still have more after it; only its `nextOffset` against the end tells.
 */
export function moreFollows(nextOffset: number, readableEnd: number): boolean {
  return nextOffset < readableEnd;
}

/**
 * How many bytes at the start of `data` finish a sequence or character begun in `before` (the
 * bytes just before it, up to MAX_SEQUENCE): a page asked to start there starts after them; -1
 * when `data` ends before that one does (give `data` MAX_SEQUENCE bytes to know).
 */
export function pageStartSkip(before: Uint8Array, data: Uint8Array): number {
  const buf = new Uint8Array(before.length + data.length);
  buf.set(before, 0);
  buf.set(data, before.length);
  const b = before.length;
  let i = 0;
  for (;;) {
    const at = buf.indexOf(ESC, i);
    if (at < 0 || at >= b) break;
    const end = sequenceEnd(buf, at);
    if (end < 0) return -1;
    if (end > b) return end - b;
    i = end;
  }
  // A UTF-8 character whose lead byte is in `before`: skip its continuation bytes.
  let k = b - 1;
  while (k >= Math.max(0, b - 3) && isContinuation(buf[k])) k--;
  if (k < 0 || k < b - 3 || buf[k]! < 0xc2) return 0;
  let skip = 0;
  while (skip < k + utf8Length(buf[k]!) - b && isContinuation(data[skip])) skip++;
  return skip;
}
