import { MAX_SEQUENCE, moreFollows, pageEnd, pageStartSkip, unitEnd } from '../../core/page-bounds.js';
import { LOG_PREFIX, readLog, type LogRead } from './log-files.js';

/** A page, and whether more can be read after it now (`moreFollows`, ADR 0052). */
export interface PageRead extends LogRead {
  more: boolean;
}

/**
 * One page of a chunked stream (a session log, a captured job stream) from `offset`, at most
 * `limit` bytes, that neither starts nor ends inside an escape sequence or a UTF-8 character
 * (core/page-bounds.ts, ADR 0031, ADR 0052): it starts after one that `offset` falls into, and
 * ends before one that `limit` would split, where the next page starts. A page that would hold
 * only the start of one longer than `limit` holds that one alone, whole, so that every page
 * advances; while the stream still ends inside it (being written), the page is empty. `complete`:
 * nothing more will be written, so the end of the stream is a page end whatever it holds.
 */
export function readPage(dir: string, chunkBytes: number, offset: number, limit: number, complete: boolean, prefix = LOG_PREFIX): PageRead {
  const read = (from: number, n: number) => readLog(dir, chunkBytes, from, n, prefix);
  let r = read(offset, limit);
  const end = r.extent.end;
  const page = (p: LogRead, length: number, readableEnd = end): PageRead => ({
    ...p, data: p.data.subarray(0, length), nextOffset: p.offset + length, more: moreFollows(p.offset + length, readableEnd),
  });
  // Bytes that a writer has not finished yet (a sequence or character at the end of a live stream).
  const unfinished = (p: LogRead) => !complete && p.nextOffset >= end;
  if (r.offset > r.extent.first && r.offset < end) {
    const from = Math.max(r.extent.first, r.offset - MAX_SEQUENCE);
    const ahead = r.data.length >= MAX_SEQUENCE ? r : read(r.offset, MAX_SEQUENCE);
    const skip = pageStartSkip(read(from, r.offset - from).data, ahead.data);
    // Inside one still being written: nothing to read yet. Inside one longer than MAX_SEQUENCE: as bytes.
    if (skip < 0 && unfinished(ahead)) return page(r, 0, r.offset);
    if (skip > 0) r = read(r.offset + skip, limit);
  }
  if (r.data.length === 0 || (complete && r.nextOffset >= end)) return page(r, r.data.length);
  const cut = pageEnd(r.data);
  // Cut before the unfinished tail of a live stream: what is readable ends there.
  if (cut > 0) return page(r, cut, cut < r.data.length && unfinished(r) ? r.offset + cut : end);
  // The page would hold only the start of one sequence or character longer than `limit`.
  const whole = read(r.offset, MAX_SEQUENCE + 1);
  const unit = unitEnd(whole.data, 0);
  if (unit > 0) return page(whole, unit);
  if (unfinished(whole)) return page(r, 0, r.offset);
  return page(r, r.data.length); // longer than MAX_SEQUENCE: split as bytes
}
