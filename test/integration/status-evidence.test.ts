import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { amuxHome, sleep } from '../helpers/amux.js';
import { installed } from '../helpers/programs.js';
import { Fixtures, type ProgramCase } from '../helpers/status-programs.js';

/** When a program's reason is checked from (its status is checked from its start, see `settledLooks`). */
const REASON_AFTER_MS = 3000;
/** How long every program is watched at least once all were created (the xz wait's window). */
const WATCH_MS = 12_500;
/** How long each program is watched once it has started: every look in it must show the expected status. */
const SETTLED_MS = 8_000;
/**
 * The deadline for every program to start and be watched for SETTLED_MS: a loaded machine takes
 * its time to start a REPL, and the watch waits for that rather than sampling a fixed window.
 */
const WATCH_DEADLINE_MS = 90_000;

type Look = { at: number; status: string; reason: string; foreground: string | null };

/**
 * The looks of a program once it has started: from its `startMs` (default 500 ms) on, from the
 * first look that shows the expected status. A program that computes while it starts is rightly
 * `working` until it waits, and on a busy machine that takes longer than any allowance measured on
 * an idle one; what is checked is that once it is there, every later look says so. A program that
 * never shows it has no settled looks and fails.
 */
function settledLooks(c: ProgramCase, looks: readonly Look[], startedAt: number): Look[] {
  const from = looks.findIndex((l) => l.at - startedAt >= (c.startMs ?? 500) && l.status === c.expect);
  return from < 0 ? [] : looks.slice(from);
}

/** Whether a program was watched for SETTLED_MS once started (or ended, when it may). */
function watchedEnough(c: ProgramCase, entry: { looks: Look[]; startedAt: number } | undefined): boolean {
  if (!entry) return false;
  const settled = settledLooks(c, entry.looks, entry.startedAt);
  if (c.mayEnd && entry.looks.at(-1)?.status === 'completed') return true;
  return settled.length > 0 && settled.at(-1)!.at - settled[0]!.at >= SETTLED_MS + 500;
}

/**
 * The truth table of src/guides/statuses.md (ADR 0015), with real programs, each as its own session,
 * all watched at once: the status a person would give it, at every look (through the API,
 * `GET /v1/sessions`, what `ps --json` prints; every 250 ms, 8 s and more) once it has started
 * (a condition, not a time: see `settledLooks`).
 * While they run, `wait --until idle` on the xz pipeline must time out: threads compute.
 */
describe('status from evidence: real programs', () => {
  const h = amuxHome({ after });
  const fx = new Fixtures();
  after(() => fx.stop());

  const seen = new Map<string, { looks: Look[]; startedAt: number }>();
  let cases: ProgramCase[] = [];
  let waitCode: number | null = null;

  test('every program is started, then watched at once', async () => {
    await fx.start();
    cases = fx.cases();
    await h.ok(['run', '--', 'true']); // the daemon
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: fx.dir, TERM: 'xterm-256color', LANG: 'C.UTF-8' };
    const ids = new Map<string, string>();
    // Looked at from the first start on, so that each program's first seconds are watched too.
    let watching = true;
    const sampler = (async () => {
      while (watching) {
        const byId = new Map(((await h.api('GET', '/v1/sessions')).body as any[]).map((s) => [s.id, s]));
        const at = Date.now();
        for (const [name, id] of ids) {
          const s = byId.get(id);
          if (!s) continue;
          const entry = seen.get(name) ?? { looks: [], startedAt: Date.parse(s.startedAt ?? s.createdAt) };
          entry.looks.push({ at, status: s.status, reason: s.reason, foreground: s.foreground });
          seen.set(name, entry);
        }
        await sleep(250);
      }
    })();
    for (const c of cases) {
      if (!c.needs.every(installed)) continue;
      const r = await h.api('POST', '/v1/sessions', { command: c.command, cwd: fx.dir, env });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      ids.set(c.name, r.body.id);
    }
    const xz = ids.get('head | xz -T2 (threads compute)');
    const waiting = xz ? h.run(['wait', xz, '--until', 'idle', '--timeout', `${Math.floor(WATCH_MS / 1000) - 2}s`]) : null;
    // Watched until every program has been seen started for SETTLED_MS, however long a busy
    // machine takes to start them (a program that never starts fails below, by its looks).
    const begun = Date.now();
    const watched = cases.filter((c) => ids.has(c.name));
    while (Date.now() - begun < WATCH_MS || (Date.now() - begun < WATCH_DEADLINE_MS && !watched.every((c) => watchedEnough(c, seen.get(c.name))))) await sleep(250);
    watching = false;
    await sampler;
    if (waiting) waitCode = (await waiting).code;
    assert.ok(ids.size > 0, 'at least one program to watch');
  });

  test('wait --until idle never returns while a thread of the foreground computes (xz -T2)', (t) => {
    if (!['xz', 'head'].every(installed)) return t.skip('xz is not installed');
    assert.equal(waitCode, 124, 'wait --until idle timed out');
  });

  for (const c of fx.cases()) {
    test(`${c.name}: ${c.expect}${c.reason ? ` (${c.reason.source})` : ''}`, (t) => {
      const missing = c.needs.filter((p) => !installed(p));
      if (missing.length) return t.skip(`${missing.join(', ')} not installed`);
      const entry = seen.get(c.name);
      assert.ok(entry, `${c.name} was watched`);
      const settled = settledLooks(c, entry.looks, entry.startedAt);
      const all = entry.looks.map((l) => `${l.status}(${l.reason})`).join(' ');
      if (!(c.mayEnd && entry.looks.at(-1)?.status === 'completed')) {
        assert.ok(settled.length > 0 && settled.at(-1)!.at - settled[0]!.at >= SETTLED_MS, `${c.name} was watched for 8 s once ${c.expect} (${settled.length} looks): ${all}`);
      }
      const show = settled.map((l) => `${l.status}(${l.reason})`).join(' ');
      const first = entry.looks.find((l) => l.status === c.expect);
      if (first) t.diagnostic(`first ${c.expect} ${first.at - entry.startedAt} ms after its start`);
      for (const l of settled) {
        if (c.mayEnd && l.status === 'completed') continue;
        assert.equal(l.status, c.expect, `${c.name}, ${l.at - entry.startedAt} ms after its start: ${show}`);
        // The reason from 3 s on: while a program starts it computes and prints its banner, and says
        // so; later a server may compute or print for a moment, which a look may catch.
        if (c.reason && l.at - entry.startedAt >= REASON_AFTER_MS) assert.match(l.reason, new RegExp(`${c.reason.source}|^cpu$|^output changed$`), `${c.name}: ${show}`);
        // The foreground from 3 s on too: while `head` fills the pipe, it is the one working.
        if (c.foreground && l.at - entry.startedAt >= REASON_AFTER_MS) {
          assert.equal(l.foreground, c.foreground, `${c.name}, ${l.at - entry.startedAt} ms: foreground ${entry.looks.map((x) => x.foreground).join(' ')}`);
        }
      }
      // Mostly the expected reason once it has shown it (a busy machine stretches a server's start,
      // computing, over more looks; that start is not what this checks).
      const late = settled.filter((l) => l.at - entry.startedAt >= REASON_AFTER_MS && l.status !== 'completed');
      const shown = late.findIndex((l) => c.reason?.test(l.reason));
      if (c.reason) {
        assert.ok(shown >= 0, `${c.name} never said ${c.reason.source}: ${show}`);
        const after = late.slice(shown);
        assert.ok(after.filter((l) => c.reason!.test(l.reason)).length >= 0.8 * after.length, `${c.name}, mostly ${c.reason.source}: ${show}`);
      }
    });
  }

  test('paused then resumed, sleep 600 keeps its wait: working (sleeping) at every look for 8 s', async () => {
    const id = await h.ok(['run', '--', 'sleep 600']);
    await h.until(id, (s) => s.status === 'working' && s.reason === 'sleeping');
    await h.ok(['pause', id]);
    await h.ok(['resume', id]);
    const resumedAt = Date.now();
    const looks: string[] = [];
    // Watched until 8 s and 8 looks are behind it, however slowly a busy machine answers.
    let first = 0;
    while (looks.length < 8 || Date.now() - first < 8_000) {
      const s = ((await h.api('GET', '/v1/sessions')).body as any[]).find((x) => x.id === id);
      // The looks after the resume's own (its reason says amux resumed it, for as long as a busy
      // machine takes to look again) must each keep the wait.
      if (first || (Date.now() - resumedAt >= 500 && s.reason !== 'resumed by amux resume')) {
        first ||= Date.now();
        looks.push(`${s.status}(${s.reason})`);
      }
      await sleep(250);
    }
    assert.deepEqual([...new Set(looks)], ['working(sleeping)'], looks.join(' '));
  });

  test('foreground names the program; null for a shell at its prompt', async () => {
    const shell = await h.ok(['run']);
    const s = await h.until(shell, (x) => x.status === 'idle');
    assert.equal(s.foreground, null);
    assert.equal(s.reason, 'at prompt');
    const py = seen.get('python3 REPL')?.looks.at(-1);
    if (py) assert.equal(py.foreground, 'python3');
    // typed into the shell: ps names it
    await h.ok(['send', shell, 'sleep 30']);
    // its echo is output first; then the kernel's reason
    const busy = await h.until(shell, (x) => x.status === 'working' && x.foreground === 'sleep' && x.reason === 'sleeping');
    assert.equal(busy.reason, 'sleeping');
    const line = (await h.ok(['ps'])).split('\n').find((l) => l.startsWith(shell));
    assert.match(line ?? '', /\(shell\) sleep/);
  });

  test('a line sent to the python3 REPL: working while it runs, then idle again', async (t) => {
    if (!installed('python3')) return t.skip('python3 is not installed');
    const id = await h.ok(['run', '--', 'python3']);
    await h.until(id, (s) => s.status === 'idle' && s.reason === 'reading the terminal');
    // A sleep that outlasts any look, however late (a busy machine), then interrupted: back at its prompt.
    await h.ok(['send', id, 'import time; time.sleep(600)']);
    const busy = await h.until(id, (s) => s.status === 'working' && s.reason === 'sleeping');
    assert.equal(busy.foreground, 'python3');
    await h.ok(['send', '--keys', id, 'C-c']);
    const back = await h.until(id, (s) => s.status === 'idle');
    assert.equal(back.reason, 'reading the terminal');
  });

  test('eight asyncio clocks started one after another: each becomes idle (a self-pipe a look could not name yet is no conversation: ADR 0061 amended)', async (t) => {
    if (!['python3', 'ss'].every(installed)) return t.skip('python3 or ss is not installed');
    // Started 300 ms apart, most have their first look within a second of the one before's `ss`
    // (one a second for the daemon): the other end of their self-pipe is not known at that look.
    // Carried as a conversation, they stayed `working (network)` for good, the clock's redraws
    // never 1.5 s apart (6 of 8 on a quiet machine).
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      ids.push(await h.ok(['run', '--cwd', fx.dir, '--', 'python3', 'aio.py']));
      await sleep(300);
    }
    const waits = await Promise.all(ids.map((id) => h.run(['wait', id, '--until', 'idle', '--timeout', '90s'])));
    const ps = await h.run(['ps']);
    assert.deepEqual(waits.map((w) => w.code), ids.map(() => 0), ps.stdout);
    await h.ok(['kill', ...ids]);
  });

  test('yes, blocked writing to the terminal: working (output), never idle: wait --until idle and send --when idle time out', async (t) => {
    if (!installed('yes')) return t.skip('yes is not installed');
    const id = await h.ok(['run', '--', 'yes']);
    try {
      // tmux drains slower than yes prints: its write() waits, and that is work, not a prompt (ADR 0048).
      const w = await h.run(['wait', id, '--until', 'idle', '--timeout', '6s']);
      assert.equal(w.code, 124, `wait --until idle returned: ${w.stdout}${w.stderr}`);
      const s = await h.until(id, (x) => x.status === 'working' && (x.reason === 'output' || x.reason === 'cpu'));
      assert.equal(s.status, 'working');
      const send = await h.run(['send', id, '--when', 'idle', '--timeout', '3s', 'echo typed']);
      assert.equal(send.code, 124, `send --when idle typed into yes: ${send.stdout}${send.stderr}`);
    } finally {
      await h.run(['kill', id]);
    }
  });

  test('real work at an idle prompt with no input: working (cpu) once it lasts past a blip', async (t) => {
    if (!installed('python3')) return t.skip('python3 is not installed');
    const go = `${h.home}/go`;
    // At input(); a thread computes for good once the file appears (the test releases it).
    const script = `import os, threading, time
def work():
    while not os.path.exists(${JSON.stringify(go)}): time.sleep(0.05)
    while True: pass
threading.Thread(target=work, daemon=True).start()
while True: input()`;
    const id = await h.ok(['run', '--', `nice -n 19 python3 -c ${shellQuote(script)}`]);
    try {
      await h.until(id, (x) => x.status === 'idle' && x.reason === 'reading the terminal');
      writeFileSync(go, '');
      const released = Date.now();
      const s = await h.until(id, (x) => x.status === 'working' && x.reason === 'cpu', 30_000);
      t.diagnostic(`working (cpu) ${Date.now() - released} ms after the work began`);
      assert.equal(s.reason, 'cpu');
    } finally {
      await h.run(['kill', id]);
    }
  });
});

/** One word for sh, in single quotes. */
function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
