import { MAX_SEQUENCE, pageEnd, pageStartSkip } from '../../core/page-bounds.js';
import { LOG_PREFIX, readLog, type LogRead } from './log-files.js';

/**
 * One page of a chunked stream (a session log, a captured job stream) from `offset`, at most
 * `limit` bytes, that neither starts nor ends inside an escape sequence or a UTF-8 character
 * (core/page-bounds.ts, ADR 0031): it starts after one that `offset` falls into, and ends before
 * one that `limit` would split, where the next page starts. A page that would hold only the start
 * of one holds it whole, so that every page advances; while the stream still ends inside it
 * (being written), the page is empty. `complete`: nothing more will be written, so the end of the
 * stream is a page end whatever it holds.
 */
export function readPage(dir: string, chunkBytes: number, offset: number, limit: number, complete: boolean, prefix = LOG_PREFIX): LogRead {
  let r = readLog(dir, chunkBytes, offset, limit, prefix);
  if (r.offset > r.extent.first && r.data.length > 0) {
    const from = Math.max(r.extent.first, r.offset - MAX_SEQUENCE);
    const skip = pageStartSkip(readLog(dir, chunkBytes, from, r.offset - from, prefix).data, r.data);
    if (skip > 0) r = readLog(dir, chunkBytes, r.offset + skip, limit, prefix);
  }
  const last = complete && r.nextOffset >= r.extent.end;
  if (last || r.data.length === 0) return r;
  let end = pageEnd(r.data);
  if (end === 0) {
    r = readLog(dir, chunkBytes, r.offset, r.data.length + MAX_SEQUENCE, prefix);
    end = complete && r.nextOffset >= r.extent.end ? r.data.length : pageEnd(r.data, 0);
  }
  return { ...r, data: r.data.subarray(0, end), nextOffset: r.offset + end };
}
