import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { unitEnd } from '../../src/core/page-bounds.js';
import { amuxHome, BIN, sleep } from '../helpers/amux.js';
import { call, callFailure, connect, idleShell, mcpEnv, sockets, until, clientFor } from '../helpers/mcp.js';

/*
 * What one MCP client (or a careless agent) does must not end, stall or fool `amux mcp`: issue 21's
 * MCP cases, driven through the SDK's client over stdio.
 */

describe('amux mcp under careless clients', () => {
  const h = amuxHome({ after });
  let c: Client;
  clientFor(h, (client) => (c = client));

  test('exec with stdin to a command that does not read it answers, and the server lives on', async () => {
    const id = await idleShell(c);
    const big = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 3; i++) {
      const r = await call(c, 'exec', { session: id, command: 'true', stdin: big });
      assert.equal(r.exitCode, 0);
      assert.equal(r.stdin.of, big.length);
      assert.equal(r.stdin.eof, false);
      assert.ok(r.stdin.bytes < big.length);
      assert.match(r.stdin.note, /job/);
    }
    const fed = await call(c, 'exec', { session: id, command: 'wc -c', stdin: 'abc\n' });
    assert.equal(fed.stdout.text.trim(), '4');
    assert.deepEqual(fed.stdin, { written: 4, bytes: 4, of: 4, eof: true });
    assert.ok((await call(c, 'list', {})).sessions.length > 0, 'still serving');
  });

  test('an unknown argument is refused, naming it, and nothing starts', async () => {
    const before = (await call(c, 'list', {})).sessions.length;
    const f = await callFailure(c, 'run', { comand: 'echo hi' });
    assert.equal(f.error.code, 'invalid_argument');
    assert.equal(f.error.exitCode, 2);
    assert.match(f.error.message, /'comand'/);
    assert.equal((await call(c, 'list', {})).sessions.length, before, 'no session was started');
    const bad = await callFailure(c, 'wait', { ids: 'x' });
    assert.equal(bad.error.code, 'invalid_argument');
    assert.match(bad.error.message, /'ids'/);
  });

  test('every tool has an output schema, and a failure conforms to it too', async () => {
    const { tools } = await c.listTools();
    for (const t of tools) {
      assert.equal(t.outputSchema?.type, 'object', `${t.name} has an output schema`);
      assert.equal((t.inputSchema as { additionalProperties?: unknown }).additionalProperties, false, `${t.name} takes no unknown keys`);
    }
    // The SDK's client checks structuredContent against the schema: a call that fails still parses.
    const f = await callFailure(c, 'inspect', { session: 'no-such-session' });
    assert.equal(f.error.code, 'session_not_found');
  });

  test('no list_changed is advertised (none is sent)', () => {
    const caps = c.getServerCapabilities()!;
    assert.ok(!caps.resources?.listChanged, JSON.stringify(caps));
    assert.ok(!caps.tools?.listChanged, JSON.stringify(caps));
    assert.equal(caps.resources?.subscribe, true);
  });

  test('resource errors carry MCP codes: -32002 for no such session, -32602 for a bad URI', async () => {
    await assert.rejects(c.readResource({ uri: 'amux://sessions/nosuchsession' }), (e: any) => e.code === -32002 && e.data?.code === 'session_not_found');
    await assert.rejects(c.readResource({ uri: 'amux://elsewhere/x' }), (e: any) => e.code === -32602);
    await assert.rejects(c.subscribeResource({ uri: 'amux://sessions/nosuchsession' }), (e: any) => e.code === -32002);
  });

  test('send when idle out of budget answers a cursor, and the input is never typed', async () => {
    // Busy until told (a file), not for a time a busy machine could outlast before the send arrives.
    const go = `${h.home}/go-never-typed`;
    const s = await call(c, 'run', { command: `while [ ! -e ${go} ]; do sleep 0.1; done; cat` });
    const r = await call(c, 'send', { session: s.session.id, text: 'never-typed-1', when: 'idle', budgetMs: 200 });
    assert.equal(r.delivered, false);
    writeFileSync(go, '');
    assert.match(r.cursor, /^e\d+$/);
    await call(c, 'wait', { ids: [s.session.id], until: 'idle', cursor: r.cursor, budgetMs: 30_000 });
    const later = await call(c, 'send', { session: s.session.id, text: 'typed-later' });
    await call(c, 'wait', { ids: [s.session.id], until: 'output:typed-later', sinceOffset: later.offset, budgetMs: 30_000 });
    assert.doesNotMatch((await call(c, 'read_output', { target: s.session.id })).text, /never-typed/);
    await call(c, 'kill', { target: s.session.id });
  });

  test('read_output stays within small maxBytes', async () => {
    const s = await call(c, 'run', { command: 'printf "\\033[1mbold\\033[0m é€ line\\n%.0s" $(seq 1 50)', wait: true });
    for (const raw of [false, true]) {
      // A page never cuts a character it could hold: from 4 bytes on, plain text stays within the budget.
      for (let maxBytes = raw ? 1 : 4; maxBytes <= 12; maxBytes++) {
        let since = 0;
        for (let pages = 0; pages < 2000; pages++) {
          const p = await call(c, 'read_output', { target: s.session.id, sinceOffset: since, maxBytes, raw });
          const bytes = p.encoding === 'base64' ? Buffer.from(p.text, 'base64') : Buffer.from(p.text);
          // A raw page is one escape sequence or character whole when that alone is longer than maxBytes (ADR 0052).
          assert.ok(bytes.length <= maxBytes || (raw && unitEnd(bytes, 0) === bytes.length), `maxBytes ${maxBytes} raw ${raw}: a page of ${bytes.length} bytes at ${since}`);
          assert.ok(p.nextOffset > since || !p.more, 'pages go on');
          since = p.nextOffset;
          if (!p.more) break;
        }
      }
    }
  });

  test('a 1 MiB page goes over the wire once', async () => {
    const s = await call(c, 'run', { command: 'head -c 3000000 /dev/zero | tr "\\0" "a" | fold -w 100', wait: true, budgetMs: 60_000 });
    const r = await c.callTool({ name: 'read_output', arguments: { target: s.session.id, maxBytes: 1024 * 1024 } });
    const size = Buffer.byteLength(JSON.stringify(r));
    assert.ok(size > 1_000_000 && size < 1_100_000, `answer of ${size} bytes for a page of 1 MiB`);
  });

  test('60 concurrent calls: no listener warning', async () => {
    const big = await call(c, 'run', { command: 'seq 1 200000', wait: true, budgetMs: 60_000, maxBytes: 1 });
    const id = await idleShell(c);
    // Large answers at once fill stdout's pipe: each waits for it to drain.
    await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 3 === 2
      ? call(c, 'wait', { ids: [id], until: 'working', budgetMs: 300 })
      : call(c, 'read_output', { target: big.session.id, sinceOffset: i * 1000, maxBytes: 256 * 1024 }))));
    const stderr = (c.transport as StdioClientTransport).stderr!;
    let text = '';
    stderr.on('data', (d: Buffer) => (text += d.toString()));
    await call(c, 'list', {});
    await sleep(200);
    assert.doesNotMatch(text, /MaxListenersExceededWarning/);
  });
});

describe('amux mcp cancellation', () => {
  const h = amuxHome({ after });

  test('a cancelled held send is never typed, and a cancelled wait lets go of the daemon', async () => {
    const c = await connect(h);
    try {
      const pid = (c.transport as StdioClientTransport).pid!;
      // Busy until told (a file), not for a time a busy machine could outlast before the send arrives.
      const go = `${h.home}/go-cancelled`;
      const s = await call(c, 'run', { command: `while [ ! -e ${go} ]; do sleep 0.1; done; cat` });
      const rest = sockets(pid); // its stdio (socket pairs), and nothing else between calls
      const abort = new AbortController();
      const held = call(c, 'send', { session: s.session.id, text: 'cancelled-input', when: 'idle', budgetMs: 60_000 }, { signal: abort.signal });
      await until('the send holds a daemon connection', () => sockets(pid) > rest);
      abort.abort();
      await assert.rejects(held);
      await until('the cancelled send let go of the daemon', () => sockets(pid) === rest);
      writeFileSync(go, '');
      const idle = await call(c, 'wait', { ids: [s.session.id], until: 'idle', budgetMs: 30_000 });
      assert.equal(idle.done, true);
      const later = await call(c, 'send', { session: s.session.id, text: 'typed-later' });
      await call(c, 'wait', { ids: [s.session.id], until: 'output:typed-later', sinceOffset: later.offset, budgetMs: 30_000 });
      const out = await call(c, 'read_output', { target: s.session.id });
      assert.doesNotMatch(out.text, /cancelled-input/);

      const waiting = new AbortController();
      const w = call(c, 'wait', { ids: [s.session.id], budgetMs: 600_000 }, { signal: waiting.signal });
      await until('the wait holds a daemon connection', () => sockets(pid) > rest);
      waiting.abort();
      await assert.rejects(w);
      await until('the cancelled wait let go of the daemon', () => sockets(pid) === rest);
      await call(c, 'kill', { target: s.session.id });
    } finally {
      await c.close();
    }
  });
});

describe('amux mcp started without AMUX_SESSION_ID inside a session', () => {
  const h = amuxHome({ after });

  test('finds its own session through its ancestors and refuses to kill it', async () => {
    const own = await h.ok(['run', '--', 'sleep', '120']);
    // As an MCP client does: its own environment has AMUX_SESSION_ID, the server's has not.
    const env = mcpEnv(h, { AMUX_SESSION_ID: own });
    const c = await connect(h, {}, { command: '/bin/sh', args: ['-c', `env -u AMUX_SESSION_ID "${process.execPath}" "${BIN}" mcp; true`], env });
    try {
      const f = await callFailure(c, 'kill', { target: own });
      assert.match(f.error.message, /refusing to kill .* the session this MCP server runs in/);
      assert.equal((await call(c, 'inspect', { session: own })).session.status, 'working');
    } finally {
      await c.close();
      await h.run(['kill', own]);
    }
  });
});
