import assert from 'node:assert/strict';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { amuxHome, sleep } from '../helpers/amux.js';

/** Issue 34 item 12: sessions/ID/log-times is trimmed, and read from its end. */
describe('log time marks stay small', () => {
  const h = amuxHome({ after });

  test('a marks file of 2 M marks (23 days of output) is trimmed at the next output; times stay right', async () => {
    const id = await h.ok(['run', '--', 'cat']);
    await h.ok(['wait', id, '--until', 'started']);
    const file = join(h.home, 'sessions', id, 'log-times');
    // As an older build left it, for the next daemon: one mark a second for 23 days, all of the log still on disk.
    const start = Date.now() - 23 * 86_400_000;
    const lines: string[] = [];
    for (let i = 0; i < 2_000_000; i++) lines.push(`0 ${start + i * 1000}\n`);
    await h.ok(['daemon', 'stop']);
    writeFileSync(file, lines.join(''));
    const big = statSync(file).size;
    const t0 = Date.now();
    await h.ok(['send', id, 'hello-marks']);
    const deadline = Date.now() + 60_000;
    while (statSync(file).size >= big && Date.now() < deadline) await sleep(200);
    assert.ok(statSync(file).size < 1024 * 1024, `trimmed: ${statSync(file).size} bytes`);
    const recent = await h.ok(['logs', id, '--since', '5m']);
    assert.match(recent, /hello-marks/);
    // The daemon marks the log's size at most once a second while output flows: wait for the mark
    // that covers the line (a busy machine may take a while), then check its time.
    let stamped = '';
    for (const until = Date.now() + 30_000; Date.now() < until; await sleep(200)) {
      stamped = (await h.ok(['logs', id, '-t'])).split('\n').find((l) => l.includes('hello-marks')) ?? '';
      if (/^\d{4}-/.test(stamped)) break;
    }
    const at = Date.parse(stamped.slice(0, 20));
    assert.ok(at >= t0 - 2000, `stamped with the time it was written: ${stamped}`);
  });
});
