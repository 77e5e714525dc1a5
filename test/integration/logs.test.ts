import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { amuxHome } from '../helpers/amux.js';

describe('logs', () => {
  const h = amuxHome({ after }, { AMUX_LOG_CAP: '64KiB' });

  test('plain by default (ANSI removed, \\r applied), exact bytes with --raw', async () => {
    const id = await h.ok(['run', '--', `printf '\\033[31mred\\033[0m\\nprogress 10%%\\rprogress 100%%\\n'`]);
    await h.run(['wait', id]);
    const plain = await h.run(['logs', id]);
    assert.equal(plain.stdout, 'red\nprogress 100%\n');
    const raw = await h.run(['logs', '--raw', id]);
    assert.ok(raw.raw.includes(Buffer.from('\x1b[31mred\x1b[0m\r\n')), JSON.stringify(raw.stdout));
    assert.ok(raw.raw.includes(Buffer.from('progress 10%\rprogress 100%')));
  });

  test('--tail N lines', async () => {
    const id = await h.ok(['run', '--', 'seq 1 100']);
    await h.run(['wait', id]);
    assert.equal((await h.run(['logs', '-n', '3', id])).stdout, '98\n99\n100\n');
  });

  test('--since-offset and --limit page through absolute offsets', async () => {
    const id = await h.ok(['run', '--', 'seq 1 2000']);
    await h.run(['wait', id]);
    const whole = (await h.run(['logs', '--raw', id])).raw;
    const pages: Buffer[] = [];
    let offset = 0;
    for (let i = 0; i < 100; i++) {
      const page = JSON.parse(await h.ok(['logs', '--raw', '--json', '--limit', '1000', '--since-offset', String(offset), id]));
      assert.equal(page.offset, offset);
      if (page.nextOffset === offset) break;
      pages.push(Buffer.from(page.data, 'utf8'));
      offset = page.nextOffset;
    }
    assert.ok(pages.length > 5);
    assert.deepEqual(Buffer.concat(pages), whole);
  });

  test('paging with a limit smaller than a job marker still advances and loses nothing', async () => {
    const id = await h.ok(['run', '--', 'echo a-b-c']);
    await h.run(['wait', id]);
    await h.ok(['logs', '-f', id]);
    const whole = (await h.run(['logs', '--raw', id])).raw;
    const pages: Buffer[] = [];
    let offset = 0;
    for (let i = 0; i < 200; i++) {
      const page = JSON.parse(await h.ok(['logs', '--raw', '--json', '--limit', '5', '--since-offset', String(offset), id]));
      if (page.nextOffset === offset) break;
      pages.push(Buffer.from(page.data, 'utf8'));
      offset = page.nextOffset;
    }
    assert.deepEqual(Buffer.concat(pages), whole);
  });

  test('-f follows until the session finishes', async () => {
    const id = await h.ok(['run', '--', 'for i in 1 2 3; do echo tick $i; sleep 0.3; done']);
    const r = await h.run(['logs', '-f', id]);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /tick 1\ntick 2\ntick 3\n/);
  });

  test('--screen shows what the pane shows', async () => {
    const id = await h.ok(['run', '--', 'echo on-screen; sleep 30']);
    await h.until(id, () => true);
    let screen = '';
    for (let i = 0; i < 50 && !screen.includes('on-screen'); i++) {
      screen = await h.ok(['logs', '--screen', id]);
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.match(screen, /on-screen/);
    await h.ok(['kill', id]);
  });

  test('the log is capped: newest bytes kept, truncated flag, offsets stay absolute', async () => {
    // 300 KB of numbered lines through a 64 KiB cap
    const id = await h.ok(['run', '--', 'seq -w 1 50000']);
    await h.run(['wait', id]);
    await h.ok(['logs', '-f', id]); // returns once the last bytes have reached the log
    const first = JSON.parse(await h.ok(['logs', '--raw', '--json', '--limit', '100', id]));
    assert.equal(first.truncated, true);
    // 350 000 bytes were written (each \n became \r\n): only the newest chunks, ≤ 64 KiB, remain
    assert.ok(first.offset >= 350_000 - 64 * 1024, `first retained offset ${first.offset}`);
    assert.equal(first.offset % 8192, 0, 'whole chunks are dropped');
    const all = await h.run(['logs', id]);
    assert.ok(all.raw.length <= 64 * 1024, `${all.raw.length} bytes retained`);
    assert.match(all.stdout, /\n50000\n/);
    const s = await h.session(id);
    assert.equal(s.logTruncated, true);
    // the stored stream also holds the two invisible job markers (start and end of job 1)
    assert.ok(s.logBytes > 350_000 && s.logBytes < 350_100, `logBytes ${s.logBytes}`);
  });

  test('run -w gives back exactly the bytes written (the terminal\'s \\r\\n turned back into \\n)', async () => {
    // the pty turns each \n into \r\n; -w undoes that, so a program's own \r and \r\n survive
    const r = await h.run(['run', '-w', '--', `printf 'a\\r\\nb\\rc\\n'`]);
    assert.equal(r.stdout, 'a\r\nb\rc\n');
  });

  test('a session created through the API without env still finds the usual programs', async () => {
    await h.ok(['ps']); // the daemon runs
    const created = await h.api('POST', '/v1/sessions', { command: 'seq 1 3', cwd: '/' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const waited = await h.api('POST', '/v1/wait', { ids: [created.body.id] });
    assert.equal(waited.body.results[0].exitCode, 0, JSON.stringify(waited.body));
    // Before: the rcfile's `rm` of the environment file was not found without PATH, and neither was seq.
    assert.equal((await h.api('GET', `/v1/sessions/${created.body.id}/logs`)).body, '1\r\n2\r\n3\r\n');
  });

  test('a page read right after wait answered holds the output up to its very end', async () => {
    await h.ok(['ps']);
    // tmux copies output into the log on its own time; the exit file can come first
    for (let i = 0; i < 5; i++) {
      const created = await h.api('POST', '/v1/sessions', { command: 'seq 1 20000; exit 4', cwd: '/', env: { PATH: process.env.PATH } });
      const waited = await h.api('POST', '/v1/wait', { ids: [created.body.id] });
      assert.equal(waited.body.results[0].exitCode, 4);
      const text: string = (await h.api('GET', `/v1/sessions/${created.body.id}/logs`)).body;
      assert.ok(text.endsWith('\r\n19999\r\n20000\r\n'), `round ${i}: the log ends ${JSON.stringify(text.slice(-30))}`);
    }
  });
});
