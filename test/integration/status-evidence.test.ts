import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { amuxHome, sleep } from '../helpers/amux.js';
import { installed } from '../helpers/programs.js';

/** Whether `program` is on PATH; a case whose program is missing is skipped, and says so. */

interface Case {
  name: string;
  program: string;
  command: string;
  /** What a person would say it is doing once it has settled. */
  expect: 'idle' | 'working';
  /** For `working`: never `idle` at any look, from its start on. */
  never?: 'idle';
  reason?: RegExp;
}

/**
 * The truth table of README "Statuses" (ADR 0015), with real programs, each as its own session:
 * the status a person would give it. Observed through the API (`GET /v1/sessions`, what `ps --json`
 * prints) every 250 ms for 12 s.
 */
describe('status from evidence: real programs', () => {
  const h = amuxHome({ after });
  const dir = mkdtempSync('/tmp/amux-make-');
  after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'Makefile'), 'all:\n\t@echo step 1\n\tsleep 6\n\t@echo step 2\n');

  const cases: Case[] = [
    { name: 'python3 REPL', program: 'python3', command: 'python3', expect: 'idle', reason: /reading the terminal/ },
    { name: 'python3 -c CPU loop', program: 'python3', command: `python3 -c 'while True: pass'`, expect: 'working', never: 'idle', reason: /cpu/ },
    { name: 'sleep 30', program: 'sleep', command: 'sleep 30', expect: 'working', never: 'idle', reason: /sleeping/ },
    { name: 'read -p', program: 'bash', command: `bash -c 'read -p "Continue? " x'`, expect: 'idle', reason: /reading the terminal/ },
    { name: 'vim', program: 'vim', command: 'vim -u NONE -i NONE -n', expect: 'idle' },
    { name: 'a \\r progress bar', program: 'bash', command: `bash -c 'i=0; while :; do printf "\\r%d%%" $((i++ % 100)); sleep 0.2; done'`, expect: 'working', never: 'idle' },
    { name: 'make whose recipe sleeps 6 s', program: 'make', command: `make -C '${dir}'`, expect: 'working', never: 'idle' },
    { name: 'a line every 4.5 s', program: 'bash', command: 'while :; do echo tick; sleep 4.5; done', expect: 'working', never: 'idle' },
  ];

  const seen = new Map<string, { statuses: string[]; last: any }>();

  test('each program is started, then watched for 12 s', async () => {
    const ids = new Map<string, string>();
    for (const c of cases) {
      if (!installed(c.program)) continue;
      ids.set(c.name, await h.ok(['run', '--', c.command]));
    }
    for (const c of cases) seen.set(c.name, { statuses: [], last: null });
    const deadline = Date.now() + 12_000;
    while (Date.now() < deadline) {
      // Through the API: a look costs milliseconds, not a node start, however loaded the machine is.
      const byId = new Map(((await h.api('GET', '/v1/sessions')).body as any[]).map((s) => [s.id, s]));
      for (const [name, id] of ids) {
        const s = byId.get(id);
        if (!s) continue;
        seen.get(name)!.statuses.push(s.status);
        seen.get(name)!.last = s;
      }
      await sleep(250);
    }
    assert.ok(ids.size > 0, 'at least one program to watch');
  });

  for (const c of cases) {
    test(`${c.name}: ${c.expect}`, (t) => {
      if (!installed(c.program)) return t.skip(`${c.program} is not installed`);
      const { statuses, last } = seen.get(c.name)!;
      assert.ok(statuses.length > 10, `${c.name} was watched (${statuses.length} looks)`);
      // make's recipe ends after 6 s: it may be completed by the end, never idle before that
      const live = statuses.filter((s) => s !== 'completed');
      if (c.never) assert.ok(!live.includes(c.never), `${c.name} was ${c.never} at some look: ${statuses.join(' ')}`);
      if (c.name.startsWith('make')) assert.ok(statuses.includes('working'), statuses.join(' '));
      else assert.equal(last.status, c.expect, `${c.name}: ${statuses.join(' ')} (reason ${last.reason})`);
      if (c.reason && last.status === c.expect) assert.match(String(last.reason), c.reason);
    });
  }

  test('foreground names the program; null for a shell at its prompt', async () => {
    const shell = await h.ok(['run']);
    const s = await h.until(shell, (x) => x.status === 'idle');
    assert.equal(s.foreground, null);
    assert.equal(s.reason, 'at prompt');
    const py = seen.get('python3 REPL')!.last;
    if (py) assert.equal(py.foreground, 'python3');
    // typed into the shell: ps names it
    await h.ok(['send', shell, 'sleep 30']);
    const busy = await h.until(shell, (x) => x.status === 'working' && x.foreground === 'sleep');
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
});
