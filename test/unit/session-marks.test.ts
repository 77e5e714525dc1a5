import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { childrenOf, isAlive as isAliveNow, procStat, sessionMembers, sessionOf, STAT } from '../../src/process/process-table.js';
import { readProc } from '../../src/process/proc-read.js';
import { pidRange, ProcessIndex } from '../../src/process/process-index.js';
import { markOf, newPids, sessionTree, ticksAt } from '../../src/process/session-marks.js';

const env = (...vars: string[]) => `${vars.join('\0')}\0`;

describe('markOf: which session a process belongs to, from its environment (ADR 0027)', () => {
  const sock = '/home/u/.amux/tmux.sock';
  test('AMUX_SESSION_ID, with TMUX naming this home’s socket', () => {
    assert.equal(markOf(env('PATH=/bin', 'AMUX_SESSION_ID=3f9a01bc', `TMUX=${sock},123,0`), sock), '3f9a01bc');
  });
  test('AMUX_SESSION_ID without TMUX (unset by the program): still ours', () => {
    assert.equal(markOf(env('AMUX_SESSION_ID=3f9a01bc'), sock), '3f9a01bc');
  });
  test('a session of another AMUX_HOME (its TMUX names that home\'s socket, which has a session of that id) is not ours', () => {
    const other = (socket: string, id: string) => socket === '/other/tmux.sock' && id === '3f9a01bc';
    assert.equal(markOf(env('AMUX_SESSION_ID=3f9a01bc', 'TMUX=/other/tmux.sock,9,0'), sock, other), null);
    assert.equal(markOf(env('AMUX_SESSION_ID=3f9a01bc', 'TMUX=/other/tmux.sock,9,0'), sock), '3f9a01bc', 'no such home: ours');
  });
  test('a TMUX set to anything else (a nested tmux, a made-up value) is no way out', () => {
    const dir = mkdtempSync(join(tmpdir(), 'amux-marks-'));
    try {
      assert.equal(markOf(env('AMUX_SESSION_ID=3f9a01bc', 'TMUX=/tmp/tmux-1000/default,9,0'), sock), '3f9a01bc');
      assert.equal(markOf(env('AMUX_SESSION_ID=3f9a01bc', `TMUX=${sock}x,9,0`), sock), '3f9a01bc');
      assert.equal(markOf(env('AMUX_SESSION_ID=3f9a01bc', 'TMUX=whatever'), sock), '3f9a01bc');
      assert.equal(markOf(env('AMUX_SESSION_ID=3f9a01bc', `TMUX=${dir}/tmux.sock,9,0`), sock), '3f9a01bc', 'a home without that session');
      mkdirSync(join(dir, 'sessions', '3f9a01bc'), { recursive: true });
      assert.equal(markOf(env('AMUX_SESSION_ID=3f9a01bc', `TMUX=${dir}/tmux.sock,9,0`), sock), null, 'a home with that session');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  test('no mark, or an empty one', () => {
    assert.equal(markOf(env('PATH=/bin', `TMUX=${sock},1,0`), sock), null);
    assert.equal(markOf(env('AMUX_SESSION_ID='), sock), null);
    assert.equal(markOf('', sock), null);
  });
  test('only a whole variable counts', () => {
    assert.equal(markOf(env('XAMUX_SESSION_ID=3f9a01bc'), sock), null);
  });
});

describe('sessionTree: which Unix sessions count (real processes)', () => {
  // A Unix session led by a live shell that is no session's (a terminal): `setsid` bash with two sleeps.
  const start = async (t: { after: (fn: () => void) => void }) => {
    const leader = spawn('setsid', ['bash', '-c', 'sleep 31 & sleep 32 & wait'], { stdio: 'ignore' });
    t.after(() => {
      try {
        process.kill(-leader.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    });
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      // setsid execs bash itself (it leads its Unix session), or forks it when it leads a process group.
      const bash = sessionOf(leader.pid!) === leader.pid ? leader.pid! : childrenOf(leader.pid!)[0];
      if (bash === undefined) continue;
      const kids = childrenOf(bash);
      if (kids.length === 2) return { bash, kids };
    }
    throw new Error('the sleeps did not start');
  };

  test('a marked process in a Unix session led by an unmarked live process brings only itself and its descendants', async (t) => {
    const { bash, kids } = await start(t);
    assert.deepEqual(sessionTree([kids[0]!], null, [], sessionMembers), [kids[0]]);
    assert.ok(!sessionTree([kids[0]!], null, [], sessionMembers).includes(bash));
  });

  test('in the pane’s Unix session, or one a marked process leads, every member counts', async (t) => {
    const { bash, kids } = await start(t);
    const sid = sessionOf(bash)!;
    assert.deepEqual(new Set(sessionTree([kids[0]!], sid, [], sessionMembers)), new Set([bash, ...kids, ...(sid === bash ? [] : [sid])]));
    assert.deepEqual(new Set(sessionTree([sid], null, [], sessionMembers)), new Set([bash, ...kids, sid]));
  });
});

describe('ProcessIndex: the marked processes and Unix sessions, environments read only for processes started since (ADR 0027, ADR 0045)', () => {
  const sock = '/tmp/amux-scan-test/tmux.sock';
  const startMarked = async (t: { after: (fn: () => void) => void }, id: string) => {
    const child = spawn('sleep', ['30'], { stdio: 'ignore', env: { ...process.env, AMUX_SESSION_ID: id, TMUX: '' } });
    t.after(() => child.kill('SIGKILL'));
    await new Promise((r) => child.once('spawn', r));
    return child.pid!;
  };

  test('finds a marked process started after the cutoff, and its Unix session’s members', async (t) => {
    const before = Date.now();
    const pid = await startMarked(t, 'scan0001');
    // The raw field, not sessionOf: in a pid namespace whose session leader is outside it (a CI
    // container), the session reads 0, which sessionOf gives as null ("no session").
    const sid = Number(procStat(pid)!.fields[STAT.session]);
    // The Unix session is the test runner's: other test files running beside this one fork into it
    // at any moment, so only the members from before the scan are compared.
    const earlier = sid > 0 ? sessionMembers(sid) : [];
    const scan = new ProcessIndex(sock).scan(before);
    const why = () => `started at tick ${procStat(pid)?.fields[STAT.starttime]}, cutoff ${ticksAt(before - 5000)}; ${readFileSync('/proc/uptime', 'utf8').trim()} s up; ${/btime \d+/.exec(readFileSync('/proc/stat', 'utf8'))?.[0]}, now ${before}`;
    assert.deepEqual(scan.marked.get('scan0001'), [pid], why());
    assert.ok(scan.members(sid).includes(pid), `session ${sid}: ${why()}`);
    const missed = earlier.filter((p) => p !== process.pid && !scan.members(sid).includes(p) && isAliveNow(p));
    assert.deepEqual(missed, [], 'every member alive before and after the scan is among its members');
  });

  test('a process started well before the sessions looked for is not read (nor counted)', async (t) => {
    const pid = await startMarked(t, 'scan0002');
    const index = new ProcessIndex(sock);
    assert.deepEqual(index.scan(0).marked.get('scan0002'), [pid]);
    assert.equal(index.scan(Date.now() + 60_000).marked.get('scan0002'), undefined);
    assert.equal(new ProcessIndex(sock).scan(Date.now() + 60_000).marked.get('scan0002'), undefined);
  });
});

describe('ticksAt: a wall-clock time as ticks since boot, as /proc/PID/stat counts a start', () => {
  test('a process forked after the time starts at or after it, and not long after', async (t) => {
    const before = Date.now();
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    t.after(() => child.kill('SIGKILL'));
    await new Promise((r) => child.once('spawn', r));
    const started = Number(procStat(child.pid!)!.fields[STAT.starttime]);
    assert.ok(started >= ticksAt(before), `${started} ticks, the cutoff ${ticksAt(before)}`);
    assert.ok(started - ticksAt(before) < 200 * 100, 'within 200 s (the estimate is never later, and not wildly earlier)');
  });
});

describe('newPids: the pids given out since an earlier pass, across the wrap', () => {
  test('no wrap: above the earlier last pid, up to the current one', () => {
    const isNew = newPids(1000, 1200);
    assert.deepEqual([999, 1000, 1001, 1200, 1201].map(isNew), [false, false, true, true, false]);
  });
  test('wrapped: above the earlier last pid, or from the bottom up to the current one', () => {
    const isNew = newPids(32000, 300);
    assert.deepEqual([31999, 32001, 32767, 2, 300, 301].map(isNew), [false, true, true, true, true, false]);
  });
  test('no earlier pass, or an unreadable last pid: every pid', () => {
    assert.equal(newPids(undefined, 5)(1), true);
    assert.equal(newPids(5, NaN)(1), true);
  });
});

describe('ProcessIndex, used again: what was forked since is read, what ended is forgotten', () => {
  const sock = '/tmp/amux-scan-test/tmux.sock';
  const spawnMarked = async (t: { after: (fn: () => void) => void }, args: string[], id?: string) => {
    const child = spawn(args[0]!, args.slice(1), { stdio: 'ignore', env: { ...process.env, ...(id ? { AMUX_SESSION_ID: id } : {}), TMUX: '' } });
    t.after(() => child.kill('SIGKILL'));
    await new Promise((r) => child.once('spawn', r));
    return child;
  };

  test('a marked process started after the first scan is found; one from before still is; one that ended is not', async (t) => {
    const index = new ProcessIndex(sock);
    const old = await spawnMarked(t, ['sleep', '30'], 'scan0003');
    const gone = await spawnMarked(t, ['sleep', '30'], 'scan0005');
    const first = index.scan(0);
    assert.deepEqual(first.marked.get('scan0003'), [old.pid]);
    assert.deepEqual(first.marked.get('scan0005'), [gone.pid]);
    gone.kill('SIGKILL');
    await new Promise((r) => gone.once('exit', r));
    const fresh = await spawnMarked(t, ['sleep', '30'], 'scan0004');
    const second = index.scan(0);
    assert.deepEqual(second.marked.get('scan0004'), [fresh.pid]);
    assert.deepEqual(second.marked.get('scan0003'), [old.pid]);
    assert.equal(second.marked.get('scan0005'), undefined, 'reaped by its parent: gone from /proc, gone from the index');
  });

  test('a process read while young (before it execs with the mark) is read again', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'amux-young-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const index = new ProcessIndex(sock);
    index.scan(0); // the next scans read only the pids given out since: quick
    // Its environment has no mark until it execs `env`, which adds it (as a fork of a session's shell
    // shows the shell's initial environment until its exec); it execs when the test says (ADR 0058).
    // The first scan must read it young (YOUNG_TICKS, 0.3 s after its start), which a busy machine
    // may not allow: then the test tries again with a new process, and tells if none was read young.
    for (let attempt = 1; ; attempt++) {
      const go = join(dir, `go${attempt}`);
      const child = spawn('sh', ['-c', 'while [ ! -e "$1" ]; do sleep 0.05; done; exec env AMUX_SESSION_ID=scan0006 sleep 30', 'sh', go], {
        stdio: 'ignore',
        env: { ...process.env, TMUX: '' },
      });
      t.after(() => child.kill('SIGKILL'));
      const first = index.scan(0).marked.get('scan0006');
      const readYoung = ticksAt(Date.now()) - Number(procStat(child.pid!)!.fields[STAT.starttime]) < 30;
      assert.equal(first, undefined, 'not marked before its exec');
      if (!readYoung) {
        assert.ok(attempt < 20, `the first scan never came within 0.3 s of the process's start (${attempt} tries)`);
        child.kill('SIGKILL');
        continue;
      }
      t.diagnostic(`read young at try ${attempt}`);
      writeFileSync(go, '');
      // Its exec has happened: its environment carries the mark (a busy machine takes its time to get there).
      const environ = () => readProc(`/proc/${child.pid}/environ`) ?? '';
      for (const deadline = Date.now() + 30_000; !environ().includes('AMUX_SESSION_ID=scan0006') && Date.now() < deadline; ) {
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.ok(environ().includes('AMUX_SESSION_ID=scan0006'), 'the process execs with the mark');
      // One scan after the exec, however long after the start: the young read is read again.
      assert.deepEqual(index.scan(0).marked.get('scan0006'), [child.pid]);
      return;
    }
  });
});

describe('pidRange: the pids given out since a pass, looked up one by one when few', () => {
  test('no wrap, wrap at pid_max, too many, unknown', () => {
    assert.deepEqual(pidRange(10, 13, 100, 32768), ['11', '12', '13']);
    assert.deepEqual(pidRange(32765, 2, 100, 32768), ['32766', '32767', '1', '2']);
    assert.deepEqual(pidRange(5, 5, 100, 32768), []);
    assert.equal(pidRange(10, 5000, 100, 32768), null);
    assert.equal(pidRange(undefined, 5, 100, 32768), null);
    assert.equal(pidRange(5, NaN, 100, 32768), null);
  });
});
