import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionRecord } from '../../src/core/records.js';
import type { SessionStatus } from '../../src/core/status.js';
import { openDatabase } from '../../src/store/database.js';
import { Store } from '../../src/store/session-store.js';
import { computeStats, eventCursorFrom, isRemoved, lastEventId, readEvents } from '../../src/store/history.js';
import { NO_ATTENTION } from '../../src/core/attention.js';

const NOW = 1_700_000_000_000;
const MIN = 60_000;
const FROM = NOW - 60 * MIN; // the window: the last hour

interface Spec {
  id: string;
  status: SessionStatus;
  created: number;
  /** endedAt − startedAt; undefined: never started; null: started, not ended. */
  ran?: number | null;
  exitCode?: number;
  removed?: boolean;
}

function record(s: Spec): SessionRecord {
  const startedAt = s.ran === undefined ? null : s.created + 100;
  const endedAt = typeof s.ran === 'number' ? startedAt! + s.ran : s.status === 'stopped' && startedAt === null ? s.created + 50 : null;
  return {
    id: s.id, name: null, status: s.status, command: `cmd ${s.id}`, cwd: '/tmp', exitCode: s.exitCode ?? null, signal: null, error: null, reason: null,
    createdAt: s.created, startedAt, endedAt, lastActivityAt: null, pid: null, paneId: null, nonce: '0badcafe',
    autoRemove: false, removedAt: s.removed ? (endedAt ?? s.created) + 10 : null, lastOutput: null, logBytes: 0, logTruncated: false,
    logChunkBytes: 1024, logCapBytes: 8192, hasCommand: true, timeoutMs: null, idleTimeoutMs: null, closedAt: null,
    labels: {}, restartOf: null, restarts: 0, previousEnd: null, restartPolicy: null, startAfter: null, group: null, after: [], onEnd: null, ...NO_ATTENTION,
  };
}

/** `amux history`: the Store's session list, removed sessions included. */
const history = (store: Store, q: { statuses?: SessionStatus[]; from?: number; limit?: number } = {}) => store.listSessions({ includeRemoved: true, ...q });

function storeWith(specs: Spec[]): { store: Store } {
  const db = openDatabase(':memory:');
  const store = new Store(db);
  for (const s of specs) store.insertSession(record(s));
  return { store };
}

/** In the window: 12 sessions of every status; 2 older ones outside it. */
const SESSIONS: Spec[] = [
  { id: 'a0000001', status: 'completed', created: FROM, ran: 1000, exitCode: 0 }, // exactly at the window's start: in
  { id: 'a0000002', status: 'completed', created: NOW - 50 * MIN, ran: 2000, exitCode: 0 },
  { id: 'a0000003', status: 'completed', created: NOW - 40 * MIN, ran: 3000, exitCode: 0, removed: true },
  { id: 'a0000004', status: 'failed', created: NOW - 30 * MIN, ran: 4000, exitCode: 3 },
  { id: 'a0000005', status: 'failed', created: NOW - 20 * MIN, ran: 10_000, exitCode: 1, removed: true },
  { id: 'a0000006', status: 'stopped', created: NOW - 10 * MIN, ran: 5000 },
  { id: 'a0000007', status: 'expired', created: NOW - 9 * MIN, ran: 60_000 },
  { id: 'a0000008', status: 'stopped', created: NOW - 8 * MIN }, // stopped while pending: never started, no duration
  { id: 'a0000009', status: 'working', created: NOW - 7 * MIN, ran: null },
  { id: 'a0000010', status: 'idle', created: NOW - 6 * MIN, ran: null },
  { id: 'a0000011', status: 'paused', created: NOW - 5 * MIN, ran: null },
  { id: 'a0000012', status: 'pending', created: NOW - 4 * MIN },
  { id: 'b0000001', status: 'failed', created: FROM - 1, ran: 999_999, exitCode: 2, removed: true },
  { id: 'b0000002', status: 'completed', created: NOW - 600 * MIN, ran: 5, exitCode: 0 },
];

describe('history store: stats', () => {
  const { store } = storeWith(SESSIONS);
  const ev = (sessionId: string, type: string, createdAt: number) => store.addEvent({ sessionId, jobId: null, type, data: {}, createdAt });
  ev('b0000001', 'state_changed', FROM - 5); // outside
  ev('b0000001', 'session_removed', FROM - 1); // outside
  ev('a0000001', 'session_created', FROM); // in, at the edge
  ev('a0000001', 'state_changed', FROM + 1);
  ev('a0000004', 'state_changed', NOW - 30 * MIN);
  ev('a0000004', 'job_finished', NOW - 30 * MIN);
  ev('b0000002', 'session_removed', NOW - MIN); // an old session removed lately: the event is in the window

  test('counts every status (zeros too), total and terminal sessions created in the window', () => {
    const s = computeStats(store, FROM);
    assert.deepEqual(s.byStatus, { pending: 1, working: 1, idle: 1, paused: 1, completed: 3, failed: 2, stopped: 2, expired: 1 });
    assert.equal(s.total, 12);
    assert.equal(s.terminal, 8);
    assert.equal(s.from, FROM);
  });

  test('average and nearest-rank p95 duration over the sessions that started and ended', () => {
    const s = computeStats(store, FROM);
    assert.equal(s.durationCount, 7); // not the stopped-while-pending one, not the live ones
    assert.equal(s.avgDurationMs, Math.round((1000 + 2000 + 3000 + 4000 + 10_000 + 5000 + 60_000) / 7));
    assert.equal(s.p95DurationMs, 60_000); // rank ceil(0.95 * 7) = 7: the longest
  });

  test('failure and expiry rates are over terminal sessions', () => {
    const s = computeStats(store, FROM);
    assert.equal(s.failureRate, 2 / 8);
    assert.equal(s.expiryRate, 1 / 8);
  });

  test('events per type are those written in the window, whatever the session', () => {
    const s = computeStats(store, FROM);
    assert.deepEqual(s.eventsByType, { job_finished: 1, session_created: 1, session_removed: 1, state_changed: 2 });
    assert.equal(s.eventsTotal, 5);
  });

  test('a wider window takes the older sessions and events in', () => {
    const s = computeStats(store, 0);
    assert.equal(s.total, 14);
    assert.equal(s.byStatus.failed, 3);
    assert.equal(s.byStatus.completed, 4);
    assert.equal(s.durationCount, 9);
    assert.equal(s.p95DurationMs, 999_999);
    assert.equal(s.failureRate, 3 / 10);
    assert.equal(s.eventsTotal, 7);
  });

  test('an empty window: zeros, and null durations and rates', () => {
    const s = computeStats(store, NOW + 1);
    assert.equal(s.total, 0);
    assert.deepEqual(Object.values(s.byStatus), [0, 0, 0, 0, 0, 0, 0, 0]);
    assert.equal(s.terminal, 0);
    assert.equal(s.durationCount, 0);
    assert.equal(s.avgDurationMs, null);
    assert.equal(s.p95DurationMs, null);
    assert.equal(s.failureRate, null);
    assert.equal(s.expiryRate, null);
    assert.deepEqual(s.eventsByType, {});
  });

  test('rates are null while no session has ended, durations too', () => {
    const { store: live } = storeWith([{ id: 'c0000001', status: 'working', created: NOW, ran: null }, { id: 'c0000002', status: 'pending', created: NOW }]);
    const s = computeStats(live, FROM);
    assert.equal(s.total, 2);
    assert.equal(s.failureRate, null);
    assert.equal(s.expiryRate, null);
    assert.equal(s.p95DurationMs, null);
  });
});

describe('history store: p95 is the nearest rank', () => {
  // Durations 1 s … n s: the p95 is the ceil(0.95·n)-th of them.
  for (const [n, rank] of [[1, 1], [19, 19], [20, 19], [21, 20], [40, 38], [100, 95], [101, 96]] as const) {
    test(`n = ${n}: the ${rank}th smallest`, () => {
      // Inserted in a shuffled order, so that the answer comes from ORDER BY, not insertion order.
      const specs: Spec[] = Array.from({ length: n }, (_, i) => ({
        id: `d${String(i).padStart(7, '0')}`, status: 'completed' as const, created: NOW, ran: (((i * 11) % n) + 1) * 1000, exitCode: 0,
      }));
      const { store } = storeWith(specs);
      const s = computeStats(store, FROM);
      assert.equal(s.durationCount, n);
      assert.equal(s.p95DurationMs, rank * 1000);
      assert.equal(s.avgDurationMs, Math.round(((n + 1) / 2) * 1000));
    });
  }
});

describe('history store: history', () => {
  const { store } = storeWith(SESSIONS);
  const ids = (list: SessionRecord[]) => list.map((s) => s.id);

  test('every session, removed ones included, newest first', () => {
    const all = history(store);
    assert.equal(all.length, 14);
    assert.deepEqual(ids(all).slice(0, 3), ['a0000012', 'a0000011', 'a0000010']);
    assert.deepEqual(ids(all).slice(-2), ['b0000001', 'b0000002']);
    const removed = all.find((s) => s.id === 'a0000005')!;
    assert.equal(removed.exitCode, 1);
    assert.ok(removed.removedAt !== null);
    assert.equal(removed.autoRemove, false); // rows mapped to records like listSessions
  });

  test('filters by status and window, and limits', () => {
    assert.deepEqual(ids(history(store, { statuses: ['failed'] })), ['a0000005', 'a0000004', 'b0000001']);
    assert.deepEqual(ids(history(store, { statuses: ['failed', 'expired'], from: FROM })), ['a0000007', 'a0000005', 'a0000004']);
    assert.deepEqual(ids(history(store, { from: NOW - 6 * MIN })), ['a0000012', 'a0000011', 'a0000010']);
    assert.deepEqual(ids(history(store, { limit: 2 })), ['a0000012', 'a0000011']);
    assert.deepEqual(ids(history(store, { limit: 0 })), []);
    assert.equal(history(store, { from: FROM }).length, 12);
  });

  test('sessions created in the same millisecond: the later one first', () => {
    const { store: same } = storeWith([{ id: 'e0000002', status: 'pending', created: NOW }, { id: 'e0000001', status: 'pending', created: NOW }]);
    assert.deepEqual(ids(history(same)), ['e0000001', 'e0000002']);
  });
});

describe('history store: event cursor', () => {
  const { store } = storeWith(SESSIONS.slice(0, 3));
  const [A, B, C] = ['a0000001', 'a0000002', 'a0000003'];
  // 12 events, alternating sessions A and B, one minute apart, ending at NOW.
  for (let i = 0; i < 12; i++) {
    store.addEvent({ sessionId: i % 2 ? B : A, jobId: i % 2 ? `job-${B}-1` : null, type: `t${i}`, data: { i }, createdAt: NOW - (11 - i) * MIN });
  }

  test('reads in id order from a cursor, page by page, losing nothing', () => {
    assert.equal(lastEventId(store), 12);
    const seen: number[] = [];
    let after = 0;
    for (;;) {
      const page = readEvents(store, { afterId: after, limit: 5 });
      if (page.length === 0) break;
      seen.push(...page.map((e) => e.id));
      after = page[page.length - 1]!.id;
    }
    assert.deepEqual(seen, Array.from({ length: 12 }, (_, i) => i + 1));
  });

  test('events are mapped whole: job id, type, data, time', () => {
    const [e] = readEvents(store, { afterId: 1, limit: 1 });
    assert.deepEqual(e, { id: 2, sessionId: B, jobId: `job-${B}-1`, type: 't1', data: { i: 1 }, createdAt: NOW - 10 * MIN });
  });

  test('one session only, a time window, and a snapshot bound', () => {
    assert.deepEqual(readEvents(store, { afterId: 0, sessionId: B, limit: 100 }).map((e) => e.data.i), [1, 3, 5, 7, 9, 11]);
    assert.deepEqual(readEvents(store, { afterId: 0, from: NOW - 2 * MIN, limit: 100 }).map((e) => e.data.i), [9, 10, 11]);
    assert.deepEqual(readEvents(store, { afterId: 4, sessionId: A, untilId: 9, limit: 100 }).map((e) => e.id), [5, 7, 9]);
    assert.deepEqual(readEvents(store, { afterId: 0, sessionId: C, limit: 100 }), []);
  });

  test('a cursor for a window starts just before its first event', () => {
    assert.equal(eventCursorFrom(store, NOW - 2 * MIN), 9);
    assert.equal(eventCursorFrom(store, 0), 0);
    assert.equal(eventCursorFrom(store, NOW + 1), 12); // nothing that recent: after the newest
  });

  test('removed sessions; one without a row (deleted by historyRetention) counts as removed', () => {
    assert.equal(isRemoved(store, C), true);
    assert.equal(isRemoved(store, A), false);
    assert.equal(isRemoved(store, 'ffffffff'), true);
  });
});
