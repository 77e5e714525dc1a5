import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { amuxHome, type AmuxHome } from '../helpers/amux.js';
import { installed } from '../helpers/programs.js';

/**
 * `send` submits (ADR 0047): text goes in as a paste, Enter as its own key once the program has
 * taken the text, and the receipt says `submitted` only when the program read the Enter.
 */

/** A prompt with the paste-burst detection of Codex and Gemini CLI (test/fixtures/paste_burst_tui.py). */
const TUI = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'paste_burst_tui.py');
const PASTE_REPL = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'paste_repl.py');

async function send(h: AmuxHome, id: string, ...args: string[]): Promise<any> {
  const r = await h.run(['send', id, '--json', ...args]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

async function waitOutput(h: AmuxHome, id: string, regex: string): Promise<void> {
  const r = await h.run(['wait', id, '--until', `output:${regex}`, '--timeout', '30s']);
  assert.equal(r.code, 0, `never saw ${regex} in ${id}:\n${await h.ok(['logs', id])}`);
}

async function tui(h: AmuxHome, ...args: string[]): Promise<string> {
  const id = await h.ok(['run', '--', 'python3', TUI, ...args]);
  await waitOutput(h, id, '^tui ready');
  return id;
}

describe('send submits', { skip: !installed('python3') && 'python3 is not installed: the fixtures are Python programs' }, () => {
  const h = amuxHome({ after });

  test('a prompt with paste-burst detection gets the text submitted, not typed; the receipt says submitted', async () => {
    const id = await tui(h);
    const receipt = await send(h, id, 'hello world');
    assert.equal(receipt.delivered, true);
    assert.equal(receipt.submitted, true);
    assert.equal(receipt.pasted, false);
    await waitOutput(h, id, '^SUBMITTED:hello world$');
    // Multi-line text is one paste and one submission.
    const multi = await send(h, id, 'line one\nline two');
    assert.equal(multi.pasted, true);
    assert.equal(multi.submitted, true);
    await waitOutput(h, id, '^SUBMITTED:line one\\\\nline two$');
    // The API answers the same receipt.
    const api = await h.api('POST', `/v1/sessions/${id}/input`, { text: 'from the api' });
    assert.equal(api.status, 200, JSON.stringify(api.body));
    assert.equal(api.body.submitted, true);
    await waitOutput(h, id, '^SUBMITTED:from the api$');
  });

  test('a prompt that handles its keys late (a lagging event loop) gets the Enter after its echo: submitted', async () => {
    // It reads at once and handles each read 300 ms later, timing the keys then: an Enter timed from
    // the read reaches it within its paste guard and becomes a newline (Gemini CLI under load).
    const id = await tui(h, '--lag-ms', '300');
    for (const text of ['first prompt', 'second prompt']) {
      const receipt = await send(h, id, text);
      assert.equal(receipt.submitted, true);
      await waitOutput(h, id, `^SUBMITTED:${text}$`);
    }
  });

  test('--when idle follow-ups are each submitted, one turn after the other, none lost', async () => {
    const id = await tui(h, '--turn-ms', '1500');
    const first = await send(h, id, 'one');
    assert.equal(first.submitted, true);
    const held = await Promise.all([send(h, id, '--when', 'idle', '--timeout', '60s', 'two'), send(h, id, '--when', 'idle', '--timeout', '60s', 'three')]);
    for (const r of held) assert.equal(r.submitted, true);
    await waitOutput(h, id, '^turn 3 done');
    const log = await h.ok(['logs', id]);
    const submitted = log.split('\n').filter((l) => l.startsWith('SUBMITTED:')).sort();
    assert.deepEqual(submitted, ['SUBMITTED:one', 'SUBMITTED:three', 'SUBMITTED:two'], log);
  });

  test('a program that does not read gets the text, delivered but not submitted, within a bounded time', async () => {
    const id = await h.ok(['run', '--', 'sleep', '100']);
    await h.until(id, (s) => s.status === 'working' && s.reason !== 'input sent');
    const receipt = await send(h, id, 'typed into sleep');
    assert.equal(receipt.delivered, true);
    assert.equal(receipt.submitted, false);
    // The text is in the terminal (the kernel echoes it) all the same.
    await waitOutput(h, id, 'typed into sleep');
    // Without --json, a line on stderr says so; the text was typed all the same (exit 0).
    const plain = await h.run(['send', id, 'once more']);
    assert.equal(plain.code, 0);
    assert.match(plain.stderr, /did not read the Enter within 2 s/);
  });

  test("the session's shell runs the line; the receipt says submitted", async () => {
    const id = await h.ok(['run']);
    assert.equal((await h.run(['wait', id, '--until', 'idle', '--timeout', '30s'])).code, 0);
    const receipt = await send(h, id, 'echo shell-$((6*7))');
    assert.equal(receipt.submitted, true);
    await waitOutput(h, id, '^shell-42$');
    // Without Enter nothing is submitted, and the text waits at the prompt.
    const typed = await send(h, id, '--no-enter', 'echo later-$((1+1))');
    assert.equal(typed.submitted, false);
    assert.equal((await send(h, id, '')).submitted, true);
    await waitOutput(h, id, '^later-2$');
  });

  test('a python REPL, and a REPL that asked for bracketed paste, take each send as one submission', async () => {
    const repl = await h.ok(['run', '--', 'python3', '-q', '-i']);
    await waitOutput(h, repl, '>>> ');
    assert.equal((await send(h, repl, 'print(6 * 7)')).submitted, true);
    await waitOutput(h, repl, '^42$');
    const paste = await h.ok(['run', '--', 'python3', PASTE_REPL]);
    await waitOutput(h, paste, '>>> ');
    const receipt = await send(h, paste, 'x = 20\nprint("x =", x + 1)');
    assert.equal(receipt.submitted, true);
    await waitOutput(h, paste, '^x = 21$');
    assert.match(await h.ok(['logs', paste]), /\[submission 1: 2 lines\]/);
    assert.equal((await send(h, paste, 'print("one line")')).submitted, true);
    await waitOutput(h, paste, '^one line$');
  });
});
