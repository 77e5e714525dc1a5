import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { amuxHome, BIN } from '../helpers/amux.js';

/** Issue 31's small truths (src/guides/statuses.md, ADR 0016, ADR 0034): what wait, kill and state say. */
describe('wait --json, kill and state say what the record says', () => {
  const h = amuxHome({ after });
  const events = async (ref: string): Promise<any[]> => (await h.ok(['events', ref])).split('\n').filter(Boolean).map((l) => JSON.parse(l));

  test("wait --json's reason is the record's (serving, not the last change's 'started')", async () => {
    const id = await h.ok(['run', '-n', 'srv', '--', `node -e 'require("http").createServer((q, r) => r.end("x")).listen(0, "127.0.0.1")'`]);
    const s = await h.until(id, (x) => x.reason === 'serving', 60_000);
    assert.equal(s.status, 'working');
    const [w] = await h.json<any[]>(['wait', id, '--until', 'working']);
    assert.equal(w.reached, true);
    assert.equal(w.reason, 'serving', 'the reason ps and inspect give');
    assert.equal(w.event.reason, 'started', "the event keeps the change's own reason");
    await h.ok(['kill', id]);
  });

  test("kill's reason names the command's own exit when it answered TERM with one", async () => {
    const id = await h.ok(['run', '-n', 'trap42', '--', `node -e 'process.on("SIGTERM", () => process.exit(42)); setInterval(() => {}, 1000)'`]);
    await h.until(id, (x) => x.status === 'working' && x.foreground === 'node');
    await h.ok(['kill', id]);
    const s = await h.until(id, (x) => x.status === 'stopped');
    assert.equal(s.exitCode, 143, 'ended by amux SIGTERM: 128+15, as wait exits (ADR 0016)');
    assert.equal(s.reason, 'killed with SIGTERM (the command exited with 42)');
  });

  test('a shell loop still ends with kill (its shell is signalled once the step it ran is gone)', async () => {
    const id = await h.ok(['run', '-n', 'loop', '--', 'while true; do sleep 1; done']);
    await h.until(id, (x) => x.status === 'working' && x.foreground === 'sleep');
    await h.ok(['kill', id]);
    const s = await h.until(id, (x) => x.status === 'stopped');
    assert.equal(s.reason, 'killed with SIGTERM');
  });

  test("amux state from a one-line run: the declaration is the session command's, and ends with it (declaration_ended)", async () => {
    const bin = `'${BIN.replace(/'/g, `'\\''`)}'`;
    const id = await h.ok(['run', '-n', 'oneliner', '--', `${bin} state working -m building; read -r line; exit 3`]);
    // Held after `amux state` itself ended, while the rest of the line runs.
    const held = await h.until(id, (x) => x.declared !== null);
    assert.equal(held.status, 'working');
    assert.equal(held.declared.state, 'working');
    await h.until(id, (x) => x.status === 'working' && x.declared !== null && !/amux|node/.test(x.foreground ?? ''));
    assert.equal((await h.session(id)).reason, 'declared: building', 'still declared once amux state has ended');
    await h.ok(['send', id, 'go']);
    const s = await h.until(id, (x) => x.status === 'failed');
    assert.equal(s.exitCode, 3);
    // The send ended it as input (ADR 0034); a declaration still in force at the end gets its own end.
    const ended = (await events(id)).filter((e) => e.type === 'declaration_ended');
    assert.deepEqual(ended.map((e) => e.data.why), ['input']);
  });

  test('a declaration in force when the session ends gets its declaration_ended', async () => {
    const bin = `'${BIN.replace(/'/g, `'\\''`)}'`;
    const id = await h.ok(['run', '-n', 'ends', '--', `${bin} state waiting -m 'look at me'; sleep 2; exit 0`]);
    const s = await h.until(id, (x) => x.status === 'completed', 60_000);
    assert.equal(s.declared, null);
    const ev = await events(id);
    const declared = ev.findIndex((e) => e.type === 'state_declared');
    const ended = ev.findIndex((e) => e.type === 'declaration_ended');
    assert.ok(declared >= 0 && ended > declared, JSON.stringify(ev.map((e) => e.type)));
    assert.deepEqual(ev[ended].data, { state: 'waiting', why: 'session ended' });
    const cleared = ev.find((e) => e.type === 'attention_cleared');
    assert.equal(cleared?.data.by, 'session ended', 'its attention ends with it');
  });
});
