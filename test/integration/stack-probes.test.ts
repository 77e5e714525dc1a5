import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { amuxHome, BIN } from '../helpers/amux.js';

/** A server that holds each connection open, writing one byte a second from `first` on (ended when the test ends). */
function trickle(first: () => string): Promise<{ port: number; server: { close(): void } }> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('data', () => {
      const text = first();
      let i = 0;
      const timer = setInterval(() => socket.write(i < text.length ? text[i++]! : '.'), 1000);
      socket.on('close', () => {
        clearInterval(timer);
        sockets.delete(socket);
      });
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    port: (server.address() as { port: number }).port,
    server: { close: () => { for (const s of sockets) s.destroy(); server.close(); } },
  })));
}

/** Whether the process is gone (or a zombie waiting for its parent to collect it). */
function gone(pid: number): boolean {
  try {
    return /\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

describe('readiness probes keep their deadline (src/guides/stacks.md, ADR 0035)', () => {
  const h = amuxHome({ after });
  const scratch = mkdtempSync('/tmp/amux-probes-');
  const servers: { close(): void }[] = [];
  after(() => {
    for (const s of servers) s.close();
    rmSync(scratch, { recursive: true, force: true });
  });
  const stack = (name: string, yaml: string) => {
    const dir = join(scratch, name);
    mkdirSync(dir);
    writeFileSync(join(dir, 'amux.yaml'), yaml);
    return dir;
  };

  test('an http probe to a server that sends a byte a second fails at ready.timeout', async () => {
    // Headers that never end: a clock that restarts with each byte would never run out.
    const srv = await trickle(() => 'HTTP/1.1 200 OK\r\nX-Slow: ');
    servers.push(srv.server);
    const dir = stack('slowhttp', `sessions:\n  web:\n    command: sleep 600\n    ready: { http: "http://127.0.0.1:${srv.port}/", timeout: 3s, interval: 200ms }\n`);
    const r = await h.run(['up', '-d'], { cwd: dir, timeoutMs: 90_000 });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /session 'web' of stack slowhttp: not ready within 3s/);
    await h.ok(['down'], { cwd: dir });
  });

  test('an http probe whose 200 keeps streaming is ready, and up -d exits', async () => {
    const sse: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const timer = setInterval(() => res.write('data: tick\n\n'), 200);
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((r) => sse.listen(0, '127.0.0.1', r));
    servers.push({ close: () => { sse.closeAllConnections(); sse.close(); } });
    const port = (sse.address() as { port: number }).port;
    const dir = stack('sse', `sessions:\n  web:\n    command: sleep 600\n    ready: { http: "http://127.0.0.1:${port}/events", timeout: 30s }\n`);
    const r = await h.run(['up', '-d'], { cwd: dir, timeoutMs: 90_000 });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /web ready/);
    await h.ok(['down'], { cwd: dir });
  });

  test('an exec probe that ignores TERM ends at ready.timeout, and none of its children outlives it', async () => {
    const pids = join(scratch, 'probe-pids');
    writeFileSync(pids, '');
    const probe = `trap '' TERM; sleep 600 & echo $! >> ${pids}; wait`;
    const dir = stack('stubborn', `sessions:\n  web:\n    command: sleep 600\n    ready: { exec: ${JSON.stringify(probe)}, timeout: 3s, interval: 200ms }\n`);
    const r = await h.run(['up', '-d'], { cwd: dir, timeoutMs: 90_000 });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /not ready within 3s \(ready: exec /);
    const started = readFileSync(pids, 'utf8').split('\n').filter(Boolean).map(Number);
    assert.ok(started.length >= 1, 'the probe ran');
    const deadline = Date.now() + 30_000;
    while (started.some((p) => !gone(p)) && Date.now() < deadline) await new Promise((res) => setTimeout(res, 100));
    assert.deepEqual(started.filter((p) => !gone(p)), [], 'every attempt\'s children were killed with it');
    await h.ok(['down'], { cwd: dir });
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    test(`a foreground up waiting on a probe that never answers stops at ${signal}`, async () => {
      const pids = join(scratch, `fg-pids-${signal}`);
      writeFileSync(pids, '');
      const probe = `trap '' TERM; sleep 600 & echo $! >> ${pids}; wait`;
      const name = `fg${signal.toLowerCase()}`;
      const dir = stack(name, `sessions:\n  web:\n    command: sleep 600\n    ready: { exec: ${JSON.stringify(probe)}, timeout: 10m }\n`);
      const child = spawn(process.execPath, [BIN, 'up'], { cwd: dir, env: { ...process.env, NO_COLOR: '1', AMUX_HOME: h.home }, stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      const deadline = Date.now() + 60_000;
      while (readFileSync(pids, 'utf8') === '' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      assert.notEqual(readFileSync(pids, 'utf8'), '', `the probe is running; ${err}`);
      child.kill(signal);
      const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      const code = await exited;
      clearTimeout(killer);
      assert.equal(code, 130, err);
      assert.deepEqual(JSON.parse(await h.ok(['ps', '--stack', name, '--json'])), [], 'the stack went down with up');
      const started = readFileSync(pids, 'utf8').split('\n').filter(Boolean).map(Number);
      const until = Date.now() + 30_000;
      while (started.some((p) => !gone(p)) && Date.now() < until) await new Promise((res) => setTimeout(res, 100));
      assert.deepEqual(started.filter((p) => !gone(p)), [], 'the probe went with up');
    });
  }
});

describe('stacks brought up by several at once (ADR 0036)', () => {
  const h = amuxHome({ after });
  const scratch = mkdtempSync('/tmp/amux-upup-');
  after(() => rmSync(scratch, { recursive: true, force: true }));

  test('three up -d of one stack at once: each exits 0, and the stack has each session once', async () => {
    const dir = join(scratch, 'trio');
    mkdirSync(dir);
    writeFileSync(join(dir, 'amux.yaml'), [
      'sessions:',
      '  db:',
      '    command: echo listening; sleep 600',
      '    ready: { until: "output:listening", timeout: 60s }',
      '  api:',
      '    command: sleep 600',
      '    depends_on: { db: ready }',
      '  web:',
      '    command: sleep 600',
      '',
    ].join('\n'));
    await h.ok(['daemon', 'start']);
    const runs = await Promise.all([0, 1, 2].map(() => h.run(['up', '-d'], { cwd: dir, timeoutMs: 120_000 })));
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    const sessions = JSON.parse(await h.ok(['ps', '--stack', 'trio', '--json'])) as any[];
    assert.deepEqual(sessions.map((s) => s.labels.service).sort(), ['api', 'db', 'web']);
    for (const s of sessions) assert.ok(['working', 'idle'].includes(s.status), `${s.name}: ${s.status}`);
    await h.ok(['down'], { cwd: dir });
  });
});
