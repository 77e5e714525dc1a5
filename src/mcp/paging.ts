import { isUtf8 } from 'node:buffer';
import { renderPlain, tailLines } from '../core/log-render.js';

/** Output within a budget (src/guides/agents.md): the default and the largest page of `read_output`. */
export const DEFAULT_MAX_BYTES = 16 * 1024;
export const MAX_MAX_BYTES = 1024 * 1024;

/** A page of output bytes as the daemon answered it: absolute offsets of where it lies, and whether more can be read after it. */
export interface RawPage {
  data: Buffer;
  offset: number;
  nextOffset: number;
  /** More can be read from `nextOffset` now (`moreFollows`, core/page-bounds.ts). */
  more: boolean;
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
  /** More output can be read from `nextOffset` now: page while it is true (ADR 0052). */
  more: boolean;
  /** The old name of `more`, kept for one release (ADR 0052). */
  truncated: boolean;
  /** Bytes between the asked `sinceOffset` and `offset` that are not in the answer (dropped by the log cap, or before a tail). */
  skippedBytes: number;
}

/**
 * Where a page may end so that its plain text shows whole lines: after its last newline when that
 * keeps at least half of it. Only when the page's bytes are its offsets' (amux's markers, removed
 * by the daemon, make them differ; those pages are left whole). The daemon already ends a page
 * before an escape sequence or a character it would split (ADR 0031).
 */
export function alignedLength(page: RawPage): number {
  const { data } = page;
  if (page.nextOffset - page.offset !== data.length || data.length === 0) return data.length;
  const nl = data.lastIndexOf(0x0a);
  return nl + 1 >= data.length / 2 ? nl + 1 : data.length;
}

function encode(data: Buffer, raw: boolean): { text: string; encoding: 'utf8' | 'base64' } {
  if (!raw) return { text: renderPlain(data.toString('utf8')), encoding: 'utf8' };
  return isUtf8(data) ? { text: data.toString('utf8'), encoding: 'utf8' } : { text: data.toString('base64'), encoding: 'base64' };
}

/**
 * One page of output within `maxBytes`: from `sinceOffset` (default: the oldest byte kept), or
 * with `tailLines` the last lines of the newest `maxBytes`. The daemon's page holds at most
 * `maxBytes` bytes (a job marker counts, though it is not shown), or one escape sequence or
 * character alone when it is longer (ADR 0031, ADR 0052). Nothing is lost silently: what was
 * skipped and whether more follows are in the answer.
 */
export async function readPage(fetch: FetchPage, q: { sinceOffset?: number; maxBytes?: number; tailLines?: number; raw?: boolean }): Promise<OutputPage> {
  const maxBytes = q.maxBytes ?? DEFAULT_MAX_BYTES;
  const raw = q.raw === true;
  if (q.tailLines !== undefined) {
    const end = (await fetch(Number.MAX_SAFE_INTEGER, 0)).offset;
    const from = Math.max(q.sinceOffset ?? 0, end - maxBytes);
    const page = await fetch(from, maxBytes);
    const { text, encoding } = encode(page.data, raw);
    const lines = encoding === 'utf8' ? tailLines(text, q.tailLines) : text;
    return { text: lines, encoding, offset: page.offset, nextOffset: page.nextOffset, more: page.more, truncated: page.more, skippedBytes: page.offset - (q.sinceOffset ?? 0) };
  }
  const since = q.sinceOffset ?? 0;
  const page = await fetch(since, maxBytes);
  // A page with more after it ends after its last newline instead, when that keeps half of it.
  const length = page.more ? alignedLength(page) : page.data.length;
  const data = page.data.subarray(0, length);
  const nextOffset = length === page.data.length ? page.nextOffset : page.offset + length;
  const more = page.more || length < page.data.length;
  return { ...encode(data, raw), offset: page.offset, nextOffset, more, truncated: more, skippedBytes: Math.max(0, page.offset - since) };
}
