import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { amuxHome, BIN, sleep, type AmuxHome } from '../helpers/amux.js';

/** The programs of these tests (test/fixtures/attention/*.sh). */
const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'attention');
const fixture = (name: string) => join(FIXTURES, name);
/** Sessions find `amux` (the CLI under test) on their PATH, as a hook would. */
const PATH = `PATH=${dirname(BIN)}:${process.env.PATH}`;

async function waitJson(h: AmuxHome, args: string[]): Promise<{ code: number; r: any }> {
  const res = await h.run(['wait', ...args, '--json']);
  assert.ok(res.code !== 2, `amux wait ${args.join(' ')}: ${res.stderr}`);
  return { code: res.code, r: res.stdout.trim() ? JSON.parse(res.stdout)[0] : null };
}

async function events(h: AmuxHome, id: string): Promise<any[]> {
  return (JSON.parse(await h.ok(['inspect', id])) as { events: any[] }).events;
}

/** Polls the session's events until one matches (a bound, not a timed assertion). */
async function untilEvent(h: AmuxHome, id: string, match: (e: any) => boolean, what: string): Promise<any> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = (await events(h, id)).find(match);
    if (found) return found;
    assert.ok(Date.now() < deadline, `never: ${what}`);
    await sleep(150);
  }
}

/** Sends a line and answers the receipt's event id (the cursor after which the next signal counts). */
async function answer(h: AmuxHome, id: string, text: string): Promise<number> {
  return JSON.parse(await h.ok(['send', id, text, '--json'])).eventId as number;
}

/** Waits for the next attention after `cursor`; answers the session's attention then. */
async function nextAttention(h: AmuxHome, id: string, cursor: number): Promise<any> {
  const { code, r } = await waitJson(h, [id, '--until', 'attention', '--after', String(cursor), '--timeout', '30s']);
  assert.equal(code, 0, JSON.stringify(r));
  assert.equal(r.event.type, 'attention');
  assert.ok(r.event.id > cursor);
  return (await h.session(id)).attention;
}

describe('attention from the terminal', () => {
  const h = amuxHome({ after });
  const tmp = mkdtempSync('/tmp/amux-att-');
  after(() => rmSync(tmp, { recursive: true, force: true }));

  test('a bell: attention, the ! mark and the filter; input clears it; printing again clears the next one', async () => {
    const trigger = join(tmp, 'print');
    const id = await h.ok(['run', '--', 'bash', fixture('bell.sh'), trigger]);
    const { code, r } = await waitJson(h, [id, '--until', 'attention', '--timeout', '30s']);
    assert.equal(code, 0);
    assert.equal(r.event.type, 'attention');
    const s = await h.until(id, (x) => x.status === 'idle');
    assert.deepEqual({ ...s.attention, at: typeof s.attention.at }, { at: 'string', source: 'bell', title: null, message: null });
    const table = await h.ok(['ps']);
    assert.match(table.split('\n').find((l) => l.startsWith(id))!, / idle! /);
    assert.deepEqual((await h.ok(['ps', '-q', '--status', 'idle', '--attention'])).split('\n'), [id]);
    assert.equal(await h.ok(['ps', '-q', '--status', 'working', '--attention']), '');
    assert.equal((await h.json<any[]>(['ps', '--attention']))[0].attention.source, 'bell');

    await answer(h, id, 'yes');
    const cleared = await h.session(id);
    assert.equal(cleared.attention, null, 'input clears it');
    assert.ok((await events(h, id)).some((e) => e.type === 'attention_cleared' && e.data.by === 'input'));

    // The script rings again after one more line; then prints when told to.
    assert.equal((await nextAttention(h, id, await answer(h, id, 'again'))).source, 'bell');
    writeFileSync(trigger, '');
    await h.until(id, (x) => x.attention === null);
    const last = (await events(h, id)).filter((e) => e.type === 'attention_cleared').pop();
    assert.equal(last.data.by, 'output');
    assert.equal(await h.ok(['ps', '-q', '--attention']), '');
  });

  test('OSC 9, 777 and 99 notifications: messages exactly; an escape in a message refuses it (a bell remains)', async () => {
    const id = await h.ok(['run', '--', 'bash', fixture('notify.sh')]);
    const { code } = await waitJson(h, [id, '--until', 'attention', '--timeout', '30s']);
    assert.equal(code, 0);
    const first = (await h.session(id)).attention;
    assert.deepEqual([first.source, first.title, first.message], ['osc9', null, 'build done: 3 passed; ünïcode ✓ "q" $HOME']);

    const refused = await nextAttention(h, id, await answer(h, id, 'next'));
    assert.deepEqual([refused.source, refused.message], ['bell', null]);
    assert.ok(!(await events(h, id)).some((e) => e.type === 'attention' && /evil|red/.test(JSON.stringify(e.data))));

    const rxvt = await nextAttention(h, id, await answer(h, id, 'next'));
    assert.deepEqual([rxvt.source, rxvt.title, rxvt.message], ['osc777', 'Codex', 'turn complete; 2 files ✓']);
    const kitty = await nextAttention(h, id, await answer(h, id, 'next'));
    assert.deepEqual([kitty.source, kitty.title, kitty.message], ['osc99', null, 'kitty says hi']);
    const ev = (await events(h, id)).filter((e) => e.type === 'attention').pop();
    assert.deepEqual(ev.data, { source: 'osc99', title: null, message: 'kitty says hi' });
  });

  test('--until attention --after CURSOR: an attention that came and went between two calls is not missed', async () => {
    const id = await h.ok(['run', '--', 'read -r _; printf "\\a"; read -r _; exec sleep 600']);
    await h.until(id, (x) => x.status === 'idle');
    const before = await waitJson(h, [id, '--until', 'attention', '--timeout', '1ms']);
    assert.equal(before.code, 124);
    const cursor = before.r.cursor as number;
    await answer(h, id, 'a');
    await untilEvent(h, id, (e) => e.type === 'attention' && e.id > cursor, 'the bell was seen');
    await answer(h, id, 'b');
    assert.equal((await h.session(id)).attention, null);
    // Now: no attention. After the cursor: the one between the calls.
    assert.equal((await waitJson(h, [id, '--until', 'attention', '--timeout', '1ms'])).code, 124);
    const missed = await waitJson(h, [id, '--until', 'attention', '--after', String(cursor), '--timeout', '1ms']);
    assert.equal(missed.code, 0);
    assert.equal(missed.r.event.type, 'attention');
    assert.ok(missed.r.event.id > cursor);
  });

  test('a notification written while the daemon was down is found in the log when it starts again', async (t) => {
    const h2 = amuxHome(t);
    const go = join(tmp, 'go');
    const id = await h2.ok(['run', '--', `until [ -e ${go} ]; do sleep 0.1; done; printf '\\e]9;while you were away\\a'; exec sleep 600`]);
    await h2.until(id, (x) => x.status !== 'pending');
    await h2.ok(['daemon', 'stop']);
    assert.equal((await h2.run(['daemon', 'status'])).code, 3);
    writeFileSync(go, '');
    const logDir = join(h2.home, 'sessions', id, 'log');
    const deadline = Date.now() + 30_000;
    const logged = () => existsSync(logDir) && readdirSync(logDir).some((f) => readFileSync(join(logDir, f), 'latin1').includes('while you were away'));
    while (!logged()) {
      assert.ok(Date.now() < deadline, 'the program never wrote its notification');
      await sleep(100);
    }
    const { code } = await waitJson(h2, [id, '--until', 'attention', '--timeout', '30s']); // starts the daemon
    assert.equal(code, 0);
    const a = (await h2.session(id)).attention;
    assert.deepEqual([a.source, a.message], ['osc9', 'while you were away']);
  });
});

describe('states a program declares (amux state)', () => {
  const h = amuxHome({ after });
  const tmp = mkdtempSync('/tmp/amux-att-');
  after(() => rmSync(tmp, { recursive: true, force: true }));

  test('through an agent\'s life: working over the evidence, waiting with attention, ready with a TTL; input ends each', async () => {
    const id = await h.ok(['run', '-e', PATH, '--', 'bash', fixture('agent.sh')]);
    // It reads the terminal (the evidence says idle), but it declared working.
    const working = await h.until(id, (x) => x.declared?.state === 'working');
    await sleep(2500); // more than a refresh: the evidence had its say
    const still = await h.session(id);
    assert.equal(still.status, 'working', JSON.stringify(still));
    assert.equal(still.reason, 'declared: thinking hard');
    assert.equal(working.declared.until, null);

    const cursor = await answer(h, id, 'go');
    const { code, r } = await waitJson(h, [id, '--until', 'waiting', '--after', String(cursor), '--timeout', '30s']);
    assert.equal(code, 0);
    assert.equal(r.event.type, 'state_declared');
    assert.equal(r.event.to, 'waiting');
    assert.equal(r.status, 'idle', 'the wait answers once the status followed');
    const waiting = await h.session(id);
    assert.equal(waiting.reason, 'declared: approve: edit src/x.ts?');
    assert.deepEqual([waiting.attention.source, waiting.attention.message], ['declared', 'approve: edit src/x.ts?']);
    assert.match((await h.ok(['ps'])).split('\n').find((l) => l.startsWith(id))!, / idle! /);
    assert.equal((await waitJson(h, [id, '--until', 'attention', '--timeout', '1ms'])).code, 0);
    const ended = (await events(h, id)).filter((e) => e.type === 'declaration_ended');
    assert.deepEqual(ended.map((e) => e.data), [{ state: 'working', why: 'input' }]);

    const cursor2 = await answer(h, id, 'yes');
    const answered = await h.session(id);
    assert.equal(answered.attention, null);
    const ready = await waitJson(h, [id, '--until', 'ready', '--after', String(cursor2), '--timeout', '30s']);
    assert.equal(ready.code, 0);
    // The TTL (1s) ends it; what amux sees decides again.
    await untilEvent(h, id, (e) => e.type === 'declaration_ended' && e.data.why === 'ttl', 'the TTL ended the declaration');
    const lapsed = await h.session(id);
    assert.equal(lapsed.declared, null);
    assert.notEqual(lapsed.reason, 'declared: ready', JSON.stringify(lapsed));
    const last = (await events(h, id)).filter((e) => e.type === 'declaration_ended').pop();
    assert.deepEqual(last.data, { state: 'ready', why: 'ttl' });
    assert.match(await h.ok(['logs', id]), /answer: yes/);
  });

  test('send --when ready holds the text until the program declared its turn done', async () => {
    const go = join(tmp, 'ready');
    const id = await h.ok(['run', '-e', PATH, '--', 'bash', fixture('turn.sh'), go]);
    await h.until(id, (x) => x.declared?.state === 'working');
    const sent = h.run(['send', id, 'hello', '--when', 'ready', '--timeout', '60s', '--json']);
    await sleep(500);
    assert.doesNotMatch(await h.ok(['logs', id]), /hello/, 'nothing typed before ready');
    writeFileSync(go, '');
    const r = await sent;
    assert.equal(r.code, 0, r.stderr);
    const ev = await events(h, id);
    const declared = ev.find((e) => e.type === 'state_declared' && e.data.to === 'ready');
    const input = ev.find((e) => e.type === 'input_sent');
    assert.ok(declared && input && declared.id < input.id);
    const deadline = Date.now() + 20_000;
    while (!/typed: hello/.test(await h.ok(['logs', id]))) {
      assert.ok(Date.now() < deadline, 'the line never arrived');
      await sleep(100);
    }
  });

  test("the program's end ends its declaration (a command typed into a shell session)", async () => {
    const id = await h.ok(['run', '-e', PATH]);
    await h.until(id, (x) => x.status === 'idle');
    await h.ok(['send', id, "bash -c 'amux state working -m inner; sleep 1'"]);
    const ended = await untilEvent(h, id, (e) => e.type === 'declaration_ended', 'the declaration ended');
    assert.deepEqual(ended.data, { state: 'working', why: 'program ended' });
    assert.ok((await events(h, id)).some((e) => e.type === 'state_declared' && e.data.message === 'inner'));
  });

  test('outside a session: exit 2 with one line, unless --session; a message with escapes is refused', async () => {
    const out = await h.run(['state', 'waiting'], { env: { AMUX_SESSION_ID: '' } });
    assert.equal(out.code, 2);
    assert.match(out.stderr, /^amux: not inside an amux session \(AMUX_SESSION_ID is not set\).*--session ID\n$/);
    assert.equal((await h.run(['state', 'sleepy', '--session', 'x'])).code, 2);
    const id = await h.ok(['run', '--', 'sleep 600']);
    await h.until(id, (x) => x.status !== 'pending');
    const bad = await h.run(['state', 'waiting', '--session', id, '-m', 'a\x1b[31mb']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /control characters/);
    assert.equal((await h.session(id)).declared, null, 'nothing half-done');
    const s = JSON.parse(await h.ok(['state', 'ready', '--session', id, '--json'], { env: { AMUX_SESSION_ID: '' } }));
    assert.equal(s.status, 'idle');
    assert.equal(s.reason, 'declared: ready');
    assert.equal(s.declared.state, 'ready');
    const gone = await h.run(['state', 'ready', '--session', 'nosuchid']);
    assert.notEqual(gone.code, 0);
  });
});

describe('attention over MCP', () => {
  const h = amuxHome({ after });

  test('a subscriber hears of an attention that changes no status; list and wait carry it', async () => {
    const base = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && e[0] !== 'NODE_EXTRA_CA_CERTS'));
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], env: { ...base, AMUX_HOME: h.home, NO_COLOR: '1', AMUX_SESSION_ID: '' }, stderr: 'pipe' });
    const c = new Client({ name: 'amux-test', version: '1.0.0' });
    await c.connect(transport);
    after(() => c.close());
    const id = await h.ok(['run']);
    await h.until(id, (x) => x.status === 'idle');
    const uri = `amux://sessions/${id}`;
    let updates = 0;
    const updated = new Promise<void>((resolve) => {
      c.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
        if (n.params.uri === uri && ++updates >= 1) resolve();
      });
    });
    await c.subscribeResource({ uri });
    // Idle stays idle: only the attention and the declaration change.
    await h.ok(['state', 'waiting', '--session', id, '-m', 'approve?']);
    await Promise.race([updated, sleep(30_000).then(() => assert.fail('no resources/updated within 30 s'))]);
    const list = (await c.callTool({ name: 'list', arguments: {} })).structuredContent as any;
    const mine = list.sessions.find((x: any) => x.id === id);
    assert.equal(mine.status, 'idle');
    assert.deepEqual([mine.attention.source, mine.attention.message, mine.declared.state], ['declared', 'approve?', 'waiting']);
    const w = (await c.callTool({ name: 'wait', arguments: { ids: [id], until: 'attention', budgetMs: 10_000 } })).structuredContent as any;
    assert.equal(w.done, true, JSON.stringify(w));
    assert.equal(w.results[0].reached, true);
    const ev = (await events(h, id)).filter((e) => e.type === 'state_changed');
    assert.ok(ev.every((e) => e.data.to !== 'idle' || e.data.from !== 'idle'));
    await c.unsubscribeResource({ uri });
  });
});
