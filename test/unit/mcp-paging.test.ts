import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { alignedLength, readPage, type FetchPage } from '../../src/mcp/paging.js';
import { decodeCursor, encodeCursor } from '../../src/mcp/wait.js';
import { AmuxError } from '../../src/errors.js';

/** A log held in memory, paged as the daemon pages: absolute offsets, clamped to what is kept. */
function memoryLog(bytes: Buffer, first = 0): FetchPage {
  return async (since, limit) => {
    const start = Math.min(Math.max(since, first), first + bytes.length);
    const data = bytes.subarray(start - first, Math.min(bytes.length, start - first + limit));
    return { data, offset: start, nextOffset: start + data.length };
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
    assert.ok(p.nextOffset > since || !p.truncated, 'every page advances');
    since = p.nextOffset;
    if (!p.truncated) return { text, pages };
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

  test('a long line is cut before a split character or escape sequence, never inside', () => {
    const page = (s: string) => ({ data: Buffer.from(s), offset: 0, nextOffset: Buffer.byteLength(s) });
    const euro = Buffer.from('aaaa€'); // € is 3 bytes
    assert.equal(alignedLength({ data: euro.subarray(0, 6), offset: 0, nextOffset: 6 }), 4);
    assert.equal(alignedLength(page('aaaaaaaa\x1b[3')), 8);
    assert.equal(alignedLength(page('aaaaaaaa\x1b[31m')), 13);
    assert.equal(alignedLength(page('x\naaaaaaaaaaaaaaaaaaaa\nb')), 23);
    // Marker bytes removed by the daemon: offsets and bytes differ, the page is kept whole.
    assert.equal(alignedLength({ data: Buffer.from('ab\ncdefgh'), offset: 0, nextOffset: 40 }), 9);
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
    assert.equal(p.truncated, false);
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

describe('read_output within a small maxBytes around a removed marker', () => {
  /** A log with an invisible marker of `mark` bytes at `at`, paged as the daemon pages: a page starting in it runs MAX_MARK further. */
  function markedLog(visible: Buffer, at: number, mark: number): FetchPage {
    return async (since, limit) => {
      const extend = since >= at && since < at + mark;
      const end = Math.min(visible.length + mark, since + limit + (extend ? 96 : 0));
      const data: Buffer[] = [];
      for (let o = since; o < end; o++) if (o < at || o >= at + mark) data.push(visible.subarray(o < at ? o : o - mark, (o < at ? o : o - mark) + 1));
      return { data: Buffer.concat(data), offset: since, nextOffset: end };
    };
  }

  test('no page is longer than maxBytes, and the pages put together are the whole', async () => {
    const visible = Buffer.from('abcdefghijklmnopqrstuvwxyz0123456789');
    for (const maxBytes of [1, 2, 5, 11]) {
      const fetch = markedLog(visible, 4, 40);
      let since = 0;
      let text = '';
      for (let i = 0; i < 500; i++) {
        const p = await readPage(fetch, { sinceOffset: since, maxBytes, raw: true });
        assert.ok(Buffer.byteLength(p.text) <= maxBytes, `maxBytes ${maxBytes}: ${JSON.stringify(p)}`);
        assert.equal(p.skippedBytes, 0);
        text += p.text;
        since = p.nextOffset;
        if (!p.truncated) break;
      }
      assert.equal(text, visible.toString(), `maxBytes ${maxBytes}`);
    }
  });
});
