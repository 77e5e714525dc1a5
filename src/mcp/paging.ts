import { isUtf8 } from 'node:buffer';
import { renderPlain, tailLines } from '../core/log-render.js';

/** Output within a budget (README "Agents"): the default and the largest page of `read_output`. */
export const DEFAULT_MAX_BYTES = 16 * 1024;
export const MAX_MAX_BYTES = 1024 * 1024;

/** A page of output bytes as the daemon answered it: absolute offsets of where it lies. */
export interface RawPage {
  data: Buffer;
  offset: number;
  nextOffset: number;
}

/** Fetches up to `limit` bytes from absolute `sinceOffset` (clamped by the daemon to what is kept). */
export type FetchPage = (sinceOffset: number, limit: number) => Promise<RawPage>;

/** What `read_output` answers. */
export interface OutputPage {
  /** Plain text (escapes removed), or with `raw` the bytes as UTF-8 or base64 (`encoding`). */
  text: string;
  encoding: 'utf8' | 'base64';
  /** Absolute offset of the first byte of this page. */
  offset: number;
  /** Where the next page starts: pass it as `sinceOffset`. */
  nextOffset: number;
  /** More output follows `nextOffset` (the page stopped at `maxBytes`). */
  truncated: boolean;
  /** Bytes between the asked `sinceOffset` and `offset` that are not in the answer (dropped by the log cap, or before a tail). */
  skippedBytes: number;
}

const INCOMPLETE_ESCAPE = /\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*|[PX^_][^\x1b]*)?$/;

/**
 * Where a full page may end so that it renders on its own: after its last newline when that
 * keeps at least half of it, else before a character or an escape sequence that the page cut.
 * Only when the page's bytes are its offsets' (amux's markers, removed by the daemon, make them
 * differ; those pages are left whole).
 */
export function alignedLength(page: RawPage): number {
  const { data } = page;
  if (page.nextOffset - page.offset !== data.length || data.length === 0) return data.length;
  const nl = data.lastIndexOf(0x0a);
  if (nl + 1 >= data.length / 2) return nl + 1;
  let end = data.length;
  const tail = data.subarray(Math.max(0, end - 64)).toString('latin1');
  const esc = INCOMPLETE_ESCAPE.exec(tail);
  if (esc) end -= tail.length - esc.index;
  // Back over UTF-8 continuation bytes to the lead byte; keep the character only when it is whole.
  let lead = end - 1;
  while (lead > 0 && end - lead < 4 && (data[lead]! & 0xc0) === 0x80) lead--;
  if (lead >= 0 && lead < end) {
    const b = data[lead]!;
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    if (end - lead < need) end = lead;
  }
  return end > 0 ? end : data.length;
}

/**
 * A page within `maxBytes`. For a small `maxBytes` the daemon answers more: a page that starts with
 * what may be one of amux's job markers runs up to MAX_MARK bytes further, and a marker in it is
 * removed, so that its bytes are no longer its offsets'. Such a page is cut at `maxBytes` when the
 * bytes read from there on are the rest of it (no marker before the cut), or else read again from
 * after a marker at its start; failing both it is answered whole.
 */
export async function withinBudget(fetch: FetchPage, page: RawPage, maxBytes: number): Promise<RawPage> {
  if (page.data.length <= maxBytes) return page;
  const head = (p: RawPage): RawPage => (p.data.length <= maxBytes ? p : { data: p.data.subarray(0, maxBytes), offset: p.offset, nextOffset: p.offset + maxBytes });
  if (page.nextOffset - page.offset === page.data.length) return head(page);
  const continues = (p: RawPage, from: number, rest: Buffer) => p.offset === from && p.data.length > 0 && rest.subarray(0, p.data.length).equals(p.data.subarray(0, rest.length));
  const probe = await fetch(page.offset + maxBytes, maxBytes);
  if (continues(probe, page.offset + maxBytes, page.data.subarray(maxBytes))) return head(page);
  // The bytes between page.offset and `after` were a marker: nothing visible is skipped.
  const after = page.nextOffset - page.data.length;
  const again = await fetch(after, maxBytes);
  if (continues(again, after, page.data) && again.nextOffset - again.offset === again.data.length) return { ...head(again), offset: page.offset };
  // The daemon took a whole escape sequence or marker that a smaller page would split (ADR 0031):
  // keep the budget, counting the dropped tail back from the page's end (the hidden bytes came first).
  return { data: page.data.subarray(0, maxBytes), offset: page.offset, nextOffset: page.nextOffset - (page.data.length - maxBytes) };
}

function encode(data: Buffer, raw: boolean): { text: string; encoding: 'utf8' | 'base64' } {
  if (!raw) return { text: renderPlain(data.toString('utf8')), encoding: 'utf8' };
  return isUtf8(data) ? { text: data.toString('utf8'), encoding: 'utf8' } : { text: data.toString('base64'), encoding: 'base64' };
}

/**
 * One page of output within `maxBytes`: from `sinceOffset` (default: the oldest byte kept), or
 * with `tailLines` the last lines of the newest `maxBytes`. Nothing is lost silently: what was
 * skipped and whether more follows are in the answer.
 */
export async function readPage(fetch: FetchPage, q: { sinceOffset?: number; maxBytes?: number; tailLines?: number; raw?: boolean }): Promise<OutputPage> {
  const maxBytes = q.maxBytes ?? DEFAULT_MAX_BYTES;
  const raw = q.raw === true;
  if (q.tailLines !== undefined) {
    const end = (await fetch(Number.MAX_SAFE_INTEGER, 0)).offset;
    const from = Math.max(q.sinceOffset ?? 0, end - maxBytes);
    const page = await withinBudget(fetch, await fetch(from, maxBytes), maxBytes);
    const { text, encoding } = encode(page.data, raw);
    const lines = encoding === 'utf8' ? tailLines(text, q.tailLines) : text;
    return { text: lines, encoding, offset: page.offset, nextOffset: page.nextOffset, truncated: false, skippedBytes: page.offset - (q.sinceOffset ?? 0) };
  }
  const since = q.sinceOffset ?? 0;
  const page = await withinBudget(fetch, await fetch(since, maxBytes), maxBytes);
  const full = page.nextOffset - page.offset >= maxBytes;
  const length = full ? alignedLength(page) : page.data.length;
  const data = page.data.subarray(0, length);
  const nextOffset = length === page.data.length ? page.nextOffset : page.offset + length;
  return { ...encode(data, raw), offset: page.offset, nextOffset, truncated: full, skippedBytes: Math.max(0, page.offset - since) };
}
