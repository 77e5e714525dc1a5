import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AmuxHome } from '../helpers/amux.js';
import { type Agent, type AgentName, installAgentClis, prepareAgent, type Recipe } from './clis.js';
import { AgentSession, idleBetween, type Turn } from './drive.js';
import { DECLARING, NOTIFICATIONS, README_TEXTS } from './recipes.js';

/**
 * The phases of an agent CLI's turns under amux (issue 30, ADR 0051), as node:test tests: start-up,
 * prompt, streaming, tool run, approval dialog, turn end. `todo` names the phases whose fix lives
 * on another branch: they run and report, but do not fail the suite.
 */
export type Phase = 'start-up' | 'prompt' | 'streaming' | 'tool run' | 'approval dialog' | 'turn end' | 'declared';

/** The guide that holds the recipes (`amux help agents`). */
const GUIDE = join(__dirname, '..', '..', '..', 'src', 'guides', 'agents.md');

function opts(todo: Partial<Record<Phase, string>>, phase: Phase): { todo?: string } {
  return todo[phase] ? { todo: todo[phase] } : {};
}

/** A session of one CLI shared by the tests of a describe block; skipped when the CLIs cannot be installed. */
function sessionOf(name: AgentName, recipe: Recipe): { get: () => AgentSession; skip: () => string | null } {
  let s: AgentSession | null = null;
  let why: string | null = null;
  let h: AmuxHome | null = null;
  let agent: Agent | null = null;
  // A start that fails is each test's failure (a todo phase's too, reported as such), not the hook's.
  let startError: unknown = null;
  before(async () => {
    why = installAgentClis();
    if (why) return;
    h = new AmuxHome();
    try {
      agent = await prepareAgent(name, { streamMs: 2500 }, recipe);
      s = new AgentSession(h, agent);
      await s.start();
    } catch (err) {
      startError = err;
    }
  });
  after(async () => {
    await h?.cleanup();
    await agent?.cleanup();
  });
  return {
    get: () => {
      if (startError) throw startError;
      return s!;
    },
    skip: () => why,
  };
}

/** The phases as amux's own evidence sees them (no hooks; the CLI's notification settings on). */
export function evidenceSuite(name: AgentName, todo: Partial<Record<Phase, string>> = {}): void {
  describe(`${name}: what amux sees`, { timeout: 300_000 }, () => {
    const sess = sessionOf(name, NOTIFICATIONS[name]);
    let stream: Turn;

    test('start-up: idle at its prompt, reading the terminal, no attention', opts(todo, 'start-up'), async (t) => {
      if (sess.skip()) return t.skip(sess.skip()!);
      const s = sess.get();
      const w = await s.waitUntil('idle', 0, 20);
      assert.equal(w.code, 0, `never idle at the prompt: ${JSON.stringify(await s.record())}`);
      const r = await s.record();
      assert.equal(r.status, 'idle', `not idle at its prompt: ${JSON.stringify({ status: r.status, reason: r.reason, events: (await s.events()).filter((e) => e.type === 'state_changed').map((e) => `${e.data.to} (${e.data.reason})`) })}`);
      // By evidence, or by the program's own announcement (Codex's OSC 7501 `idle`, ADR 0049).
      assert.match(r.reason, /^reading the terminal$|^declared: /);
      assert.equal(r.attention, null);
    });

    test('prompt: send delivers and submits (the mock API received the prompt)', opts(todo, 'prompt'), async (t) => {
      if (sess.skip()) return t.skip(sess.skip()!);
      stream = await sess.get().prompt('stream');
      assert.equal(stream.receipt.delivered, true);
      assert.ok(stream.submitted, 'the CLI never sent the prompt to its API: the text was typed, not submitted');
      if ('submitted' in stream.receipt) assert.equal(stream.receipt.submitted, true, 'the prompt reached the API, but the receipt says not submitted');
    });

    test('streaming: never idle before the answer\'s last byte; wait --until idle --after RECEIPT returns after it', opts(todo, 'streaming'), async (t) => {
      if (sess.skip()) return t.skip(sess.skip()!);
      const s = sess.get();
      assert.ok(stream?.end, 'the streamed turn never ended');
      const w = await s.waitUntil('idle', stream.receipt.eventId, 20);
      assert.equal(w.code, 0);
      const early = idleBetween(await s.events(), stream.receivedAt, stream.end.lastByteAt);
      assert.deepEqual(early.map((e) => `${e.type} ${JSON.stringify(e.data)} ${stream.end.lastByteAt - e.at} ms before the last byte`), []);
      assert.ok(w.result.event.id > stream.receipt.eventId);
      assert.ok(Date.parse(w.result.event.createdAt) >= stream.end.lastByteAt, `wait returned on ${JSON.stringify(w.result.event)}, before the last byte (${new Date(stream.end.lastByteAt).toISOString()})`);
    });

    test('turn end: idle after the turn, reading the terminal', opts(todo, 'turn end'), async (t) => {
      if (sess.skip()) return t.skip(sess.skip()!);
      const s = sess.get();
      const w = await s.waitUntil('idle', null, 20);
      assert.equal(w.code, 0, `not idle after the turn: ${JSON.stringify(await s.record())}`);
      assert.match(w.result.reason, /reading the terminal|declared/);
    });

    test('tool run: working while the tool runs; wait --until idle --after RECEIPT returns after the turn', opts(todo, 'tool run'), async (t) => {
      if (sess.skip()) return t.skip(sess.skip()!);
      const s = sess.get();
      const turn = await s.prompt('tool');
      assert.ok(turn.end, 'the tool turn never ended');
      const w = await s.waitUntil('idle', turn.receipt.eventId, 20);
      assert.equal(w.code, 0);
      const early = idleBetween(await s.events(), turn.receivedAt, turn.end.lastByteAt);
      assert.deepEqual(early.map((e) => `${e.type} ${JSON.stringify(e.data)} ${turn.end.lastByteAt - e.at} ms before the last byte`), []);
      assert.ok(Date.parse(w.result.event.createdAt) >= turn.end.lastByteAt, `wait returned on ${JSON.stringify(w.result.event)}, before the turn's last byte`);
    });

    test('approval dialog: attention, idle; approved, the turn ends and wait returns after it', opts(todo, 'approval dialog'), async (t) => {
      if (sess.skip()) return t.skip(sess.skip()!);
      const s = sess.get();
      const turn = await s.prompt('approve');
      const a = await s.waitUntil('attention', turn.receipt.eventId, 20);
      assert.equal(a.code, 0, `no attention for the dialog: ${JSON.stringify(await s.record())}`);
      // The dialog waits for a person: idle (a redraw may show `working` for a moment first).
      const idle = await s.waitUntil('idle', null, 20);
      assert.equal(idle.code, 0, `the dialog waits for a person: ${JSON.stringify(await s.record())}`);
      // By evidence, or by the program's own announcement (Codex's OSC 7501 `blocked`, ADR 0049).
      assert.match(idle.result.reason, /^reading the terminal$|^declared: /);
      const done = await s.approve(turn);
      const w = await s.waitUntil('idle', done.cursor, 20);
      // Seen once in a full suite on a loaded machine (124): what the session was, and did, since the approval.
      if (w.code !== 0) assert.fail(`not idle within 20 s of the approved turn (${done.end.lastByteAt - Date.now()} ms from its last byte): ${JSON.stringify(await s.record())}; events since: ${JSON.stringify((await s.events()).filter((e) => e.id > done.cursor))}`);
      assert.ok(Date.parse(w.result.event.createdAt) >= done.end.lastByteAt, 'idle before the approved turn ended');
    });
  });
}

/** The recipe of the agents guide that declares states (Claude Code's hooks; Codex declares its own with OSC 7501), run as written. */
export function recipeSuite(name: 'claude' | 'codex', todo: Partial<Record<Phase, string>> = {}): void {
  describe(`${name}: the agents guide's recipe`, { timeout: 300_000 }, () => {
    const sess = sessionOf(name, DECLARING[name]);

    test('src/guides/agents.md holds the recipes exactly as tested', () => {
      const guide = readFileSync(GUIDE, 'utf8');
      for (const text of README_TEXTS) assert.ok(guide.includes(text), `src/guides/agents.md lacks:\n${text}`);
    });

    test('a turn: submitted, never ready or idle before its last byte, ready after it', opts(todo, 'declared'), async (t) => {
      if (sess.skip()) return t.skip(sess.skip()!);
      const s = sess.get();
      await s.waitUntil('idle', 0, 10).catch(() => undefined);
      const turn = await s.prompt('stream');
      assert.ok(turn.submitted, 'not submitted');
      const w = await s.waitUntil('ready', turn.receipt.eventId, 20);
      assert.equal(w.code, 0, 'never ready');
      assert.ok(Date.parse(w.result.event.createdAt) >= turn.end.lastByteAt, `ready before the turn's last byte: ${JSON.stringify(w.result.event)}`);
      const early = idleBetween(await s.events(), turn.receivedAt, turn.end.lastByteAt);
      assert.deepEqual(early.map((e) => `${e.type} ${JSON.stringify(e.data)}`), []);
    });

    test('approval dialog: waiting (or attention) for the dialog, ready after the approved turn', opts(todo, 'declared'), async (t) => {
      if (sess.skip()) return t.skip(sess.skip()!);
      const s = sess.get();
      const turn = await s.prompt('approve');
      const a = await s.waitUntil('attention', turn.receipt.eventId, 20);
      assert.equal(a.code, 0, 'no attention for the dialog');
      const done = await s.approve(turn);
      const w = await s.waitUntil('ready', done.cursor, 20);
      assert.equal(w.code, 0, 'never ready after the approved turn');
      assert.ok(Date.parse(w.result.event.createdAt) >= done.end.lastByteAt);
    });
  });
}
