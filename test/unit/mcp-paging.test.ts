import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { moreFollows, pageEnd, unitEnd } from '../../src/core/page-bounds.js';
import { alignedLength, readPage, type FetchPage } from '../../src/mcp/paging.js';
import { decodeCursor, encodeCursor } from '../../src/mcp/wait.js';
import { AmuxError } from '../../src/errors.js';

/**
 * A log held in memory, paged as the daemon pages (ADR 0031, ADR 0052): absolute offsets, clamped
 * to what is kept; a page ends before a sequence or character it would split, or holds that one
 * alone, and `more` is `moreFollows` (the next offset below the end).
 */
function memoryLog(bytes: Buffer, first = 0): FetchPage {
  return async (since, limit) => {
    const start = Math.min(Math.max(since, first), first + bytes.length) - first;
    const read = bytes.subarray(start, start + limit);
    let length = start + read.length >= bytes.length ? read.length : pageEnd(read, 0);
    if (length === 0 && read.length > 0) length = unitEnd(bytes.subarray(start), 0);
    const data = read.length === length ? read : bytes.subarray(start, start + length);
    return { data, offset: first + start, nextOffset: first + start + length, more: moreFollows(start + length, bytes.length) };
  };
}

async function readAll(fetch: FetchPage, maxBytes: number, raw = false): Promise<{ text: string; pages: number }> {
  let since = 0;
  let text = '';
  let pages = 0;
  for (;;) {
    const p = await readPage(fetch, { sinceOffset: since, maxBytes, raw });
    text += p.encoding === 'base64' ? Buffer.from(p.text, 'base64').toString('latin1') : p.text;
    pages++;
    assert.equal(p.truncated, p.more, 'truncated is the old name of more');
    assert.ok(p.nextOffset > since || !p.more, 'every page advances');
    since = p.nextOffset;
    if (!p.more) return { text, pages };
  }
}

describe('read_output paging', () => {
  test('a page ends after its last newline, so plain pages put together are the whole text', async () => {
    const terminal = Buffer.from('line one\r\n\x1b[1mbold\x1b[0m line two\r\nthird ünïcode line\r\n'.repeat(50));
    const whole = (await readAll(memoryLog(terminal), 1 << 20)).text;
    for (const max of [7, 16, 33, 100, 257]) {
      const { text, pages } = await readAll(memoryLog(terminal), max);
      assert.equal(text, whole, `maxBytes ${max}`);
      assert.ok(pages > 1);
    }
    assert.doesNotMatch(whole, /\x1b|\r/);
  });

  test('a page that the daemon ended short of maxBytes still says more follows (it never stops early)', async () => {
    // 4 bytes of 'aaa€' fit, but the daemon ends before the split €: a short page, and more after it.
    const bytes = Buffer.from('aaa€'.repeat(2000));
    const { text, pages } = await readAll(memoryLog(bytes), 4);
    assert.equal(text, bytes.toString());
    assert.equal(pages, 4000);
  });

  test('a page with no visible byte (a job marker) is empty, with more after it', async () => {
    const fetch: FetchPage = async (since) => (since < 40
      ? { data: Buffer.alloc(0), offset: since, nextOffset: 40, more: true }
      : { data: Buffer.from('after\n'), offset: since, nextOffset: 46, more: false });
    const first = await readPage(fetch, { sinceOffset: 0, maxBytes: 5 });
    assert.deepEqual({ text: first.text, nextOffset: first.nextOffset, more: first.more }, { text: '', nextOffset: 40, more: true });
    assert.equal((await readPage(fetch, { sinceOffset: 40, maxBytes: 5 })).text, 'after\n');
  });

  test('alignedLength: after the last newline when that keeps half the page; pages with hidden markers whole', () => {
    const page = (s: string) => ({ data: Buffer.from(s), offset: 0, nextOffset: Buffer.byteLength(s), more: true });
    assert.equal(alignedLength(page('x\naaaaaaaaaaaaaaaaaaaa\nb')), 23);
    assert.equal(alignedLength(page('x\naaaaaaaaaaaaaaaaaaaab')), 23);
    assert.equal(alignedLength({ data: Buffer.from('ab\ncdefgh'), offset: 0, nextOffset: 40, more: true }), 9);
  });

  test('raw pages are the exact bytes, base64 when not UTF-8', async () => {
    const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256));
    const { text } = await readAll(memoryLog(bytes), 500, true);
    assert.equal(Buffer.from(text, 'latin1').equals(bytes), true);
  });

  test('bytes dropped before the kept log are counted, and tails say what they skipped', async () => {
    const log = memoryLog(Buffer.from('kept 1\nkept 2\nkept 3\n'), 1000);
    const p = await readPage(log, { sinceOffset: 10 });
    assert.equal(p.skippedBytes, 990);
    assert.equal(p.offset, 1000);
    assert.equal(p.text, 'kept 1\nkept 2\nkept 3\n');
    assert.equal(p.more, false);
    const t = await readPage(log, { tailLines: 2 });
    assert.equal(t.text, 'kept 2\nkept 3\n');
    assert.equal(t.nextOffset, 1021);
  });
});

describe('wait cursors', () => {
  const answer = (cursor: number, offsets: (number | null)[]) => ({
    timedOut: true, cursor,
    results: offsets.map((logOffset) => ({ id: 'x', status: 'working' as const, exitCode: null, signal: null, error: null, reason: null, reached: false, event: null, match: null, logOffset })),
  });

  test('round trip; output waits carry the smallest log offset', () => {
    assert.equal(encodeCursor(answer(41, [100]), false), 'e41');
    assert.equal(encodeCursor(answer(41, [300, 100, null]), true), 'e41.o100');
    assert.deepEqual(decodeCursor('e41.o100'), { after: 41, sinceOffset: 100 });
    assert.deepEqual(decodeCursor('e7'), { after: 7, sinceOffset: null });
    assert.throws(() => decodeCursor('41'), (e: unknown) => e instanceof AmuxError && e.code === 'invalid_argument');
  });
});
