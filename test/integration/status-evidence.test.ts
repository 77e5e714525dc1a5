import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { amuxHome, sleep } from '../helpers/amux.js';
import { installed } from '../helpers/programs.js';
import { Fixtures, type ProgramCase } from '../helpers/status-programs.js';

/** When a program's reason is checked from (its status is checked from its `startMs`). */
const REASON_AFTER_MS = 3000;
/** How long every program is watched once all have started. */
const WATCH_MS = 14_000;

/**
 * The truth table of README "Statuses" (ADR 0015), with real programs, each as its own session,
 * all watched at once: the status a person would give it, at every look (through the API,
 * `GET /v1/sessions`, what `ps --json` prints; every 250 ms, 8 s and more) once it has started.
 * While they run, `wait --until idle` on the xz pipeline must time out: threads compute.
 */
describe('status from evidence: real programs', () => {
  const h = amuxHome({ after });
  const fx = new Fixtures();
  after(() => fx.stop());

  const seen = new Map<string, { looks: { at: number; status: string; reason: string; foreground: string | null }[]; startedAt: number }>();
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
    await sleep(WATCH_MS);
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
      const first = entry.looks.find((l) => l.status === c.expect);
      // A program that computes while it starts is judged from its first look at its prompt, when
      // the case says so: how long python takes to start depends on the machine's load.
      const from = c.fromFirst ? Math.max(first?.at ?? Infinity, entry.startedAt + (c.startMs ?? 500)) : entry.startedAt + (c.startMs ?? 500);
      const settled = entry.looks.filter((l) => l.at >= from);
      assert.ok(settled.length > 0 && settled.at(-1)!.at - settled[0]!.at >= 8_000, `${c.name} was watched for 8 s (${settled.length} looks): ${entry.looks.map((l) => `${l.status}(${l.reason})`).join(' ')}`);
      const show = settled.map((l) => `${l.status}(${l.reason})`).join(' ');
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
      const late = settled.filter((l) => l.at - entry.startedAt >= REASON_AFTER_MS && l.status !== 'completed');
      if (c.reason) assert.ok(late.filter((l) => c.reason!.test(l.reason)).length >= 0.8 * late.length, `${c.name}, mostly ${c.reason.source}: ${show}`);
    });
  }

  test('paused then resumed, sleep 600 keeps its wait: working (sleeping) at every look for 8 s', async () => {
    const id = await h.ok(['run', '--', 'sleep 600']);
    await h.until(id, (s) => s.status === 'working' && s.reason === 'sleeping');
    await h.ok(['pause', id]);
    await h.ok(['resume', id]);
    const resumedAt = Date.now();
    const looks: string[] = [];
    while (Date.now() - resumedAt < 8_500) {
      const s = ((await h.api('GET', '/v1/sessions')).body as any[]).find((x) => x.id === id);
      if (Date.now() - resumedAt >= 500) looks.push(`${s.status}(${s.reason})`);
      await sleep(250);
    }
    assert.ok(looks.length >= 8, `watched for 8 s: ${looks.length} looks`);
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
    await h.ok(['send', id, 'import time; time.sleep(3)']);
    const busy = await h.until(id, (s) => s.status === 'working', 5_000);
    assert.equal(busy.status, 'working');
    const back = await h.until(id, (s) => s.status === 'idle');
    assert.equal(back.reason, 'reading the terminal');
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
