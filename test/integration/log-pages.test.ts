import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { pageEnd, pageStartSkip } from '../../src/core/page-bounds.js';
import { renderPlain } from '../../src/core/log-render.js';
import { amuxHome } from '../helpers/amux.js';

/** Pages of `logs --since-offset/--limit` never split an escape sequence, a job marker or a character (ADR 0031). */
describe('log pages keep escape sequences and markers whole', () => {
  const h = amuxHome({ after });
  const line = (i: number) => `printf '\\033[33mnpm warn\\033[39m Unknown env config "k${i}" \\342\\202\\254\\n'`;

  async function pages(ref: string, limit: number, extra: string[] = []): Promise<{ offset: number; nextOffset: number; data: Buffer }[]> {
    const out = [];
    let offset = 0;
    for (let i = 0; i < 2000; i++) {
      const p = JSON.parse(await h.ok(['logs', '--raw', '--json', '--limit', String(limit), '--since-offset', String(offset), ...extra, ref]));
      const data = Buffer.from(p.data, p.encoding);
      if (p.nextOffset === offset && data.length === 0) break;
      out.push({ offset: p.offset, nextOffset: p.nextOffset, data });
      offset = p.nextOffset;
    }
    return out;
  }

  test('a session log: raw pages concatenate byte-exact and each is whole; plain pages show no fragment', async () => {
    const id = await h.ok(['run', '--', Array.from({ length: 6 }, (_, i) => line(i)).join('; ')]);
    await h.run(['wait', id]);
    await h.ok(['logs', '-f', id]);
    const whole = (await h.run(['logs', '--raw', id])).raw;
    assert.ok(whole.includes(Buffer.from('\x1b[39m')), 'the log holds escape sequences');
    for (const limit of [7, 13, 31]) {
      const got = await pages(id, limit);
      assert.deepEqual(Buffer.concat(got.map((p) => p.data)), whole, `limit ${limit}`);
      for (const p of got) {
        assert.equal(pageEnd(p.data, 0), p.data.length, `limit ${limit}: page at ${p.offset} ends inside a sequence: ${JSON.stringify(p.data.toString('latin1'))}`);
        assert.equal(pageStartSkip(Buffer.alloc(0), p.data), 0);
      }
      // Plain text page by page: no `[3`, `9m`, or broken character at a page's edge.
      for (let at = 0; ; ) {
        const r = await h.run(['logs', '--limit', String(limit), '--since-offset', String(at), id]);
        assert.ok(!/\[3|9m|\ufffd/.test(r.stdout), `limit ${limit}, offset ${at}: ${JSON.stringify(r.stdout)}`);
        const next = got.find((p) => p.offset === at)?.nextOffset;
        if (next === undefined) break;
        at = next;
      }
    }
    assert.equal(renderPlain(whole.toString('utf8')).split('\n').filter((l) => l.startsWith('npm warn Unknown')).length, 6);
  });

  test('a shell session: an offset inside a job marker or an escape starts the page after it; no marker fragment shows', async () => {
    const sh = await h.ok(['run']);
    await h.until(sh, (s) => s.status === 'idle');
    for (let i = 0; i < 3; i++) await h.ok(['exec', '--tty', sh, '--', line(i)]);
    const log = readFileSync(join(h.home, 'sessions', sh, 'log', 'log.000000'));
    const marker = log.indexOf(Buffer.from('\x1b]5150;amux;'));
    const escape = log.indexOf(Buffer.from('\x1b[39m'));
    assert.ok(marker >= 0 && escape >= 0);
    for (const at of [marker + 1, marker + 9, marker + 20, escape + 2, escape + 4]) {
      for (const mode of [['--raw'], []]) {
        const r = await h.run(['logs', ...mode, '--limit', '40', '--since-offset', String(at), sh]);
        assert.ok(!/5150|amux;|^\[|^\d*m|^;/.test(r.stdout), `offset ${at} ${mode}: ${JSON.stringify(r.stdout)}`);
      }
      const p = JSON.parse(await h.ok(['logs', '--raw', '--json', '--limit', '40', '--since-offset', String(at), sh]));
      assert.ok(p.offset > at, `the page starts after the sequence that ${at} falls into, at ${p.offset}`);
    }
    for (const limit of [5, 11]) {
      const got = await pages(sh, limit);
      const whole = (await h.run(['logs', '--raw', sh])).raw;
      assert.deepEqual(Buffer.concat(got.map((p) => p.data)), whole.subarray(0, Buffer.concat(got.map((p) => p.data)).length));
      for (const p of got) assert.ok(!p.data.includes(Buffer.from('5150')), JSON.stringify(p.data.toString('latin1')));
    }
  });

  test("a job's captured stream pages the same way", async () => {
    const sh = await h.ok(['run']);
    await h.until(sh, (s) => s.status === 'idle');
    await h.ok(['exec', sh, '--', `{ ${line(1)}; ${line(2)}; } >&2`]);
    const job = JSON.parse(await h.ok(['jobs', sh, '--json', '-n', '1']))[0].id;
    const whole = (await h.run(['logs', '--stderr', '--raw', job])).raw;
    const got = await pages(job, 9, ['--stderr']);
    assert.deepEqual(Buffer.concat(got.map((p) => p.data)), whole);
    for (const p of got) assert.equal(pageEnd(p.data, 0), p.data.length, JSON.stringify(p.data.toString('latin1')));
    const inside = whole.indexOf(Buffer.from('\x1b[39m')) + 3;
    const r = await h.run(['logs', '--stderr', '--limit', '20', '--since-offset', String(inside), job]);
    assert.ok(!/^9m|^\d*m/.test(r.stdout), JSON.stringify(r.stdout));
  });
});
