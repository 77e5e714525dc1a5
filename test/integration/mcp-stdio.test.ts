import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { amuxHome } from '../helpers/amux.js';
import { RawMcp, sockets, until } from '../helpers/mcp.js';

/*
 * `amux mcp`'s stdio as its client sees it in raw JSON-RPC lines (src/guides/agents.md): every line gets
 * an answer, nothing read ends the server, and it ends with its client.
 */

const MiB = 1024 * 1024;

describe('amux mcp stdio', () => {
  const h = amuxHome({ after });
  const servers: RawMcp[] = [];
  after(() => servers.forEach((s) => s.kill()));
  const start = async () => {
    const s = new RawMcp(h);
    servers.push(s);
    await s.initialize();
    return s;
  };

  test('malformed JSON gets -32700, a non-JSON-RPC message -32600, and the server answers on', async () => {
    const s = await start();
    await s.write('{"jsonrpc": "2.0", "id": 5, "method": \n');
    const parse = await s.next((m) => m.error?.code === -32700);
    assert.equal(parse.id, null);
    await s.send({ hello: 'there', id: 6 });
    const invalid = await s.next((m) => m.error?.code === -32600);
    assert.equal(invalid.id, 6);
    const list = await s.request(7, 'tools/list');
    assert.ok(list.result.tools.length >= 11);
  });

  test('a message over the limit gets payload_too_large for its id, and the server answers on', async () => {
    const s = await start();
    // As the SDK writes a request: its id last.
    const huge = `{"method":"tools/call","params":{"name":"exec","arguments":{"session":"x","command":"wc -c","stdin":"${'a'.repeat(17 * MiB)}"}},"jsonrpc":"2.0","id":41}\n`;
    await s.write(huge);
    const answer = await s.next((m) => m.id === 41);
    assert.equal(answer.error.code, -32600);
    assert.equal(answer.error.data.code, 'payload_too_large');
    assert.match(answer.error.message, /limit of 16 MiB/);
    const list = await s.request(42, 'tools/call', { name: 'list', arguments: {} });
    assert.ok(Array.isArray(list.result.structuredContent.sessions));
    // Under the limit, a large stdin goes to the job.
    const shell = await s.request(43, 'tools/call', { name: 'run', arguments: {} });
    const id = shell.result.structuredContent.session.id;
    await s.request(44, 'tools/call', { name: 'wait', arguments: { ids: [id], until: 'idle' } });
    const fed = await s.request(45, 'tools/call', { name: 'exec', arguments: { session: id, command: 'wc -c', stdin: 'b'.repeat(11 * MiB) } }, 120_000);
    assert.equal(fed.result.structuredContent.exitCode, 0, JSON.stringify(fed).slice(0, 500));
    assert.equal(fed.result.structuredContent.stdin.bytes, 11 * MiB);
    assert.equal(fed.result.content[Number(/\d+/.exec(fed.result.structuredContent.stdout.textIn)![0])].text.trim(), String(11 * MiB));
  });

  for (const how of ['stdin closes', 'the client is killed (both pipes gone)'] as const) {
    test(`when ${how}, it ends at once: calls under way are dropped and held input is never typed`, async () => {
      const s = await start();
      // Busy until told (a file), not for a time a busy machine could outlast before the send arrives.
      const go = join(h.home, `go-${how.length}`);
      const busy = await s.request(1, 'tools/call', { name: 'run', arguments: { command: `while [ ! -e ${go} ]; do sleep 0.1; done; cat` } });
      const id = busy.result.structuredContent.session.id;
      const rest = sockets(s.child.pid!);
      await s.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'wait', arguments: { ids: [id], budgetMs: 600_000 } } });
      await s.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'send', arguments: { session: id, text: 'held-input', when: 'idle', budgetMs: 600_000 } } });
      await until('the wait and the send are at the daemon', () => sockets(s.child.pid!) >= rest + 2);
      if (how === 'stdin closes') s.child.stdin.end();
      else {
        s.child.stdin.destroy();
        s.child.stdout.destroy();
      }
      assert.equal(await s.exitWithin(15_000), 0);
      writeFileSync(go, '');
      // The session goes idle (cat reads the terminal): the held input would be typed now.
      const w = await h.run(['wait', id, '--until', 'idle', '--timeout', '30s']);
      assert.equal(w.code, 0, w.stderr);
      await h.ok(['send', id, 'typed-after']);
      await h.run(['wait', id, '--until', 'output:typed-after', '--timeout', '30s']);
      assert.doesNotMatch((await h.run(['logs', id])).stdout, /held-input/);
      await h.run(['kill', id]);
    });
  }
});
