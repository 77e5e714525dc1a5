import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { childrenIndex, cpuPercent, sessionTree, treeTotals, type ProcSample } from '../../src/core/usage.js';
import { pageSize, scanProcesses } from '../../src/process/usage.js';

const proc = (pid: number, ppid: number, sid: number, ticks = 0, rssPages = 0): ProcSample => ({ pid, ppid, sid, ticks, rssPages });

describe('CPU % of a process tree', () => {
  test('ticks over elapsed time, in % of one core (10 ms a tick)', () => {
    assert.equal(cpuPercent({ ticks: 100, at: 1000 }, 150, 1500), 100, '50 ticks = 500 ms in 500 ms');
    assert.equal(cpuPercent({ ticks: 100, at: 1000 }, 125, 2000), 25);
    assert.equal(cpuPercent({ ticks: 0, at: 0 }, 200, 1000), 200, 'two cores busy');
    assert.equal(cpuPercent({ ticks: 10, at: 0 }, 11, 3000), 0.3);
  });

  test('no earlier sample, or no time between: unknown', () => {
    assert.equal(cpuPercent(undefined, 100, 1000), null);
    assert.equal(cpuPercent({ ticks: 1, at: 1000 }, 5, 1000), null);
  });

  test('fewer ticks than before (a process ended unwaited for) count as none', () => {
    assert.equal(cpuPercent({ ticks: 500, at: 0 }, 300, 1000), 0);
  });
});

describe('the processes of a session', () => {
  // 10 timeout (leads session 10) → 11 bash → 12 make → 13 cc; 20 is a job's leftover in session
  // 10 reparented to init; 30 is another session's; 14 did setsid under make.
  const procs = new Map<number, ProcSample>([
    [1, proc(1, 0, 1, 1000, 100)],
    [10, proc(10, 1, 10, 1, 50)],
    [11, proc(11, 10, 10, 5, 1000)],
    [12, proc(12, 11, 10, 7, 2000)],
    [13, proc(13, 12, 10, 40, 3000)],
    [14, proc(14, 12, 14, 2, 500)],
    [20, proc(20, 1, 10, 3, 400)],
    [30, proc(30, 1, 30, 99, 9999)],
  ]);
  const children = childrenIndex(procs.values());

  test('the shell, its descendants (a setsid one too) and what its Unix session left behind; not the leader', () => {
    assert.deepEqual(sessionTree(procs, children, 11).sort((a, b) => a - b), [11, 12, 13, 14, 20]);
  });

  test('a shell that is gone has no tree', () => {
    assert.deepEqual(sessionTree(procs, children, 99), []);
  });

  test('totals: ticks and resident bytes summed', () => {
    assert.deepEqual(treeTotals(procs, [11, 12, 13, 14, 20, 404], 4096), { ticks: 57, rssBytes: 6900 * 4096 });
  });

  test('reading /proc finds this process with its parent, session and memory', () => {
    const all = scanProcesses();
    const me = all.get(process.pid);
    assert.ok(me, 'this process is listed');
    assert.equal(me.ppid, process.ppid);
    assert.ok(me.rssPages * pageSize() > 1024 * 1024, 'node uses more than a MiB');
    assert.ok([4096, 16384, 65536].includes(pageSize()));
  });
});
