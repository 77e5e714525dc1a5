import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { addMark, canReuse, newMarks, REUSE_MAX_MS, unrun, type Reusable } from '../../src/process/run-marks.js';
import { readForeground, type Foreground } from '../../src/process/foreground.js';
import { readHeld } from '../../src/process/held-read.js';
import { childrenOf } from '../../src/process/process-table.js';

const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

const files = (m: Record<string, string | null>) => (path: string) => m[path] ?? null;

test('unrun: the same text everywhere; any difference, or a thread gone, means it ran', () => {
  const m = newMarks();
  const disk = { '/proc/1/schedstat': '10 5 2\n', '/proc/1/task/2/schedstat': '7 1 1\n' } as Record<string, string | null>;
  assert.ok(addMark(m, '/proc/1', files(disk)));
  assert.ok(addMark(m, '/proc/1/task/2', files(disk)));
  assert.equal(unrun(m, files(disk)), true);
  assert.equal(unrun(m, files({ ...disk, '/proc/1/task/2/schedstat': '7 1 2\n' })), false, 'a timeslice more: it ran');
  assert.equal(unrun(m, files({ ...disk, '/proc/1/schedstat': null })), false, 'gone');
  assert.equal(unrun(newMarks(), files(disk)), false, 'no marks: nothing proves anything');
});

test('addMark: an unreadable thread is not marked, and says so', () => {
  const m = newMarks();
  assert.equal(addMark(m, '/proc/9', files({})), false);
  assert.deepEqual(m, newMarks());
});

test('canReuse: same shell, same "a job runs", young enough, nothing ran', () => {
  const m = newMarks();
  const disk = { '/proc/5/schedstat': '1 2 3\n' };
  addMark(m, '/proc/5', files(disk));
  const prev: Reusable = { shell: 5, jobRunning: true, readAt: 1000, marks: m };
  const read = files(disk);
  assert.equal(canReuse(prev, 5, true, 1200, read), true);
  assert.equal(canReuse(undefined, 5, true, 1200, read), false);
  assert.equal(canReuse({ ...prev, marks: null }, 5, true, 1200, read), false, 'a look that cannot be reused');
  assert.equal(canReuse(prev, 6, true, 1200, read), false, 'another shell');
  assert.equal(canReuse(prev, 5, false, 1200, read), false, 'the job ended: the look reads otherwise');
  assert.equal(canReuse(prev, 5, true, 1000 + REUSE_MAX_MS, read), false, 'too old');
  assert.equal(canReuse(prev, 5, true, 999, read), false, 'the clock went back');
  assert.equal(canReuse(prev, 5, true, 1200, files({ '/proc/5/schedstat': '2 2 4\n' })), false, 'it ran');
});

/** Polls `check` every 20 ms until it holds; fails after `ms` (a bound on a wait, never a timed assertion). */
async function until(what: string, check: () => boolean, ms = 30_000): Promise<void> {
  for (const deadline = Date.now() + ms; !check(); await new Promise((r) => setTimeout(r, 20))) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
  }
}

/** CPU ticks (utime + stime) of every thread of a process, from /proc/PID/stat. */
function processTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

test('/proc/PID/schedstat is the main thread alone: another thread running leaves it unchanged', async () => {
  // The main thread waits in its event loop with nothing to wake it once the worker said it spins;
  // the worker spins until killed. The reads are held apart until the process has used CPU (the
  // worker ran), however long a busy machine takes to run it: no fixed window.
  const code = "const {Worker}=require('worker_threads');const w=new Worker('require(\"worker_threads\").parentPort.postMessage(1);for(;;);',{eval:true});w.once('message',()=>process.stdout.write('spinning\\n'))";
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await until('the worker spins', () => out.includes('spinning'));
    // Its write done, the main thread goes back to its wait: one more read after it ran settles.
    let main = readHeld(`/proc/${child.pid}/schedstat`);
    await until('the main thread waits', () => {
      const again = readHeld(`/proc/${child.pid}/schedstat`);
      const same = again === main;
      main = again;
      return same && readFileSync(`/proc/${child.pid}/stat`, 'utf8').replace(/^.*\) /, '')[0] === 'S';
    });
    const ticks = processTicks(child.pid!);
    await until('the worker used CPU', () => processTicks(child.pid!) >= ticks + 2);
    assert.equal(readHeld(`/proc/${child.pid}/schedstat`), main, 'the main thread sleeps while the worker computes');
  } finally {
    child.kill('SIGKILL');
  }
});

test('a look stands for the next while its processes sleep, and not once one has run (stopped by a signal)', async () => {
  const sh = spawn('bash', ['-c', 'sleep 30; true'], { stdio: 'ignore' });
  try {
    // Once bash waits for its sleep, and the sleep sleeps: a busy machine takes its time to get there.
    let first = readForeground(sh.pid!, true);
    await until('bash waits for sleep, asleep, its run marks settled', () => {
      const before = first?.marks?.marks.join('|');
      first = readForeground(sh.pid!, true);
      const stats = (first?.marks?.paths ?? []).map((p) => readFileSync(p.replace(/schedstat$/, 'stat'), 'utf8'));
      // The kernel adds a just-descheduled task's run time a moment later: two equal reads in a row,
      // and a run time in each (seen in a fresh-clone CI run: sleep's schedstat read 0 twice, then
      // 1487690 ns; every marked process has run, to exec at least).
      return stats.length >= 2 && stats.some((st) => st.includes('(sleep) ')) && stats.every((st) => st.replace(/^.*\) /, '')[0] === 'S')
        && first?.marks?.marks.join('|') === before && (first?.marks?.marks ?? []).every((m) => !/^0 /.test(m));
    });
    assert.ok(first!.marks && first!.marks.paths.length >= 2, 'the shell and sleep are marked');
    const again = readForeground(sh.pid!, true, { pgid: first!.pgid, procs: new Map(), fg: first! });
    assert.equal(again, first, 'nothing ran: the same look');
    const sleeper = Number(first!.marks.paths[1]!.split('/')[2]);
    process.kill(sleeper, 'SIGSTOP');
    // Stopped once it has run to take the signal (state T), however late it is scheduled.
    await until('sleep stopped', () => readFileSync(`/proc/${sleeper}/stat`, 'utf8').replace(/^.*\) /, '')[0] === 'T');
    const after = readForeground(sh.pid!, true, { pgid: first!.pgid, procs: new Map(), fg: first! });
    assert.notEqual(after, first, 'the stopped process ran to stop: looked at afresh');
    process.kill(sleeper, 'SIGCONT');
  } finally {
    sh.kill('SIGKILL');
  }
});

test('readHeld: a thread gone reads null', async () => {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 100));
  const path = `/proc/${child.pid}/schedstat`;
  assert.match(readHeld(path) ?? '', /^\d+ \d+ \d+\n$/);
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(readHeld(path), null);
});

test('a process that moves from a timer to the terminal without using a tick is looked at afresh', async (t) => {
  if (!has('script') || !has('perl')) return t.skip('needs script(1) and perl');
  // script(1) gives perl a terminal of its own: it owns it, as a session's shell does. Perl, not
  // python: a python3 on PATH may be a version shim (pyenv) that stays a parent of the real one.
  const c = spawn('script', ['-qfc', "exec perl -e 'sleep 2; my $l = <STDIN>'", '/dev/null'], { stdio: ['pipe', 'ignore', 'ignore'] });
  const pause = () => new Promise((r) => setTimeout(r, 100));
  try {
    // Its pid stays through the execs (a shell, perl); wait for perl's sleep.
    let fg: ReturnType<typeof readForeground> = null;
    for (let deadline = Date.now() + 10_000; Date.now() < deadline; await pause()) {
      const py = childrenOf(c.pid!)[0];
      fg = py ? readForeground(py, true) : null;
      if (fg?.procs[0]?.comm === 'perl' && fg.procs[0].threads[0]?.wait === 'timer') break;
    }
    assert.equal(fg?.procs[0]?.threads[0]?.wait, 'timer', 'perl asleep first');
    const first = fg!;
    let reused = 0;
    for (let deadline = Date.now() + 10_000; Date.now() < deadline && !fg!.procs[0]?.threads[0]?.on?.includes('terminal'); await pause()) {
      // Always young: the age bound never asks for a full look, only the run marks can.
      const prev: Foreground = { ...fg!, readAt: Date.now() };
      const next: ReturnType<typeof readForeground> = readForeground(first.shell, true, { pgid: prev.pgid, procs: new Map(), fg: prev });
      if (!next) break;
      if (next === prev) reused++;
      fg = next;
    }
    assert.ok(reused >= 1, 'a look while it slept stood for the next');
    assert.deepEqual(fg!.procs[0]?.threads[0]?.on, ['terminal'], 'now reading the terminal');
    t.diagnostic(`${reused} looks reused; CPU ticks ${first.procs[0]!.ticks} then ${fg!.procs[0]!.ticks}: a skip on ticks could not tell`);
  } finally {
    c.kill('SIGKILL');
  }
});

test('a shell at its prompt: its look stands for the next until it runs a command', async (t) => {
  if (!has('script')) return t.skip('needs script(1)');
  // script(1) gives bash a terminal of its own, which it owns at its prompt, as a session's shell does.
  const c = spawn('script', ['-qfc', 'exec bash --norc --noprofile -i', '/dev/null'], { stdio: ['pipe', 'ignore', 'ignore'] });
  const pause = () => new Promise((r) => setTimeout(r, 100));
  try {
    let fg: ReturnType<typeof readForeground> = null;
    for (let deadline = Date.now() + 10_000; Date.now() < deadline; await pause()) {
      const sh = childrenOf(c.pid!)[0];
      fg = sh ? readForeground(sh, false) : null;
      if (fg?.procs[0]?.comm === 'bash' && fg.pgid === fg.shell && fg.procs[0].threads[0]?.state === 'S') break;
    }
    assert.ok(fg && fg.pgid === fg.shell, 'bash owns its terminal');
    assert.ok(fg.marks && fg.marks.paths.length === 1, 'the shell alone is marked');
    // bash may still be settling at its prompt: wait for a look that stands for the next.
    let stood: Foreground | null = null;
    for (let i = 0; i < 50 && !stood; i++, await pause()) {
      const next: ReturnType<typeof readForeground> = readForeground(fg.shell, false, { pgid: fg.pgid, procs: new Map(), fg });
      assert.ok(next, 'the shell lives');
      if (next === fg) stood = fg;
      fg = next;
    }
    assert.ok(stood, 'nothing ran: a look stood for the next');
    c.stdin.write('true\n');
    await pause();
    const after = readForeground(stood.shell, false, { pgid: stood.pgid, procs: new Map(), fg: stood });
    assert.ok(after, 'the shell lives');
    assert.notEqual(after, stood, 'the shell ran a command: looked at afresh');
  } finally {
    c.kill('SIGKILL');
  }
});
