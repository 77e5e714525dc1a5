import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { isNotRunning, parseHead, readBody, send } from '../../src/client/http.js';

describe('parseHead', () => {
  test('status and lower-cased headers', () => {
    assert.deepEqual(parseHead('HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nX-Amux-Offset: 12'), {
      status: 404,
      headers: { 'content-type': 'application/json', 'x-amux-offset': '12' },
    });
  });

  test('not HTTP → daemon_unreachable', () => {
    assert.throws(() => parseHead('SSH-2.0-OpenSSH'), (e: any) => e.code === 'daemon_unreachable' && e.exitCode === 3);
  });
});

describe('send over a Unix socket against node:http', () => {
  const dir = mkdtempSync(join(tmpdir(), 'amux-http-'));
  const sock = join(dir, 's');
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.url === '/stream') {
        res.useChunkedEncodingByDefault = false;
        res.writeHead(200);
        res.write('part1;');
        setTimeout(() => res.end('part2'), 20);
        return;
      }
      const out = JSON.stringify({ method: req.method, url: req.url, body });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
      res.end(out);
    });
  });
  after(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a JSON round trip with a body (unicode included)', async () => {
    await new Promise<void>((r) => server.listen(sock, r));
    const res = await send(sock, 'POST', '/v1/x?y=1', { text: 'ünï ✓' });
    assert.equal(res.status, 200);
    assert.deepEqual(JSON.parse((await readBody(res)).toString()), { method: 'POST', url: '/v1/x?y=1', body: '{"text":"ünï ✓"}' });
  });

  test('a close-delimited stream arrives whole', async () => {
    const res = await send(sock, 'GET', '/stream');
    assert.equal((await readBody(res)).toString(), 'part1;part2');
  });

  test('no socket → DaemonDownError', async () => {
    await assert.rejects(send(join(dir, 'missing'), 'GET', '/'), (e) => isNotRunning(e));
  });
});
