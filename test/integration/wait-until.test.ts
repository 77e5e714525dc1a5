import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { amuxHome, sleep, type AmuxHome } from '../helpers/amux.js';
import { installed } from '../helpers/programs.js';

/** Whether python3 is on PATH (the paste REPL below is a Python program). */

/** The REPL fixture that asks for bracketed paste (test/fixtures/paste_repl.py). */
const PASTE_REPL = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'paste_repl.py');

async function waitJson(h: AmuxHome, args: string[]): Promise<{ code: number; results: any[] }> {
  const r = await h.run(['wait', ...args, '--json']);
  assert.ok(r.code !== 2, `amux wait ${args.join(' ')}: ${r.stderr}`);
  return { code: r.code, results: r.stdout.trim() ? JSON.parse(r.stdout) : [] };
}

/** A shell session at its prompt (idle). */
async function idleShell(h: AmuxHome): Promise<string> {
  const id = await h.ok(['run']);
  assert.equal((await h.run(['wait', id, '--until', 'idle', '--timeout', '30s'])).code, 0);
  return id;
}

/** The session's plain-text log. */
async function plainLog(h: AmuxHome, id: string): Promise<string> {
  return h.ok(['logs', id]);
}

describe('wait --until', () => {
  const h = amuxHome({ after });

  test('a state that already holds is answered at once, with the event that set it', async () => {
    const id = await idleShell(h);
    // A 1 ms timeout: only the first look can answer 0.
    const { code, results } = await waitJson(h, [id, '--until', 'idle', '--timeout', '1ms']);
    assert.equal(code, 0);
    assert.equal(results[0].reached, true);
    assert.equal(results[0].status, 'idle');
    assert.equal(results[0].event.type, 'state_changed');
    assert.equal(results[0].event.to, 'idle');
    assert.equal(typeof results[0].event.reason, 'string');
    assert.ok(results[0].cursor >= results[0].event.id);
    // Not there: the timeout answers 124 and says not reached.
    const working = await waitJson(h, [id, '--until', 'working', '--timeout', '300ms']);
    assert.equal(working.code, 124);
    assert.equal(working.results[0].reached, false);
  });

  test('--after: a change between two calls is not missed, and an old one does not count', async () => {
    const id = await idleShell(h);
    const { results } = await waitJson(h, [id, '--until', 'idle']);
    const cursor = results[0].cursor as number;
    const receipt = JSON.parse(await h.ok(['send', id, 'sleep 1', '--json']));
    assert.ok(receipt.eventId > cursor);
    // Let the whole round (working, then idle again) happen before the next call.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const events = (JSON.parse(await h.ok(['inspect', id])).events as any[]).filter((e) => e.type === 'state_changed' && e.id > receipt.eventId);
      if (events.some((e) => e.data.to === 'idle')) break;
      assert.ok(Date.now() < deadline, 'the session never went back to idle');
      await sleep(200);
    }
    // It is idle now, yet it was working after the cursor: that change is the answer.
    const working = await waitJson(h, [id, '--until', 'working', '--after', String(cursor), '--timeout', '1ms']);
    assert.equal(working.code, 0);
    assert.equal(working.results[0].status, 'idle');
    assert.equal(working.results[0].event.to, 'working');
    assert.ok(working.results[0].event.id > cursor);
    const idle = await waitJson(h, [id, '--until', 'idle', '--after', String(receipt.eventId), '--timeout', '1ms']);
    assert.equal(idle.code, 0);
    assert.ok(idle.results[0].event.id > receipt.eventId);
    // After the newest cursor nothing has changed: idle now does not count.
    const none = await waitJson(h, [id, '--until', 'idle', '--after', String(idle.results[0].cursor), '--timeout', '500ms']);
    assert.equal(none.code, 124);
    assert.equal(none.results[0].reached, false);
  });

  test('output:REGEX matches the plain text, from a send receipt offset on', async () => {
    const id = await h.ok(['run', '--', 'bash', '-c', 'sleep 0.5; printf "\\033[1mREADY-\\033[0m42\\n"; exec bash --norc']);
    const ready = await waitJson(h, [id, '--until', 'output:READY-\\d+', '--timeout', '30s']);
    assert.equal(ready.code, 0);
    assert.equal(ready.results[0].match, 'READY-42');
    assert.ok(ready.results[0].logOffset > 0);
    await h.run(['wait', id, '--until', 'idle', '--timeout', '30s']);
    const receipt = JSON.parse(await h.ok(['send', id, 'echo marker-$((6*7))', '--json']));
    // The old output is before the offset: it does not match any more.
    const old = await waitJson(h, [id, '--until', 'output:READY-42', '--since-offset', String(receipt.offset), '--timeout', '700ms']);
    assert.equal(old.code, 124);
    const reply = await waitJson(h, [id, '--until', 'output:^marker-42$', '--since-offset', String(receipt.offset), '--timeout', '30s']);
    assert.equal(reply.code, 0);
    assert.equal(reply.results[0].match, 'marker-42');
    assert.match(await h.ok(['logs', id, '--since-offset', String(receipt.offset)]), /marker-42/);
  });

  test('--any answers for the first target to get there', async () => {
    const slow = await h.ok(['run', '--', 'sleep', '60']);
    const quick = await h.ok(['run', '--', 'bash', '-c', 'sleep 0.3; exit 3']);
    const ended = await waitJson(h, [slow, quick, '--any', '--timeout', '30s']);
    assert.equal(ended.code, 3, 'the exit code of the one that ended');
    assert.deepEqual(ended.results.map((r) => r.reached), [false, true]);
    const shell = await idleShell(h);
    const idle = await waitJson(h, [slow, shell, '--any', '--until', 'idle', '--timeout', '30s']);
    assert.equal(idle.code, 0);
    assert.deepEqual(idle.results.map((r) => r.reached), [false, true]);
    await h.ok(['kill', slow]);
  });

  test('a session that ends without getting there: exit 1, not reached', async () => {
    const id = await h.ok(['run', '--', 'bash', '-c', 'sleep 0.5; echo bye']);
    const idle = await waitJson(h, [id, '--until', 'idle', '--after', '999999999', '--timeout', '30s']);
    assert.equal(idle.code, 1);
    assert.equal(idle.results[0].reached, false);
    assert.equal(idle.results[0].status, 'completed');
    const out = await waitJson(h, [id, '--until', 'output:never-printed', '--timeout', '30s']);
    assert.equal(out.code, 1);
    assert.equal(out.results[0].reached, false);
    // Its output is still searched once it ended.
    assert.equal((await h.run(['wait', id, '--until', 'output:^bye$'])).code, 0);
  });

  test('bad requests: exit 2 with one line', async () => {
    const id = await idleShell(h);
    for (const [args, message] of [
      [['--until', 'sleeping'], /unknown --until 'sleeping': use exited, idle, working, attention, waiting, ready, started or output:REGEX/],
      [['--until', 'output:('], /not a valid regular expression/],
      [['--since-offset', '3'], /sinceOffset is for --until output/],
    ] as const) {
      const r = await h.run(['wait', id, ...args]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split('\n').length, 1);
    }
    const job = (await h.ok(['exec', '-b', id, '--', 'sleep', '5'])).split(' ')[0]!;
    const r = await h.run(['wait', job, '--until', 'idle']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /is for sessions/);
  });

  test('the API: the same request and answer', async () => {
    const id = await idleShell(h);
    const ok = await h.api('POST', '/v1/wait', { ids: [id], until: 'idle', timeoutMs: 1 });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.timedOut, false);
    assert.equal(ok.body.results[0].reached, true);
    assert.equal(typeof ok.body.cursor, 'number');
    const bad = await h.api('POST', '/v1/wait', { ids: [id], until: 'output:' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'invalid_argument');
  });
});

describe('send: receipts, --when idle, pastes', () => {
  const h = amuxHome({ after });

  test('the receipt says where the reply starts, and names its event', async () => {
    const id = await idleShell(h);
    const before = (await h.session(id)).logBytes as number;
    const receipt = JSON.parse(await h.ok(['send', id, 'echo reply-$((40+2))', '--json']));
    assert.equal(receipt.delivered, true);
    assert.equal(receipt.pasted, false);
    assert.ok(receipt.offset >= before);
    const events = JSON.parse(await h.ok(['inspect', id])).events as any[];
    const sent = events.find((e) => e.id === receipt.eventId);
    assert.equal(sent?.type, 'input_sent');
    assert.equal(sent.data.offset, receipt.offset);
    await h.run(['wait', id, '--until', 'output:^reply-42$', '--since-offset', String(receipt.offset), '--timeout', '30s']);
    const reply = await h.ok(['logs', id, '--since-offset', String(receipt.offset)]);
    assert.match(reply, /^reply-42$/m);
    // The API answers the same receipt.
    const api = await h.api('POST', `/v1/sessions/${id}/input`, { text: 'true' });
    assert.equal(api.status, 200);
    assert.equal(api.body.delivered, true);
    assert.equal(typeof api.body.offset, 'number');
    assert.equal(api.body.session.id, id);
  });

  test('--when idle types nothing into a busy program, then types once it is idle', async () => {
    const id = await idleShell(h);
    // The program runs until told to end (a file), however slowly a busy machine looks at it.
    const go = join(h.home, 'go');
    await h.ok(['send', id, `while [ ! -e ${go} ]; do sleep 0.1; done; echo slept-$((1+1))`]);
    await h.until(id, (s) => s.status === 'working');
    const held = h.run(['send', id, '--when', 'idle', '--json', 'echo typed-$((2+2))']);
    // While the program runs, the text is held: the screen does not show it. Five CLI calls made
    // one after the other: the send, started before them, is with the daemon by then.
    for (let i = 0; i < 5; i++) {
      assert.doesNotMatch(await h.ok(['logs', id, '--screen']), /typed-/);
      await sleep(200);
    }
    writeFileSync(go, '');
    const r = await held;
    assert.equal(r.code, 0, r.stderr);
    const receipt = JSON.parse(r.stdout);
    assert.ok(receipt.heldMs > 0);
    await h.run(['wait', id, '--until', 'output:^typed-4$', '--timeout', '30s']);
    const log = await plainLog(h, id);
    assert.ok(log.indexOf('slept-2') < log.indexOf('echo typed-'), `typed before the program finished:\n${log}`);
  });

  test('--when idle with a timeout that runs out: 124, nothing typed', async () => {
    const id = await idleShell(h);
    await h.ok(['send', id, 'sleep 5']);
    await h.until(id, (s) => s.status === 'working');
    const r = await h.run(['send', id, '--when', 'idle', '--timeout', '500ms', 'echo never-$((3*3))']);
    assert.equal(r.code, 124);
    assert.match(r.stderr, /was not idle within 500ms; nothing was typed/);
    await h.run(['wait', id, '--until', 'idle', '--timeout', '30s']);
    assert.doesNotMatch(await plainLog(h, id), /never-/);
  });

  test('a 20-line paste reaches a REPL that asked for bracketed paste as one submission', async (t) => {
    if (!installed('python3')) return t.skip('python3 is not installed: the REPL of this test is a Python program');
    const lines = ['total = sum([', ...Array.from({ length: 18 }, (_, i) => `    ${i + 1},`), '])'];
    assert.equal(lines.length, 20);
    const text = `${lines.join('\n')}\nprint("total =", total)`;
    const id = await h.ok(['run', '--', 'python3', PASTE_REPL]);
    await h.run(['wait', id, '--until', 'output:>>> ', '--timeout', '30s']);
    const receipt = JSON.parse(await h.ok(['send', id, '--json', text]));
    assert.equal(receipt.pasted, true);
    await h.run(['wait', id, '--until', 'output:total = 171', '--timeout', '30s']);
    const log = await plainLog(h, id);
    assert.match(log, /\[submission 1: 21 lines\]/);
    assert.doesNotMatch(log, /submission 2/);
    assert.match(log, /^total = 171$/m);
    // A program that did not ask gets the lines as a terminal's paste does: one by one.
    const plain = await h.ok(['run', '--', 'python3', PASTE_REPL, '--no-bracket']);
    await h.run(['wait', plain, '--until', 'output:>>> ', '--timeout', '30s']);
    await h.ok(['send', plain, text]);
    await h.run(['wait', plain, '--until', 'output:submission 21:', '--timeout', '30s']);
    assert.match(await plainLog(h, plain), /\[submission 21: 1 lines\]/);
  });

  test('--keys C-c is a key: it interrupts, nothing is typed as text', async () => {
    const id = await idleShell(h);
    await h.ok(['send', id, 'sleep 60']);
    await h.until(id, (s) => s.status === 'working');
    await h.ok(['send', id, '--keys', 'C-c']);
    assert.equal((await h.run(['wait', id, '--until', 'idle', '--timeout', '30s'])).code, 0);
    assert.doesNotMatch(await plainLog(h, id), /C-c/);
  });
});
