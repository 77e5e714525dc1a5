import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { amuxHome, BIN, sleep, type AmuxHome } from '../helpers/amux.js';

/** The programs of these tests (test/fixtures/announced/). */
const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'announced');
const fixture = (name: string) => join(FIXTURES, name);

async function waitJson(h: AmuxHome, args: string[]): Promise<{ code: number; r: any }> {
  const res = await h.run(['wait', ...args, '--json']);
  assert.ok(res.code !== 2, `amux wait ${args.join(' ')}: ${res.stderr}`);
  return { code: res.code, r: res.stdout.trim() ? JSON.parse(res.stdout)[0] : null };
}

async function events(h: AmuxHome, id: string): Promise<any[]> {
  return (JSON.parse(await h.ok(['inspect', id])) as { events: any[] }).events;
}

/** Sends a line; answers the receipt's event id (the cursor after which a change counts). */
async function answer(h: AmuxHome, id: string, text: string): Promise<number> {
  return JSON.parse(await h.ok(['send', id, text, '--json'])).eventId as number;
}

/** Waits (a bound, not a timed assertion) until the file exists. */
async function untilFile(path: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!existsSync(path) || readFileSync(path, 'utf8') === '') {
    assert.ok(Date.now() < deadline, `never written: ${path}`);
    await sleep(100);
  }
}

describe('states programs announce (ADR 0049)', () => {
  const h = amuxHome({ after });
  const tmp = mkdtempSync('/tmp/amux-announced-');
  after(() => rmSync(tmp, { recursive: true, force: true }));

  test('OSC 7501 (as Codex writes it) is a declared state: working, blocked (waiting, with attention), done (ready); it ends with the program', async () => {
    const end = join(tmp, 'codex-end');
    const id = await h.ok(['run']);
    await h.until(id, (x) => x.status === 'idle');
    await h.ok(['send', id, `bash ${fixture('codex.sh')} ${end}`]);
    // It reads the terminal (the evidence says idle) while it says it works: the declaration wins.
    const working = await h.until(id, (x) => x.declared?.state === 'working');
    assert.equal(working.status, 'working');
    assert.equal(working.reason, 'declared: codex working');
    assert.equal(working.declared.source, 'osc7501');
    assert.equal(working.title, '⠋ codex: thinking');
    assert.equal((await h.json<any[]>(['ps'])).find((x) => x.id === id).declared.source, 'osc7501');

    const asked = await answer(h, id, 'go');
    const { code, r } = await waitJson(h, [id, '--until', 'waiting', '--after', String(asked), '--timeout', '30s']);
    assert.equal(code, 0, JSON.stringify(r));
    assert.equal(r.event.type, 'state_declared');
    const blocked = await h.session(id);
    assert.equal(blocked.status, 'idle');
    assert.deepEqual([blocked.attention.source, blocked.attention.message], ['osc7501', 'Run rm -rf build?']);
    assert.equal(blocked.reason, 'declared: codex blocked (permission): Run rm -rf build?');
    assert.equal((await waitJson(h, [id, '--until', 'attention', '--after', String(asked), '--timeout', '30s'])).code, 0);

    const approved = await answer(h, id, 'y');
    const ready = await waitJson(h, [id, '--until', 'ready', '--after', String(approved), '--timeout', '30s']);
    assert.equal(ready.code, 0, JSON.stringify(ready.r));
    const done = await h.session(id);
    assert.deepEqual([done.status, done.reason, done.attention, done.title], ['idle', 'declared: codex done', null, 'codex']);
    const declared = (await events(h, id)).filter((e) => e.type === 'state_declared').map((e) => [e.data.to, e.data.source]);
    assert.deepEqual(declared, [['working', 'osc7501'], ['waiting', 'osc7501'], ['ready', 'osc7501']]);

    // The program ends: its declaration ends with it, as one made with `amux state` does.
    writeFileSync(end, '');
    const back = await h.until(id, (x) => x.declared === null && x.reason === 'at prompt');
    assert.equal(back.status, 'idle');
    const ended = (await events(h, id)).filter((e) => e.type === 'declaration_ended').map((e) => e.data.why);
    assert.deepEqual(ended, ['input', 'input', 'program ended']);
    await h.ok(['kill', id]);
  });

  test('an OSC 7501 report split across two reads of the output is read whole', async () => {
    const go = join(tmp, 'split-go');
    const id = await h.ok(['run', '--', 'bash', fixture('split.sh'), go]);
    await h.until(id, (x) => x.title === 'half'); // a look has read the first piece
    writeFileSync(go, '');
    const { code, r } = await waitJson(h, [id, '--until', 'waiting', '--timeout', '30s']);
    assert.equal(code, 0, JSON.stringify(r));
    const s = await h.session(id);
    assert.deepEqual([s.status, s.declared.message, s.attention.source], ['idle', 't blocked (question)', 'osc7501']);
    await h.ok(['kill', id]);
  });

  test('OSC 9;4 progress: working while set (with its percent), idle once cleared; an OSC 9 text starting with a digit is a notification', async () => {
    const id = await h.ok(['run', '--', 'bash', fixture('progress.sh')]);
    const { code } = await waitJson(h, [id, '--until', 'working', '--timeout', '30s']);
    assert.equal(code, 0);
    const set = await h.until(id, (x) => x.progress !== null);
    assert.deepEqual([set.status, set.reason, set.progress.state, set.progress.percent, set.attention], ['working', 'progress 42%', 'normal', 42, null]);
    await h.ok(['send', id, 'more']);
    const moved = await h.until(id, (x) => x.progress?.percent === 80);
    assert.deepEqual([moved.status, moved.reason], ['working', 'progress 80%']);
    await h.ok(['send', id, 'finish']);
    const cleared = await h.until(id, (x) => x.progress === null && x.status === 'idle' && x.attention !== null);
    assert.equal(cleared.reason, 'reading the terminal');
    assert.deepEqual([cleared.attention.source, cleared.attention.message], ['osc9', '4 files copied']);
    await h.ok(['kill', id]);
  });

  test('a progress bar ends with the program that set it', async () => {
    const id = await h.ok(['run']);
    await h.until(id, (x) => x.status === 'idle');
    await h.ok(['send', id, `bash -c 'printf "\\e]9;4;3\\a"; read -r _'`]);
    const set = await h.until(id, (x) => x.progress !== null);
    assert.deepEqual([set.status, set.reason, set.progress.state, set.progress.percent], ['working', 'progress', 'indeterminate', null]);
    await h.ok(['send', id, 'bye']);
    const back = await h.until(id, (x) => x.progress === null && x.reason === 'at prompt');
    assert.equal(back.status, 'idle');
    await h.ok(['kill', id]);
  });

  test('OSC 133 marks decide what the kernel cannot judge: C is working past the idle threshold, D is idle with its exit code', async () => {
    const pidFile = join(tmp, 'marks.pid');
    const id = await h.ok(['run', '--', 'python3', fixture('marks.py'), pidFile]);
    // pause() is a wait the kernel cannot judge: without the mark, the screen rule makes it idle after 3 s.
    const running = await h.until(id, (x) => x.reason === 'command running (OSC 133)' && Date.now() - Date.parse(x.startedAt) > 4000);
    assert.equal(running.status, 'working');
    assert.deepEqual([running.semanticPrompt.phase, running.semanticPrompt.exitCode], ['running', null]);
    assert.ok(!(await events(h, id)).some((e) => e.type === 'state_changed' && e.data.to === 'idle'), 'never idle while the mark says it runs');
    await untilFile(pidFile);
    process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGUSR1');
    const finished = await h.until(id, (x) => x.status === 'idle');
    assert.equal(finished.reason, 'at prompt (OSC 133)');
    // D;3 then a new prompt (A, B): the last mark is B, with the exit status of the command before it.
    assert.deepEqual([finished.semanticPrompt.phase, finished.semanticPrompt.exitCode], ['input', 3]);
    assert.ok((await h.ok(['logs', id, '--raw'])).includes('\x1b]133;D;3\x07'));
    await h.ok(['kill', id]);
  });

  test('a kitty notification (OSC 99) in parts keeps its title and message past a closing empty part', async () => {
    const id = await h.ok(['run', '--', 'bash', fixture('kitty.sh')]);
    const { code } = await waitJson(h, [id, '--until', 'attention', '--timeout', '30s']);
    assert.equal(code, 0);
    const s = await h.until(id, (x) => x.status === 'idle');
    assert.deepEqual([s.attention.source, s.attention.title, s.attention.message], ['osc99', 'Hello', 'World']);
    await h.ok(['kill', id]);
  });
});

describe('the window title (ADR 0050)', () => {
  const h = amuxHome({ after });

  test('kept per session and shown as written in ps --json, inspect, the API and MCP; escaped where printed; never a status rule', async () => {
    const id = await h.ok(['run', '--', `printf '\\e]0;first\\a\\e]2;⠋ Working \\xc2\\x9b[2J done\\e\\\\'; read -r _`]);
    const title = '⠋ Working \u009b[2J done';
    const s = await h.until(id, (x) => x.title === title);
    assert.deepEqual([s.status, s.reason], ['idle', 'reading the terminal']);
    assert.equal((await h.json<any[]>(['ps'])).find((x) => x.id === id).title, title);
    assert.equal((await h.api('GET', `/v1/sessions/${id}`)).body.session.title, title);
    assert.equal(await h.ok(['ps', '--format', '{{.Title}}']), '⠋ Working \\u009b[2J done');
    assert.equal(await h.ok(['inspect', id, '--format', '{{.Title}}']), '⠋ Working \\u009b[2J done');

    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], env: { ...process.env, AMUX_HOME: h.home, AMUX_SESSION_ID: '' } as Record<string, string>, stderr: 'pipe' });
    const c = new Client({ name: 'amux-test', version: '1.0.0' });
    await c.connect(transport);
    after(() => c.close());
    const list = (await c.callTool({ name: 'list', arguments: {} })).structuredContent as any;
    assert.equal(list.sessions.find((x: any) => x.id === id).title, title);
    const inspected = (await c.callTool({ name: 'inspect', arguments: { session: id } })).structuredContent as any;
    assert.equal(inspected.session.title, title);

    // The finished session keeps the last title it set.
    await h.ok(['send', id, 'bye']);
    const ended = await h.until(id, (x) => x.status === 'completed');
    assert.equal(ended.title, title);
  });
});
