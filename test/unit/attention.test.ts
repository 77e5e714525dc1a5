import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  activeDeclaration, ATTENTION_SETTLE_MS, declaredReason, NO_ATTENTION, outputClears, overDeclared, type AttentionFields,
} from '../../src/core/attention.js';
import { parseUntil } from '../../src/core/until.js';
import { markedStatus } from '../../src/cli/marks.js';
import { sortSessions } from '../../src/cli/top/model.js';
import type { SessionView } from '../../src/protocol/sessions.js';

const NOW = 1_800_000_000_000;
const fields = (over: Partial<AttentionFields>): AttentionFields => ({ ...NO_ATTENTION, ...over });

describe('declared states', () => {
  test('a declaration wins over the evidence: waiting and ready are idle, working is working; the reason says declared', () => {
    const waiting = fields({ declaredState: 'waiting', declaredMessage: 'approve: edit src/x.ts?', declaredAt: NOW });
    assert.deepEqual(overDeclared('working', waiting, { status: 'working', reason: 'output changed' }, NOW),
      { status: 'idle', reason: 'declared: approve: edit src/x.ts?' });
    const working = fields({ declaredState: 'working', declaredAt: NOW });
    assert.deepEqual(overDeclared('idle', working, { status: 'idle', reason: 'reading the terminal' }, NOW), { status: 'working', reason: 'declared: working' });
    const ready = fields({ declaredState: 'ready', declaredAt: NOW });
    assert.equal(overDeclared('working', ready, { status: 'working', reason: 'cpu' }, NOW).status, 'idle');
  });

  test('ends, pauses and a lapsed TTL pass the decision through', () => {
    const f = fields({ declaredState: 'working', declaredAt: NOW, declaredUntil: NOW + 1000 });
    const end = { status: 'completed' as const, reason: 'command exited', exitCode: 0 };
    assert.deepEqual(overDeclared('idle', f, end, NOW), end);
    assert.deepEqual(overDeclared('paused', f, { status: 'idle', reason: 'x' }, NOW), { status: 'idle', reason: 'x' });
    assert.equal(activeDeclaration(f, NOW + 999), 'working');
    assert.equal(activeDeclaration(f, NOW + 1000), null);
    assert.deepEqual(overDeclared('working', f, { status: 'idle', reason: 'x' }, NOW + 1000), { status: 'idle', reason: 'x' });
  });

  test('the reason without a message names the state', () => {
    assert.equal(declaredReason({ declaredState: 'ready', declaredMessage: null }), 'declared: ready');
  });
});

describe('attention cleared by output', () => {
  test('only printable output, at least the settle time after the signal, and never a declared waiting', () => {
    const bell = fields({ attentionAt: NOW, attentionSource: 'bell' });
    assert.equal(outputClears(bell, true, NOW + ATTENTION_SETTLE_MS), true);
    assert.equal(outputClears(bell, true, NOW + ATTENTION_SETTLE_MS - 1), false);
    assert.equal(outputClears(bell, false, NOW + 60_000), false);
    assert.equal(outputClears(fields({ attentionAt: NOW, attentionSource: 'declared' }), true, NOW + 60_000), false);
    assert.equal(outputClears(fields({}), true, NOW + 60_000), false);
    const bellWhileWaiting = fields({ attentionAt: NOW, attentionSource: 'bell', declaredState: 'waiting', declaredAt: NOW });
    assert.equal(outputClears(bellWhileWaiting, true, NOW + 60_000), false);
  });
});

describe('--until attention, waiting, ready', () => {
  test('are parsed; the error lists them', () => {
    for (const k of ['attention', 'waiting', 'ready'] as const) assert.deepEqual(parseUntil(k), { kind: k });
    assert.deepEqual(parseUntil('started'), { kind: 'started' });
    assert.throws(() => parseUntil('needs-you'), /attention, waiting, ready/);
  });
});

describe('what needs a person first (top, ps)', () => {
  const view = (id: string, over: Record<string, unknown>) => ({
    id, name: null, status: 'working', command: 'x', cwd: '/', exitCode: null, signal: null, error: null, reason: null, pid: 1,
    logBytes: 0, logTruncated: false, autoRemove: false, timeoutMs: null, idleTimeoutMs: null, createdAt: '2026-01-01T00:00:00.000Z',
    startedAt: null, endedAt: null, durationMs: 0, lastActivityAt: null, removed: false, removedAt: null, closedAt: null, foreground: null,
    attention: null, declared: null, ...over,
  }) as SessionView;
  const asks = (at: string) => ({ at, source: 'bell' as const, title: null, message: null });

  test('sessions that ask come first, the longest waiting first; then live, then finished', () => {
    const order = sortSessions([
      view('done', { status: 'completed', createdAt: '2026-01-03T00:00:00.000Z' }),
      view('live', { createdAt: '2026-01-02T00:00:00.000Z' }),
      view('late', { status: 'idle', attention: asks('2026-01-01T00:00:09.000Z') }),
      view('early', { status: 'idle', attention: asks('2026-01-01T00:00:01.000Z') }),
    ]).map((s) => s.id);
    assert.deepEqual(order, ['early', 'late', 'live', 'done']);
  });

  test('the status is marked with ! when it asks', () => {
    assert.equal(markedStatus(view('a', { status: 'idle', attention: asks('2026-01-01T00:00:00.000Z') })), 'idle!');
    assert.equal(markedStatus(view('b', { status: 'idle' })), 'idle');
  });
});
