import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { unitEnd } from '../../src/core/page-bounds.js';
import { amuxHome } from '../helpers/amux.js';
import { call, connect, idleShell, clientFor } from '../helpers/mcp.js';

/*
 * Paging output never stops early and never shows amux's plumbing (issue 34, ADR 0052): one rule
 * for "more follows" (the next offset below the end), for MCP read_output and `logs --json`.
 */

const bytesOf = (p: { text: string; encoding: 'utf8' | 'base64' }) => Buffer.from(p.text, p.encoding);

/** Every page of `target` from offset 0, paged as documented: while `more`. */
async function pageAll(c: Client, target: string, args: Record<string, unknown> = {}): Promise<{ data: Buffer; pages: any[] }> {
  const pages = [];
  let since = 0;
  for (let i = 0; i < 100_000; i++) {
    const p = await call(c, 'read_output', { target, sinceOffset: since, raw: true, ...args });
    assert.equal(p.truncated, p.more, 'truncated is the old name of more');
    assert.ok(p.nextOffset > since || !p.more, `a page with more after it advances (at ${since})`);
    pages.push({ ...p, data: bytesOf(p) });
    since = p.nextOffset;
    if (!p.more) break;
  }
  return { data: Buffer.concat(pages.map((p) => p.data)), pages };
}

describe('read_output pages until the end, whatever the bytes', () => {
  const h = amuxHome({ after });
  let c: Client;
  clientFor(h, (client) => (c = client));

  /** A command session's whole output, once written to its log. */
  async function finished(command: string): Promise<{ id: string; whole: Buffer }> {
    const id = await h.ok(['run', '--', command]);
    await h.run(['wait', id], { timeoutMs: 120_000 });
    await h.ok(['logs', '-f', id], { timeoutMs: 120_000 });
    return { id, whole: (await h.run(['logs', '--raw', id], { timeoutMs: 60_000 })).raw };
  }

  test('a 4 MB coloured log: every byte, in order', async () => {
    const { id, whole } = await finished(`awk 'BEGIN { for (i = 0; i < 90000; i++) printf "\\033[3%dmline %d of coloured output\\033[0m \\033[1mok\\033[22m\\n", i % 8, i }'`);
    assert.ok(whole.length > 4_000_000, `${whole.length} bytes`);
    const got = await pageAll(c, id);
    assert.ok(got.pages.length > 200, `${got.pages.length} pages`);
    assert.ok(got.data.equals(whole), `paged ${got.data.length} of ${whole.length} bytes`);
  });

  test('2.46 MB of UTF-8 text: every byte, in order, at two page sizes', async () => {
    const { id, whole } = await finished(`awk 'BEGIN { for (i = 0; i < 41000; i++) printf "%d ünïcødé — 日本語のテキスト € ✓ ☃ 𝄞 façade naïve\\n", i }'`);
    assert.ok(whole.length > 2_400_000, `${whole.length} bytes`);
    for (const maxBytes of [16 * 1024, 1000]) {
      const got = await pageAll(c, id, { maxBytes });
      assert.ok(got.data.equals(whole), `maxBytes ${maxBytes}: paged ${got.data.length} of ${whole.length} bytes`);
      assert.ok(got.pages.every((p) => p.encoding === 'utf8'), 'no page splits a character');
    }
  });

  test("a 1 MiB job stream: every byte of the kept stream", async () => {
    const shell = await idleShell(c);
    const job = await call(c, 'exec', { session: shell, command: `yes 'é€ ünï \x1b[32mgreen\x1b[0m text' | head -c 1048576`, maxBytes: 10, budgetMs: 120_000 });
    assert.equal(job.exitCode, 0);
    const whole = (await h.run(['logs', '--stdout', '--raw', job.jobId], { timeoutMs: 60_000 })).raw;
    assert.equal(whole.length, 1048576);
    const got = await pageAll(c, job.jobId, { stream: 'stdout' });
    assert.ok(got.data.equals(whole), `paged ${got.data.length} of ${whole.length} bytes`);
  });
});

describe('pages never show plumbing, and hold at most what was asked', () => {
  const h = amuxHome({ after });
  let c: Client;
  let shell: string;
  let whole: Buffer;
  let markers: { start: number; end: number }[];
  before(async () => {
    c = await connect(h);
    shell = await idleShell(c);
    for (let i = 0; i < 3; i++) await h.ok(['exec', '--tty', shell, '--', `printf '\\033[33mjob %s\\033[39m €\\n' ${i}`]);
    await h.ok(['exec', '--tty', shell, '--', 'false']).catch(() => undefined);
    whole = (await h.run(['logs', '--raw', shell])).raw;
    const log = readFileSync(join(h.home, 'sessions', shell, 'log', 'log.000000'));
    markers = [];
    for (let at = log.indexOf('\x1b]5150;amux;'); at >= 0; at = log.indexOf('\x1b]5150;amux;', at + 1)) markers.push({ start: at, end: log.indexOf(0x07, at) + 1 });
    assert.ok(markers.length >= 8, `${markers.length} markers`);
  });
  after(async () => {
    await c?.close();
  });

  const plumbing = /5150|amux;|;[se];\d/;

  test('read_output at maxBytes 1 to 24: pages put together are the output, none shows a marker or holds more than maxBytes', async () => {
    for (let maxBytes = 1; maxBytes <= 24; maxBytes++) {
      const got = await pageAll(c, shell, { maxBytes });
      assert.ok(got.data.equals(whole), `maxBytes ${maxBytes}: ${JSON.stringify(got.data.toString('latin1'))}`);
      for (const p of got.pages) {
        assert.doesNotMatch(p.data.toString('latin1'), plumbing, `maxBytes ${maxBytes} at ${p.offset}`);
        // At most maxBytes, but for one escape sequence or character longer than it, held whole.
        assert.ok(p.data.length <= maxBytes || unitEnd(p.data, 0) === p.data.length, `maxBytes ${maxBytes}: a page of ${p.data.length} bytes at ${p.offset}`);
      }
      const plain = await call(c, 'read_output', { target: shell, sinceOffset: markers[2]!.start, maxBytes });
      assert.equal(plain.text, '', `maxBytes ${maxBytes}: a page that holds only a marker is empty`);
      assert.equal(plain.nextOffset, markers[2]!.end, 'and the next offset is past it');
      assert.equal(plain.more, true);
    }
  });

  test('read_output from every offset inside a marker shows none of it', async () => {
    const m = markers[3]!;
    for (let at = m.start; at < m.end; at++) {
      for (const maxBytes of [1, 5, 24]) {
        const p = await call(c, 'read_output', { target: shell, sinceOffset: at, maxBytes, raw: true });
        assert.doesNotMatch(bytesOf(p).toString('latin1'), plumbing, `offset ${at}, maxBytes ${maxBytes}`);
        assert.ok(p.offset >= m.end || p.offset === m.start, `offset ${at} starts the page after the marker, at ${p.offset}`);
      }
    }
  });

  test('logs --raw --json --since-offset inside a marker with a shorter --limit: no plumbing, and the page starts after it', async () => {
    const m = markers[1]!;
    for (const at of [m.start + 1, m.start + 9, m.end - 3]) {
      for (const limit of [1, 2, 5]) {
        const p = JSON.parse(await h.ok(['logs', '--raw', '--json', '--since-offset', String(at), '--limit', String(limit), shell]));
        const data = Buffer.from(p.data, p.encoding);
        assert.doesNotMatch(data.toString('latin1'), plumbing, `offset ${at} limit ${limit}: ${JSON.stringify(p)}`);
        assert.ok(p.offset >= m.end, `offset ${at} limit ${limit}: starts at ${p.offset}`);
        assert.ok(data.length <= limit || unitEnd(data, 0) === data.length, `offset ${at} limit ${limit}: ${data.length} bytes`);
      }
    }
  });

  test('logs --json --limit 5 at a marker: an empty page past it, not 4 KiB', async () => {
    const seq = await h.ok(['run', '--', 'seq 1 3000']);
    await h.run(['wait', seq]);
    await h.ok(['logs', '-f', seq]);
    const first = JSON.parse(await h.ok(['logs', '--json', '--limit', '5', seq]));
    assert.ok(Buffer.byteLength(first.data) <= 5, `a page of ${Buffer.byteLength(first.data)} bytes: ${JSON.stringify(first).slice(0, 200)}`);
    assert.equal(first.more, true);
    for (const m of markers.slice(0, 4)) {
      const p = JSON.parse(await h.ok(['logs', '--json', '--raw', '--limit', '5', '--since-offset', String(m.start), shell]));
      assert.deepEqual({ data: p.data, offset: p.offset, nextOffset: p.nextOffset, more: p.more }, { data: '', offset: m.start, nextOffset: m.end, more: true });
    }
    // Paged by the CLI while `more`: the whole output, no page over 5 bytes.
    let at = 0;
    const parts: Buffer[] = [];
    for (let i = 0; i < 1000; i++) {
      const p = JSON.parse(await h.ok(['logs', '--json', '--raw', '--limit', '24', '--since-offset', String(at), shell]));
      const data = Buffer.from(p.data, p.encoding);
      assert.ok(data.length <= 24 || unitEnd(data, 0) === data.length);
      parts.push(data);
      at = p.nextOffset;
      if (!p.more) break;
    }
    assert.ok(Buffer.concat(parts).equals(whole), JSON.stringify(Buffer.concat(parts).toString('latin1')));
  });
});
