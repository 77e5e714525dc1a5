import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { amuxHome } from '../helpers/amux.js';
import { call, callError, connect, idleShell } from '../helpers/mcp.js';

describe('amux mcp', () => {
  const h = amuxHome({ after });
  let c: Client;
  const dir = join('/tmp', `amux-mcp-${randomBytes(4).toString('hex')}`);
  before(async () => {
    c = await connect(h);
  });
  after(async () => {
    await c?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('lists every tool with a schema, a description and annotations', async () => {
    const { tools } = await c.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of ['run', 'exec', 'list', 'inspect', 'read_output', 'screen', 'send', 'wait', 'kill', 'remove', 'jobs', 'up', 'down']) {
      const t = byName.get(name);
      assert.ok(t, `tool ${name}`);
      assert.equal(t.inputSchema.type, 'object');
      assert.ok((t.description ?? '').length > 40, `${name} has a description an agent can act on`);
      assert.equal(typeof t.annotations?.readOnlyHint, 'boolean');
    }
    assert.equal(byName.get('list')!.annotations!.readOnlyHint, true);
    assert.equal(byName.get('kill')!.annotations!.destructiveHint, true);
    assert.equal(byName.get('wait')!.annotations!.idempotentHint, true);
    assert.ok('budgetMs' in (byName.get('wait')!.inputSchema.properties ?? {}));
  });

  test('up and down: per-session readiness within a budget; a failing dependency named; the stack removed (src/guides/stacks.md)', async () => {
    const stacks = join(dir, 'stacks');
    cpSync(join(__dirname, '..', '..', '..', 'test', 'fixtures', 'stacks', 'failing-dep'), join(stacks, 'failing-dep'), { recursive: true });
    mkdirSync(join(stacks, 'mcpstack'));
    writeFileSync(join(stacks, 'mcpstack', 'amux.yaml'), 'sessions:\n  base: { command: "echo base up; sleep 300", ready: { until: "output:base up" } }\n  top: { command: "sleep 300", depends_on: { base: ready } }\n');
    const up = await call(c, 'up', { file: join(stacks, 'mcpstack', 'amux.yaml'), budgetMs: 60_000 });
    assert.equal(up.done, true);
    assert.equal(up.ok, true, JSON.stringify(up));
    assert.equal(up.stack, 'mcpstack');
    assert.deepEqual(up.sessions.map((s: any) => [s.key, s.state, s.session.name]), [['base', 'ready', 'mcpstack-base'], ['top', 'ready', 'mcpstack-top']]);
    const bad = await call(c, 'up', { file: join(stacks, 'failing-dep', 'amux.yaml'), budgetMs: 60_000 });
    assert.equal(bad.ok, false);
    assert.equal(bad.failure.service, 'migrate');
    assert.match(bad.failure.reason, /exit code 3/);
    const worker = bad.sessions.find((s: any) => s.key === 'worker');
    assert.deepEqual([worker.state, worker.reason], ['not started', 'dependency migrate ended (failed, exit code 3), not completed; never started']);
    assert.deepEqual([worker.session.name, worker.session.status, worker.session.reason], ['failing-dep-worker', 'failed', 'dependency failed'], 'recorded, never started (ADR 0039)');
    assert.match(await callError(c, 'up', { file: join(stacks, 'nope.yaml') }), /no file/);
    const down = await call(c, 'down', { project: 'mcpstack' });
    assert.deepEqual(down.removed.sort(), ['mcpstack-base', 'mcpstack-top']);
    await call(c, 'down', { project: 'failing-dep' });
    assert.equal((await call(c, 'list', {})).sessions.filter((s: any) => /^(mcpstack|failing-dep)-/.test(s.name ?? '')).length, 0);
  });

  test('run with a budget that runs out, then wait with the cursor completes, with progress', async () => {
    // The program runs until the test says so (a file, ADR 0058): the budget runs out however slow the machine.
    mkdirSync(dir, { recursive: true });
    const go = join(dir, 'run-go');
    const first = await call(c, 'run', { command: `while [ ! -e ${go} ]; do sleep 0.05; done; echo finished; exit 4`, wait: true, budgetMs: 200 });
    assert.equal(first.done, false);
    assert.match(first.cursor, /^e\d+$/);
    assert.equal(first.session.status, 'working');
    writeFileSync(go, '');
    const progress: unknown[] = [];
    const second = await call(c, 'wait', { ids: [first.session.id], cursor: first.cursor, budgetMs: 60_000 }, { onprogress: (p) => progress.push(p) });
    assert.equal(second.done, true);
    assert.equal(second.results[0].exitCode, 4);
    assert.equal(second.results[0].status, 'failed');
    assert.equal(second.results[0].reached, true);
    assert.equal(second.results[0].event.to, 'failed');
    const done = await call(c, 'run', { command: 'echo one; echo two', wait: true });
    assert.equal(done.done, true);
    assert.equal(done.exitCode, 0);
    assert.equal(done.output.text, 'one\ntwo\n');
  });

  test('a long wait sends progress notifications', async () => {
    const s = await call(c, 'run', { command: 'sleep 60' });
    const progress: any[] = [];
    const w = await call(c, 'wait', { ids: [s.session.id], budgetMs: 5_600 }, { onprogress: (p) => progress.push(p) });
    assert.equal(w.done, false);
    assert.ok(progress.length >= 1, 'at least one progress notification');
    assert.equal(progress[0].total, 5_600);
    await call(c, 'kill', { target: s.session.id });
  });

  test('exec: exit code, separate streams within maxBytes, and a budget that runs out', async () => {
    const id = await idleShell(c);
    const r = await call(c, 'exec', { session: id, command: 'echo out; echo err >&2; (exit 5)' });
    assert.equal(r.done, true);
    assert.equal(r.exitCode, 5);
    assert.equal(r.stdout.text, 'out\n');
    assert.equal(r.stderr.text, 'err\n');
    const fed = await call(c, 'exec', { session: id, command: 'wc -l', stdin: 'a\nb\nc\n' });
    assert.equal(fed.exitCode, 0);
    assert.equal(fed.stdout.text.trim(), '3');
    const big = await call(c, 'exec', { session: id, command: 'seq 1 10000', maxBytes: 100 });
    assert.equal(big.exitCode, 0);
    assert.ok(big.stdout.omittedBytes > 0);
    assert.ok(Buffer.byteLength(big.stdout.text) <= 100);
    assert.match(big.stdout.text, /\n10000\n$/);
    assert.equal(big.stdout.bytes, 48894);
    // The job runs until the test says so (a file, ADR 0058): the budget runs out however slow the machine.
    mkdirSync(dir, { recursive: true });
    const go = join(dir, 'exec-go');
    const slow = await call(c, 'exec', { session: id, command: `while [ ! -e ${go} ]; do sleep 0.05; done; (exit 6)`, budgetMs: 100 });
    assert.equal(slow.done, false);
    assert.match(slow.jobId, /^job-/);
    writeFileSync(go, '');
    const end = await call(c, 'wait', { ids: [slow.jobId], cursor: slow.cursor, budgetMs: 60_000 });
    assert.equal(end.done, true);
    assert.equal(end.results[0].exitCode, 6);
    const jobs = await call(c, 'jobs', { session: id });
    assert.ok(jobs.jobs.some((j: any) => j.id === slow.jobId && j.exitCode === 6));
  });

  test('read_output pages a 5 MB output back byte-exact, and a job stream too', async () => {
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'big.txt');
    const content = `${randomBytes(3_800_000).toString('base64').replace(/.{76}/g, '$&\n')}\n`;
    assert.ok(content.length > 5_000_000);
    writeFileSync(file, content);
    const run = await call(c, 'run', { argv: ['cat', file], wait: true, budgetMs: 120_000 });
    assert.equal(run.done, true);
    assert.equal(run.exitCode, 0);
    const parts: string[] = [];
    let since = 0;
    let pages = 0;
    for (;;) {
      const p = await call(c, 'read_output', { target: run.session.id, sinceOffset: since, maxBytes: 1024 * 1024 });
      assert.equal(p.skippedBytes, 0);
      parts.push(p.text);
      pages++;
      since = p.nextOffset;
      if (!p.truncated) break;
    }
    assert.ok(pages >= 5, `paged in ${pages}`);
    assert.ok(parts.join('') === content, 'the pages put together are the output');
    const tail = await call(c, 'read_output', { target: run.session.id, tailLines: 2 });
    assert.equal(tail.text, content.split('\n').slice(-3).join('\n'));

    const job = await call(c, 'exec', { session: await idleShell(c), command: 'seq 1 120000', maxBytes: 10 });
    const expected = `${Array.from({ length: 120000 }, (_, i) => i + 1).join('\n')}\n`;
    const got: string[] = [];
    since = 0;
    for (;;) {
      const p = await call(c, 'read_output', { target: job.jobId, stream: 'stdout', sinceOffset: since, maxBytes: 64 * 1024, raw: true });
      got.push(p.text);
      since = p.nextOffset;
      if (!p.truncated) break;
    }
    assert.ok(got.join('') === expected, 'the job stream put together');
    const err = await call(c, 'read_output', { target: job.jobId, stream: 'stderr' });
    assert.equal(err.text, '');
  });

  test('send answers a receipt; the reply is read from its offset; screen shows it; keys are keys', async () => {
    const id = await idleShell(c);
    const receipt = await call(c, 'send', { session: id, text: 'echo reply-$((40+2))' });
    assert.equal(receipt.delivered, true);
    assert.equal(receipt.submitted, true, 'the shell read the Enter');
    assert.equal(typeof receipt.offset, 'number');
    const w = await call(c, 'wait', { ids: [id], until: 'output:^reply-42$', sinceOffset: receipt.offset, budgetMs: 30_000 });
    assert.equal(w.done, true);
    assert.equal(w.results[0].match, 'reply-42');
    const out = await call(c, 'read_output', { target: id, sinceOffset: receipt.offset });
    assert.match(out.text, /^reply-42$/m);
    const screen = await call(c, 'screen', { session: id });
    assert.match(screen.screen, /reply-42/);
    await call(c, 'send', { session: id, text: 'sleep 60' });
    await call(c, 'wait', { ids: [id], until: 'working', budgetMs: 30_000 });
    await call(c, 'send', { session: id, keys: ['C-c'] });
    const idle = await call(c, 'wait', { ids: [id], until: 'idle', cursor: `e${receipt.eventId}`, budgetMs: 30_000 });
    assert.equal(idle.done, true);
    const held = await call(c, 'send', { session: id, text: 'echo held', when: 'idle', budgetMs: 30_000 });
    assert.equal(held.delivered, true);
    assert.equal(held.submitted, true);
  });

  test('a subscribed session is notified of its status change', async () => {
    const id = await idleShell(c);
    const uri = `amux://sessions/${id}`;
    const updated = new Promise<string>((resolve) => {
      c.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
        if (n.params.uri === uri) resolve(n.params.uri);
      });
    });
    await c.subscribeResource({ uri });
    await call(c, 'send', { session: id, text: 'exit 7' });
    assert.equal(await updated, uri);
    // The record tells the new status once the session has ended.
    const w = await call(c, 'wait', { ids: [id], budgetMs: 30_000 });
    assert.equal(w.results[0].exitCode, 7, JSON.stringify(w));
    const res = await c.readResource({ uri });
    const record = JSON.parse((res.contents[0] as { text: string }).text);
    assert.equal(record.id, id);
    assert.equal(record.exitCode, 7);
    const listed = await c.listResources();
    assert.ok(listed.resources.some((r) => r.uri === uri));
    await c.unsubscribeResource({ uri });
  });

  test('list, inspect, remove', async () => {
    const r = await call(c, 'run', { command: 'true', name: 'mcp-listed', wait: true });
    const list = await call(c, 'list', {});
    assert.ok(list.sessions.some((s: any) => s.id === r.session.id && s.name === 'mcp-listed'));
    const done = await call(c, 'list', { status: ['completed'] });
    assert.ok(done.sessions.every((s: any) => s.status === 'completed'));
    const inspected = await call(c, 'inspect', { session: 'mcp-listed' });
    assert.equal(inspected.session.id, r.session.id);
    assert.ok(inspected.events.length > 0);
    const removed = await call(c, 'remove', { session: r.session.id });
    assert.equal(removed.session.id, r.session.id);
    assert.ok(!(await call(c, 'list', {})).sessions.some((s: any) => s.id === r.session.id));
  });

  test('bad arguments are tool errors carrying amux message and code', async () => {
    assert.match(await callError(c, 'run', { command: 42 }), /command/);
    assert.match(await callError(c, 'wait', { ids: [] }), /ids/);
    assert.match(await callError(c, 'wait', { ids: ['nope-nope'] }), /session_not_found/);
    assert.match(await callError(c, 'wait', { ids: ['x'], cursor: 'bogus' }), /cursor 'bogus' is not one this server gave/);
    assert.match(await callError(c, 'wait', { ids: ['x'], until: 'sleeping' }), /unknown until 'sleeping'.*invalid_argument/);
    const shell = await call(c, 'run', {});
    assert.match(await callError(c, 'read_output', { target: shell.session.id, stream: 'stdout' }), /stream is for job ids.*invalid_argument/);
    assert.match(await callError(c, 'send', { session: shell.session.id }), /either text or keys/);
    // An unknown tool is a protocol error (-32602), not a tool's.
    await assert.rejects(c.callTool({ name: 'budget', arguments: {} }), (e: any) => e.code === -32602 && /no tool 'budget'/.test(e.message));
    await call(c, 'kill', { target: shell.session.id });
  });
});

describe('amux mcp inside a session', () => {
  const h = amuxHome({ after });

  test('refuses to kill or remove its own session, not others', async () => {
    const own = await h.ok(['run', '--', 'sleep', '120']);
    const other = await h.ok(['run', '--', 'sleep', '120']);
    const c = await connect(h, { AMUX_SESSION_ID: own });
    try {
      assert.match(await callError(c, 'kill', { target: own }), /refusing to kill .* the session this MCP server runs in/);
      assert.match(await callError(c, 'kill', { target: own.slice(0, 5) }), /refusing to kill/);
      assert.match(await callError(c, 'kill', { target: `job-${own}-1` }), /refusing to kill/);
      assert.match(await callError(c, 'remove', { session: own, force: true }), /refusing to remove/);
      assert.equal((await call(c, 'inspect', { session: own })).session.status, 'working');
      const killed = await call(c, 'kill', { target: other });
      assert.equal(killed.session.status, 'stopped');
    } finally {
      await c.close();
    }
    // amux sets AMUX_SESSION_ID in every session.
    const shell = await h.ok(['run']);
    const r = await h.run(['exec', shell, '--', 'printf %s "$AMUX_SESSION_ID"']);
    assert.equal(r.stdout, shell);
  });
});
