import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { amuxHome } from '../helpers/amux.js';

/** Nothing of amux's own plumbing reaches what a job wrote, the pane or the log (ADR 0031). */
describe('plumbing stays out of sight', () => {
  const h = amuxHome({ after });
  let sh = '';

  test('a shell session', async () => {
    sh = await h.ok(['run', '-n', 'plumbing']);
    await h.until(sh, (s) => s.status === 'idle');
  });

  test('exec types nothing a person or a log reader sees: no __amux_ text in the pane, the log or --raw', async () => {
    for (const word of ['first-job', 'second-job', 'third-job']) assert.equal(await h.ok(['exec', sh, '--', `echo ${word}`]), word);
    // tmux draws the pane and copies the log on its own time: read until both show the last job.
    let texts: Record<string, string> = {};
    for (let i = 0; i < 100; i++) {
      texts = {
        screen: await h.ok(['logs', '--screen', sh]),
        plain: (await h.run(['logs', sh])).stdout,
        raw: (await h.run(['logs', '--raw', sh])).raw.toString('latin1'),
        pane: h.tmux(['capture-pane', '-p', '-S', '-', '-t', `=amux-${sh}:`]),
      };
      if (Object.values(texts).every((t) => t.includes('third-job'))) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const raw = texts.raw!;
    for (const [name, text] of Object.entries(texts)) {
      assert.ok(!text.includes('__amux'), `${name} shows amux's plumbing: ${JSON.stringify(text)}`);
      assert.ok(text.includes('third-job'), `${name} lacks the output: ${JSON.stringify(text)}`);
    }
    assert.ok(!raw.includes('\x07'), `no bell rung by clearing the prompt: ${JSON.stringify(raw)}`);
  });

  test('a half-typed line is cleared before a job, in emacs and in vi mode, without running it', async () => {
    for (const mode of ['emacs', 'vi']) {
      await h.ok(['exec', sh, '--', `set -o ${mode}`]);
      await h.ok(['send', '--no-enter', sh, 'echo half-typed']);
      assert.equal(await h.ok(['exec', sh, '--', `echo ${mode}-job`]), `${mode}-job`);
      assert.equal(await h.ok(['exec', sh, '--', 'echo after']), 'after');
    }
    await h.ok(['exec', sh, '--', 'set -o emacs']);
    const plain = (await h.run(['logs', sh])).stdout;
    // What was typed stays in the log as typed (then erased); it never ran.
    assert.ok(!plain.split('\n').includes('half-typed') && !/command not found/.test(plain), plain);
  });

  test("a job's stderr holds only what it wrote: no bash 'Terminated' notice after --timeout", async () => {
    // A limit that leaves the job time to write its line on a busy machine.
    const r = await h.run(['exec', '--timeout', '5s', sh, '--', 'echo before >&2; sleep 30']);
    assert.equal(r.code, 124);
    assert.equal(r.stderr, 'before\n');
    const id = JSON.parse(await h.ok(['jobs', sh, '--json', '-n', '1']))[0].id;
    assert.equal((await h.run(['logs', '--stderr', '--raw', id])).stdout, 'before\n');
    // The same for a kill with another signal, and the shell goes on taking jobs.
    const job = h.run(['exec', sh, '--', 'sleep 30']);
    await h.until(sh, (s) => s.status === 'working');
    const running = JSON.parse(await h.ok(['jobs', sh, '--json', '-n', '1']))[0].id;
    await h.ok(['kill', '-s', 'HUP', running]);
    const killed = await job;
    assert.equal(killed.stderr, '');
    assert.equal(await h.ok(['exec', sh, '--', 'echo still-here']), 'still-here');
  });

  test('a `return` in a job behaves as typed at the prompt, and later jobs still run', async () => {
    const r = await h.run(['exec', sh, '--', 'echo a; return 3; echo b']);
    assert.equal(r.stdout, 'a\nb\n');
    assert.match(r.stderr, /return: can only/);
    assert.equal(await h.ok(['exec', sh, '--', 'echo next']), 'next');
  });

  test("a finished job leaves only its capped output: no FIFOs, scripts, sync or exit files pile up in a live session", async () => {
    const id = await h.ok(['run']);
    await h.until(id, (s) => s.status === 'idle');
    for (let i = 0; i < 3; i++) await h.ok(['exec', id, '--', `echo out-${i}; echo err-${i} >&2`]);
    await h.ok(['exec', '-i', id, '--', 'cat'], { input: 'piped\n' });
    const [bg] = (await h.ok(['exec', '-b', id, '--', 'echo bg'])).split(' ');
    await h.ok(['wait', bg!]);
    await h.ok(['exec', '--tty', id, '--', 'echo tty']);
    const jobs = JSON.parse(await h.ok(['jobs', id, '--json']));
    assert.equal(jobs.length, 6);
    const dir = join(h.home, 'sessions', id, 'jobs');
    const left: string[] = [];
    for (const name of readdirSync(dir)) {
      // the next job's prepared capture, the last hand-over, the stopped jobs at the last prompt (ADR 0066): one file each, rewritten
      if (name === 'next' || name === 'go' || name === 'stopped') continue;
      if (!/^\d+$/.test(name)) left.push(name);
      else for (const f of readdirSync(join(dir, name))) if (!/^(out|err)\.\d{6}$/.test(f)) left.push(`${name}/${f}`);
    }
    assert.deepEqual(left, []);
    const exits = readdirSync(join(h.home, 'exits')).filter((f) => f.startsWith(`${id}.`));
    assert.deepEqual(exits, []);
    // The output is all still there.
    assert.equal(await h.ok(['logs', '--stderr', jobs.find((j: any) => j.seq === 2).id]), 'err-1');
    assert.equal(await h.ok(['logs', '--stdout', bg!]), 'bg');
  });
});
