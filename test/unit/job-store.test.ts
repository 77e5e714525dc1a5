import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JobRecord, SessionRecord } from '../../src/core/records.js';
import { jobId } from '../../src/core/ids.js';
import { openDatabase, type Db } from '../../src/store/database.js';
import { Store } from '../../src/store/session-store.js';
import { NO_ATTENTION } from '../../src/core/attention.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { sessionsIn } from '../../src/store/snapshot.js';

function session(id: string, createdAt = 1_700_000_000_000): SessionRecord {
  return {
    id, name: null, status: 'idle', command: null, cwd: '/tmp', exitCode: null, signal: null, error: null, reason: null,
    createdAt, startedAt: createdAt, endedAt: null, lastActivityAt: null, pid: 4242, paneId: '%1', nonce: '0badcafe',
    autoRemove: false, removedAt: null, lastOutput: null, logBytes: 0, logTruncated: false,
    logChunkBytes: 1024, logCapBytes: 8192, hasCommand: false, timeoutMs: null, idleTimeoutMs: null, closedAt: null,
    labels: {}, restartOf: null, restarts: 0, previousEnd: null, restartPolicy: null, startAfter: null, group: null, after: [], onEnd: null, ...NO_ATTENTION,
  };
}

function job(sessionId: string, seq: number, over: Partial<JobRecord> = {}): JobRecord {
  return {
    id: jobId(sessionId, seq), sessionId, seq, command: `echo ${seq}`, background: false, status: 'running',
    exitCode: null, signal: null, pid: null, startedAt: 1_700_000_000_000 + seq, endedAt: null, tty: false,
    timeoutMs: null, error: null, stdoutBytes: 0, stderrBytes: 0, stdoutTruncated: false, stderrTruncated: false,
    ...over,
  };
}

describe('Store: jobs', () => {
  let dir: string;
  let db: Db;
  let store: Store;
  const A = 'aaaa0001';
  const B = 'bbbb0002';

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'amux-job-store-'));
    db = openDatabase(join(dir, 'amux.db'));
    store = new Store(db);
    store.insertSession(session(A));
    store.insertSession(session(B));
  });

  after(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the migrations ran: schema version = their number', () => {
    assert.equal(db.pragma('user_version', { simple: true }), MIGRATIONS.length);
    assert.ok(MIGRATIONS.length >= 5);
  });

  test('nextJobSeq: 1 for a session without jobs, then max+1, never reused', () => {
    assert.equal(store.nextJobSeq(A), 1);
    assert.equal(store.nextJobSeq('ffffffff'), 1, 'an unknown session too');
    store.insertJob(job(A, 1));
    assert.equal(store.nextJobSeq(A), 2);
    assert.equal(store.nextJobSeq(B), 1, "another session's jobs do not count");
    store.insertJob(job(A, 2));
    store.insertJob(job(A, 5));
    assert.equal(store.nextJobSeq(A), 6, 'max+1, not count+1');
    // A job that ended keeps its number taken.
    store.updateJob(jobId(A, 5), { status: 'completed', exitCode: 0, endedAt: 1_700_000_100_000 });
    assert.equal(store.nextJobSeq(A), 6);
    assert.throws(() => store.insertJob(job(A, 5, { id: 'job-aaaa0001-5b' })), /UNIQUE/, 'a seq cannot be used twice in a session');
  });

  test('insertJob then getJob gives the same record back', () => {
    const j = job(B, 1, {
      command: "printf '%s' \"$HOME\"", background: true, tty: false, timeoutMs: 5000, pid: 123, stdoutBytes: 10, stderrBytes: 0,
    });
    store.insertJob(j);
    assert.deepEqual(store.getJob(j.id), j);
    const t = job(B, 2, { tty: true, stdoutBytes: null, stderrBytes: null, stdoutTruncated: true, stderrTruncated: true });
    store.insertJob(t);
    assert.deepEqual(store.getJob(t.id), t);
  });

  test('getJob: null for an unknown id', () => {
    assert.equal(store.getJob('job-aaaa0001-999'), null);
    assert.equal(store.getJob(''), null);
  });

  test('updateJob: a partial patch changes only its fields; booleans are stored and read back', () => {
    const id = jobId(A, 2);
    const before = store.getJob(id)!;
    store.updateJob(id, { stdoutBytes: 2048, stdoutTruncated: true });
    const mid = store.getJob(id)!;
    assert.deepEqual(mid, { ...before, stdoutBytes: 2048, stdoutTruncated: true });
    assert.equal(mid.stdoutTruncated, true);
    assert.equal(mid.stderrTruncated, false);
    store.updateJob(id, { stdoutTruncated: false, stderrTruncated: true });
    assert.deepEqual(store.getJob(id), { ...before, stdoutBytes: 2048, stdoutTruncated: false, stderrTruncated: true });
    store.updateJob(id, { status: 'killed', signal: 'SIGTERM', exitCode: 124, endedAt: 1_700_000_200_000, error: 'timed out', pid: 99 });
    assert.deepEqual(store.getJob(id), {
      ...before, stdoutBytes: 2048, stdoutTruncated: false, stderrTruncated: true,
      status: 'killed', signal: 'SIGTERM', exitCode: 124, endedAt: 1_700_000_200_000, error: 'timed out', pid: 99,
    });
    // the raw row holds 0/1 for booleans
    const raw = db.prepare('SELECT stdout_truncated, stderr_truncated FROM jobs WHERE id = ?').get(id);
    assert.deepEqual(raw, { stdout_truncated: 0, stderr_truncated: 1 });
  });

  test('updateJob: fields that never change (id, session, seq, command, mode) are ignored; an empty patch is a no-op', () => {
    const id = jobId(A, 1);
    const before = store.getJob(id)!;
    store.updateJob(id, { seq: 77, sessionId: B, command: 'rm -rf /', background: true, tty: true, startedAt: 1 } as Partial<JobRecord>);
    assert.deepEqual(store.getJob(id), before);
    store.updateJob(id, {});
    assert.deepEqual(store.getJob(id), before);
    store.updateJob('job-ffffffff-1', { status: 'failed' });
    assert.equal(store.getJob('job-ffffffff-1'), null);
  });

  test('updateJob: null clears a value', () => {
    const id = jobId(B, 1);
    assert.equal(store.getJob(id)!.pid, 123);
    store.updateJob(id, { pid: null, stdoutBytes: null });
    const j = store.getJob(id)!;
    assert.equal(j.pid, null);
    assert.equal(j.stdoutBytes, null);
  });

  describe('listJobs and runningJobs', () => {
    const C = 'cccc0003';
    before(() => {
      store.insertSession(session(C));
      store.insertJob(job(C, 1, { status: 'completed', exitCode: 0, tty: true }));
      store.insertJob(job(C, 2, { status: 'running', background: true, pid: 11 }));
      store.insertJob(job(C, 3, { status: 'failed', exitCode: 2 }));
      store.insertJob(job(C, 4, { status: 'running', background: true, pid: 12 }));
      store.insertJob(job(C, 5, { status: 'killed', background: true, signal: 'SIGKILL' }));
      store.insertJob(job(C, 6, { status: 'running' }));
    });
    const seqs = (jobs: JobRecord[]) => jobs.map((j) => j.seq);

    test('newest first, only the session asked for', () => {
      const all = store.listJobs(C);
      assert.deepEqual(seqs(all), [6, 5, 4, 3, 2, 1]);
      assert.ok(all.every((j) => j.sessionId === C));
      assert.deepEqual(store.listJobs('ffffffff'), []);
    });

    test('by status', () => {
      assert.deepEqual(seqs(store.listJobs(C, { statuses: ['running'] })), [6, 4, 2]);
      assert.deepEqual(seqs(store.listJobs(C, { statuses: ['failed', 'killed'] })), [5, 3]);
    });

    test('background only, or foreground only', () => {
      assert.deepEqual(seqs(store.listJobs(C, { background: true })), [5, 4, 2]);
      assert.deepEqual(seqs(store.listJobs(C, { background: false })), [6, 3, 1]);
    });

    test('limit, applied after the other filters', () => {
      assert.deepEqual(seqs(store.listJobs(C, { limit: 2 })), [6, 5]);
      assert.deepEqual(seqs(store.listJobs(C, { limit: 0 })), []);
      assert.deepEqual(seqs(store.listJobs(C, { limit: 100 })), [6, 5, 4, 3, 2, 1]);
      assert.deepEqual(seqs(store.listJobs(C, { statuses: ['running'], background: true, limit: 1 })), [4]);
    });

    test('the rows are whole records', () => {
      const [j4] = store.listJobs(C, { statuses: ['running'], background: true, limit: 1 });
      assert.deepEqual(j4, job(C, 4, { status: 'running', background: true, pid: 12 }));
    });

    test('runningJobs: the running jobs of every session', () => {
      const running = store.runningJobs();
      assert.ok(running.every((j) => j.status === 'running'));
      const ids = running.map((j) => j.id).sort();
      // A2 was killed and A5 completed by the tests above; C1, C3, C5 never ran.
      const expected = [jobId(A, 1), jobId(B, 1), jobId(B, 2), jobId(C, 2), jobId(C, 4), jobId(C, 6)].sort();
      assert.deepEqual(ids, expected);
      store.updateJob(jobId(C, 6), { status: 'completed', exitCode: 0 });
      assert.ok(!store.runningJobs().some((j) => j.id === jobId(C, 6)));
      assert.equal(store.runningJobs().length, expected.length - 1);
    });
  });
});

describe('Store: reads remembered while nothing was written (ADR 0041)', () => {
  let dir: string;
  let db: Db;
  let store: Store;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'amux-remembered-'));
    db = openDatabase(join(dir, 'amux.db'));
    store = new Store(db);
    store.insertSession(session('cccc0003'));
  });

  after(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('sessionsIn reads once, then from memory, and again after any write (also one rolled back)', () => {
    let reads = 0;
    const counted = () => {
      reads++;
      return sessionsIn(store, ['idle']);
    };
    const first = counted();
    assert.equal(first.length, 1);
    assert.ok(Object.isFrozen(first[0]), 'shared rows are frozen');
    assert.equal(sessionsIn(store, ['idle']), first, 'nothing written: the same rows');
    assert.equal(reads, 1);
    store.updateSession('cccc0003', { status: 'working' });
    assert.deepEqual(sessionsIn(store, ['idle']), [], 'a write: read again');
    assert.equal(sessionsIn(store, ['working'])[0]!.id, 'cccc0003');
    const before = sessionsIn(store, ['working']);
    assert.throws(() => store.tx(() => {
      store.updateSession('cccc0003', { status: 'idle' });
      throw new Error('undo');
    }));
    const again = sessionsIn(store, ['working']);
    assert.notEqual(again, before, 'a write rolled back: read again');
    assert.equal(again[0]!.status, 'working', 'as the rollback left it');
  });

  test('remembered: inside a transaction it always reads, and keeps nothing', () => {
    let reads = 0;
    const read = () => ++reads;
    const outside = store.remembered('count', read);
    assert.equal(store.remembered('count', read), outside);
    store.tx(() => {
      assert.equal(store.remembered('count', read), outside + 1);
      assert.equal(store.remembered('count', read), outside + 2);
    });
    assert.equal(store.remembered('count', read), outside, 'what the transaction read was not kept');
    store.updateSession('cccc0003', { reason: 'x' });
    assert.equal(store.remembered('count', read), outside + 3);
  });
});
