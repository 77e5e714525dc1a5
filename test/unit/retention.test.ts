import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { SessionRecord } from '../../src/core/records.js';
import { resolveSettings } from '../../src/core/settings.js';
import { createContext, type DaemonContext } from '../../src/daemon/context.js';
import { Retention } from '../../src/daemon/session/retention.js';
import { amuxPaths, sessionPaths } from '../../src/paths.js';
import { NO_ATTENTION } from '../../src/core/attention.js';

const DAY = 86_400_000;
const NOW = 1_800_000_000_000;

function session(id: string, over: Partial<SessionRecord>): SessionRecord {
  return {
    id, name: null, status: 'completed', command: 'true', cwd: '/tmp', exitCode: 0, signal: null, error: null, reason: null,
    createdAt: NOW - 40 * DAY, startedAt: NOW - 40 * DAY, endedAt: NOW - 40 * DAY, lastActivityAt: null, pid: null, paneId: null,
    nonce: '0badcafe', autoRemove: false, removedAt: null, lastOutput: null, logBytes: 0, logTruncated: false,
    logChunkBytes: 1024, logCapBytes: 8192, hasCommand: true, timeoutMs: null, idleTimeoutMs: null, closedAt: null,
    labels: {}, restartOf: null, restarts: 0, previousEnd: null, restartPolicy: null, startAfter: null, group: null, after: [], onEnd: null, ...NO_ATTENTION, ...over,
  };
}

/** A store with sessions of known ages, their files, and no tmux server (nothing to close there). */
function setup(env: Record<string, string> = {}): { ctx: DaemonContext; retention: Retention } {
  const home = mkdtempSync('/tmp/amux-ret-');
  homes.push(home);
  const ctx = createContext(amuxPaths(home), resolveSettings({}, env));
  const add = (s: SessionRecord) => {
    ctx.store.tx(() => {
      ctx.store.insertSession(s);
      ctx.store.addEvent({ sessionId: s.id, jobId: null, type: 'session_created', data: {}, createdAt: s.createdAt });
    });
    if (!s.removedAt) {
      mkdirSync(sessionPaths(ctx.paths, s.id).logDir, { recursive: true });
      writeFileSync(join(ctx.paths.exitsDir, `${s.id}.1`), '0\n');
    }
  };
  add(session('0000000a', {})); // ended 40 days ago: deleted
  add(session('0000000b', { removedAt: NOW - 39 * DAY })); // removed, ended 40 days ago: deleted
  add(session('0000000c', { endedAt: NOW - 2 * DAY, createdAt: NOW - 2 * DAY })); // 2 days: closed, kept
  add(session('0000000d', { endedAt: NOW - 10 * 60_000 })); // 10 minutes: neither
  add(session('0000000e', { status: 'working', exitCode: null, endedAt: null })); // live, 40 days old: kept
  add(session('0000000f', { status: 'pending', exitCode: null, startedAt: null, endedAt: null })); // queued: kept
  return { ctx, retention: new Retention(ctx) };
}

const homes: string[] = [];
after(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

describe('Retention.sweep', () => {
  test('historyRetention deletes finished sessions (removed or not) with their jobs, events and files; live and pending stay', async () => {
    const { ctx, retention } = setup();
    await retention.sweep(NOW);
    const ids = ctx.store.listSessions({ includeRemoved: true }).map((s) => s.id).sort();
    assert.deepEqual(ids, ['0000000c', '0000000d', '0000000e', '0000000f']);
    assert.equal(ctx.store.listEvents('0000000a').length, 0, 'events deleted');
    assert.equal(ctx.store.listEvents('0000000c').length, 1, 'events of kept sessions stay');
    assert.ok(!existsSync(sessionPaths(ctx.paths, '0000000a').dir));
    assert.ok(!existsSync(join(ctx.paths.exitsDir, '0000000a.1')));
    assert.ok(existsSync(sessionPaths(ctx.paths, '0000000c').dir), 'a closed session keeps its files');
    assert.ok(existsSync(join(ctx.paths.exitsDir, '0000000c.1')));
  });

  test('finishedTtl marks sessions that ended longer ago as closed; younger and live ones are left', async () => {
    const { ctx, retention } = setup();
    await retention.sweep(NOW);
    const closed = (id: string) => ctx.store.getSession(id)!.closedAt !== null;
    assert.deepEqual(['0000000c', '0000000d', '0000000e', '0000000f'].map(closed), [true, false, false, false]);
    await retention.sweep(NOW + 31 * 60_000);
    assert.equal(closed('0000000d'), true, 'past the 30m default');
  });

  test('settings move the lines: a 3-day history keeps the 2-day-old session; a 1-minute one deletes it', async () => {
    const three = setup({ AMUX_HISTORY_RETENTION: '3d' });
    await three.retention.sweep(NOW);
    assert.ok(three.ctx.store.getSession('0000000c'));
    const minute = setup({ AMUX_HISTORY_RETENTION: '1m' });
    await minute.retention.sweep(NOW);
    assert.equal(minute.ctx.store.getSession('0000000c'), null);
    assert.equal(minute.ctx.store.getSession('0000000d'), null, 'ended 10 minutes ago');
    assert.ok(minute.ctx.store.getSession('0000000e'), 'live sessions are never deleted');
  });

  test('a sweep twice in a row deletes nothing more and fails nothing', async () => {
    const { ctx, retention } = setup();
    await Promise.all([retention.sweep(NOW), retention.sweep(NOW)]);
    await retention.sweep(NOW);
    assert.equal(ctx.store.listSessions({ includeRemoved: true }).length, 4);
  });
});
