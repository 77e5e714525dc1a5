import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { amuxHome } from '../helpers/amux.js';
import { call, callFailure, connect, idleShell, RawMcp, clientFor } from '../helpers/mcp.js';

/*
 * Answers that never waste a budget and speak MCP (issue 34): a prompt answers at once, up tells
 * how it goes and how it ended, errors name tools and arguments.
 */

describe('a command that waits for input answers at once (done: false, what the screen asks)', () => {
  const h = amuxHome({ after });
  let c: Client;
  clientFor(h, (client) => (c = client));

  test('run {wait: true} on read -p: done: false with the prompt, well inside a long budget; send answers it', async () => {
    const r = await call(c, 'run', { command: "read -p 'Your name? ' n; echo hello-$n", wait: true, budgetMs: 90_000 });
    assert.equal(r.done, false, JSON.stringify(r));
    assert.ok(r.input, `answered for the prompt, not the budget: ${JSON.stringify(r)}`);
    assert.equal(r.input.status, 'idle');
    assert.match(r.input.reason, /terminal/);
    assert.match(r.input.screen, /Your name\?/);
    assert.equal(r.session.status, 'idle');
    await call(c, 'send', { session: r.session.id, text: 'ada' });
    const end = await call(c, 'wait', { ids: [r.session.id], cursor: r.cursor, budgetMs: 60_000 });
    assert.equal(end.done, true);
    assert.match((await call(c, 'read_output', { target: r.session.id })).text, /hello-ada/);
  });

  test('exec on a password prompt: done: false, the job still running; send answers it and wait ends it', async () => {
    const shell = await idleShell(c);
    const r = await call(c, 'exec', { session: shell, command: "read -s -p 'Password: ' pw; echo; echo got ${#pw}", budgetMs: 90_000 });
    assert.equal(r.done, false, JSON.stringify(r));
    assert.ok(r.input, `answered for the prompt, not the budget: ${JSON.stringify(r)}`);
    assert.equal(r.status, 'running');
    assert.match(r.input.screen, /Password:/);
    await call(c, 'send', { session: shell, text: 'secret' });
    const end = await call(c, 'wait', { ids: [r.jobId], cursor: r.cursor, budgetMs: 60_000 });
    assert.equal(end.done, true);
    assert.equal(end.results[0].exitCode, 0);
    assert.match((await call(c, 'read_output', { target: r.jobId, stream: 'stdout' })).text, /got 6/);
  });

  test('a job that is quiet but not reading the terminal still runs to its end', async () => {
    const shell = await idleShell(c);
    const r = await call(c, 'exec', { session: shell, command: 'sleep 2; echo done-sleeping', budgetMs: 120_000 });
    assert.equal(r.done, true, JSON.stringify(r));
    assert.equal(r.stdout.text, 'done-sleeping\n');
  });
});

describe('up, down and errors speak MCP', () => {
  const h = amuxHome({ after });
  let c: Client;
  const dir = join('/tmp', `amux-mcp-answers-${randomBytes(4).toString('hex')}`);
  before(async () => {
    c = await connect(h);
  });
  after(async () => {
    await c?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('up sends progress while it waits, and shows each session as it is at the end', async () => {
    const stack = join(dir, 'answers');
    mkdirSync(stack, { recursive: true });
    writeFileSync(join(stack, 'amux.yaml'), [
      'sessions:',
      '  migrate: { command: "echo migrated" }',
      '  web: { command: "sleep 6; echo listening; sleep 300", depends_on: { migrate: completed }, ready: { until: "output:listening", timeout: 120s } }',
      '',
    ].join('\n'));
    const progress: unknown[] = [];
    const up = await call(c, 'up', { file: join(stack, 'amux.yaml'), budgetMs: 180_000 }, { onprogress: (p) => progress.push(p) });
    assert.equal(up.ok, true, JSON.stringify(up));
    assert.ok(progress.length > 0, 'progress while it waited for web to be ready');
    const migrate = up.sessions.find((s: any) => s.key === 'migrate');
    assert.equal(migrate.session.status, 'completed', 'a completed migration is shown completed, not as it started');

    const down = await call(c, 'down', { file: join(stack, 'amux.yaml') });
    assert.equal(down.stack, 'answers');
    assert.deepEqual(down.removed.sort(), ['answers-migrate', 'answers-web']);
    const again = await callFailure(c, 'down', { file: join(stack, 'amux.yaml') });
    assert.equal(again.error.code, 'not_found');
    assert.match(again.error.message, /no stack 'answers'/);
    assert.equal((await callFailure(c, 'down', { project: 'nosuchstack' })).error.exitCode, 1);
  });

  test('errors name tools and arguments, not CLI flags', async () => {
    const shell = await idleShell(c);
    const until = await callFailure(c, 'wait', { ids: [shell], until: 'idel' });
    assert.match(until.error.message, /until 'idel'/);
    const keys = await callFailure(c, 'send', { session: shell, keys: ['Ctrl-C'] });
    const job = await call(c, 'exec', { session: shell, command: 'true' });
    const jobUntil = await callFailure(c, 'wait', { ids: [job.jobId], until: 'idle' });
    const busy = await call(c, 'run', { command: 'sleep 300' });
    const rm = await callFailure(c, 'remove', { session: busy.session.id });
    const noFile = await callFailure(c, 'up', { file: join(dir, 'empty', 'amux.yaml') });
    for (const e of [until, keys, jobUntil, rm, noFile]) assert.doesNotMatch(e.error.message, /(^|[\s('])--?[a-z]|'amux /, e.error.message);
    assert.match(rm.error.message, /kill tool|force: true/);
    await call(c, 'kill', { target: busy.session.id });
  });

  test('exec says what it wrote to stdin; the descriptions say that exit ends the shell and name the 1 MiB stream cap', async () => {
    const shell = await idleShell(c);
    const r = await call(c, 'exec', { session: shell, command: 'head -c 3', stdin: 'abcdef' });
    assert.equal(r.stdout.text, 'abc');
    assert.equal(r.stdin.written, r.stdin.bytes);
    assert.equal(r.stdin.of, 6);
    const { tools } = await c.listTools();
    const exec = tools.find((t) => t.name === 'exec')!;
    assert.match(exec.description!, /`exit N` in it ends that shell/);
    for (const name of ['exec', 'read_output', 'jobs']) assert.match(tools.find((t) => t.name === name)!.description!, /1 MiB/, name);
  });
});

describe('JSON-RPC errors: MCP codes, one line', () => {
  const h = amuxHome({ after });

  test('tools/call without params, arguments null or an array, an unknown tool: -32602, one line without a doubled prefix', async () => {
    const raw = new RawMcp(h);
    try {
      await raw.initialize();
      const cases: [number, object | undefined][] = [
        [1, undefined], [2, {}], [3, { name: 'list', arguments: null }], [4, { name: 'list', arguments: [] }], [5, { name: 'nope', arguments: {} }],
      ];
      for (const [id, params] of cases) {
        await raw.send({ jsonrpc: '2.0', id, method: 'tools/call', ...(params ? { params } : {}) });
        const r = await raw.next((m) => m.id === id);
        assert.equal(r.error?.code, -32602, JSON.stringify(r));
        assert.doesNotMatch(r.error.message, /\n|MCP error|invalid_type|expected/, r.error.message);
      }
      const read = await raw.request(6, 'resources/read', { uri: 'amux://elsewhere/x' });
      assert.equal(read.error.code, -32602);
      assert.doesNotMatch(read.error.message, /MCP error/);
    } finally {
      raw.kill();
    }
  });
});
