import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { amuxHome, BIN, sleep } from '../helpers/amux.js';
import { terminal } from '../helpers/terminal.js';

async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(150);
  }
  assert.fail(`never happened: ${what}`);
}

/** The parameters of every SGR sequence (`ESC[…m`) in a captured screen. */
const sgr = (x: string) => [...x.matchAll(/\x1b\[([0-9;:]*)m/g)].flatMap((m) => m[1]!.split(/[;:]/));

/** The table row of the session named `name` (or with that id). */
function row(screen: string, name: string): string | undefined {
  return screen.split('\n').find((l) => new RegExp(`^[▶ ] [0-9a-f]{8} ${name}(\\s|$)`).test(l) || new RegExp(`^[▶ ] ${name} `).test(l));
}
const selected = (screen: string) => screen.split('\n').find((l) => l.startsWith('▶ '));
const lines = (screen: string) => screen.split('\n');

describe('amux top', () => {
  test('lists sessions (live first, finished below) with statuses; j/k/arrows select; ? helps; / filters; new sessions appear; q restores the terminal', async (t) => {
    const h = amuxHome(t);
    const done = await h.ok(['run', '-n', 'done', '--', 'echo finished-output; exit 3']);
    await h.until(done, (s) => s.status === 'failed');
    await h.ok(['run', '-n', 'web', '--', 'while :; do echo tick-$RANDOM; sleep 0.5; done']);
    await h.ok(['run', '-n', 'sh']);
    const term = terminal(h, t);
    let s = await term.top();

    s = await term.until('three rows with their statuses', (x) => /working/.test(row(x, 'web') ?? '') && /idle/.test(row(x, 'sh') ?? '') && /failed/.test(row(x, 'done') ?? ''));
    const at = (name: string) => lines(s).indexOf(row(s, name)!);
    assert.ok(at('sh') < at('web') && at('web') < at('done'), `live first, newest first, finished below:\n${s}`);
    assert.match(row(s, 'done')!, /failed +command exited.* 3 /);
    assert.match(s, /^ {2}ID +NAME +STATUS +REASON +EXIT +TIME +CPU% +MEM +COMMAND/m);
    assert.match(selected(s)!, / sh /, 'the newest row is selected first');
    await term.until('the screen of sh below', (x) => /── screen of sh/.test(x));

    term.keys('j');
    s = await term.until('j selects web, its screen below', (x) => / web /.test(selected(x) ?? '') && /screen of web/.test(x) && /tick-\d+/.test(x));
    term.keys('Down');
    s = await term.until('Down selects done, its last lines below', (x) => / done /.test(selected(x) ?? '') && /last lines of done/.test(x) && /finished-output/.test(x));
    term.keys('j');
    await sleep(300);
    assert.match(selected(term.screen())!, / done /, 'the selection stops at the last row');
    term.keys('k');
    await term.until('k selects web', (x) => / web /.test(selected(x) ?? ''));
    term.keys('Up');
    await term.until('Up selects sh', (x) => / sh /.test(selected(x) ?? ''));

    term.keys('?');
    s = await term.until('the help', (x) => /this help \(any key closes it\)/.test(x));
    assert.ok(!row(s, 'web'), 'the help takes the place of the table');
    term.keys('x');
    await term.until('the table again', (x) => !!row(x, 'web'));

    term.keys('/');
    term.text('web');
    s = await term.until('the filter keeps web only', (x) => /^\/web /m.test(x) && !!row(x, 'web') && !row(x, 'sh') && !row(x, 'done'));
    term.keys('Enter');
    s = await term.until('the filter stays, named in the header', (x) => /\/web: 1 of 3/.test(x) && /\? help/.test(lines(x)[0]!));
    term.keys('Escape');
    await term.until('Esc clears the filter', (x) => !!row(x, 'sh') && !!row(x, 'done') && !/\/web/.test(x));
    term.keys('/');
    term.text('failed');
    term.keys('Enter');
    await term.until('a status filter', (x) => !!row(x, 'done') && !row(x, 'web') && !row(x, 'sh'));
    term.keys('Escape');

    // Driven by the daemon: a session started now appears, and one that ends moves below.
    // It works until told (a file), so that top shows it working however slowly a busy machine draws.
    const go = join(h.home, 'go-late');
    const late = await h.ok(['run', '-n', 'late', '--', `while [ ! -e ${go} ]; do sleep 0.1; done; echo bye`]);
    s = await term.until('the new session appears', (x) => /working/.test(row(x, 'late') ?? ''));
    writeFileSync(go, '');
    await h.until(late, (x) => x.status === 'completed');
    s = await term.until('it ends and moves below the live ones', (x) => /completed/.test(row(x, 'late') ?? ''));
    assert.ok(lines(s).indexOf(row(s, 'late')!) > lines(s).indexOf(row(s, 'web')!));

    term.keys('q');
    assert.equal(await term.back(), 0);
  });

  test('K asks and y kills (stopped), n does not; d removes a finished one; s sends a line; p pauses and resumes', async (t) => {
    const h = amuxHome(t);
    const victim = await h.ok(['run', '-n', 'victim', '--', 'sleep 1000']);
    const sh = await h.ok(['run', '-n', 'sh']);
    await h.until(sh, (x) => x.status === 'idle');
    const term = terminal(h, t);
    await term.top();
    term.keys('j');
    await term.until('victim selected', (x) => / victim /.test(selected(x) ?? ''));

    term.keys('K');
    await term.until('K asks first', (x) => /kill victim \([0-9a-f]{8}\) \(working\)\? .*\[y\/n\]/.test(x));
    term.keys('n');
    await term.until('n cancels', (x) => /^cancelled/m.test(x));
    assert.equal((await h.session(victim)).status, 'working');

    term.keys('K');
    await term.until('asked again', (x) => /\[y\/n\]/.test(x));
    term.keys('y');
    await term.until('the row says stopped', (x) => /stopped/.test(row(x, 'victim') ?? ''));
    assert.equal((await h.session(victim)).status, 'stopped');

    term.keys('d');
    await term.until('d removed the finished session', (x) => !row(x, 'victim') && /removed victim/.test(x));
    assert.ok((await h.json(['ps'])).every((x: { id: string }) => x.id !== victim));
    assert.equal((await h.session(victim)).removed, true, 'its history row stays');

    await term.until('sh selected', (x) => / sh /.test(selected(x) ?? ''));
    term.keys('s');
    await term.until('s asks for a line', (x) => /^send to sh \([0-9a-f]{8}\): /m.test(x));
    term.text('echo from-top-$((6*7))');
    term.keys('Enter');
    await term.until('the reply shows in the preview', (x) => /^from-top-42/m.test(x));
    assert.match(await h.ok(['logs', sh]), /from-top-42/);

    term.keys('p');
    await term.until('p paused it', (x) => /paused/.test(row(x, 'sh') ?? ''));
    assert.equal((await h.session(sh)).status, 'paused');
    term.keys('p');
    await term.until('p again resumed it', (x) => /idle|working/.test(row(x, 'sh') ?? ''));
    assert.notEqual((await h.session(sh)).status, 'paused');

    term.keys('C-c');
    assert.equal(await term.back(), 0, 'Ctrl-C quits like q');
  });

  test('Enter attaches and C-b d comes back to top; l follows the log and q comes back', async (t) => {
    const h = amuxHome(t);
    const id = await h.ok(['run', '-n', 'att', '--', 'echo inside-the-session; cat']);
    const term = terminal(h, t);
    await term.top();
    await term.until('att listed', (x) => !!row(x, 'att'));
    term.keys('Enter');
    await term.until('the session itself fills the terminal', (x) => /^inside-the-session/m.test(x) && !/amux top/.test(x));
    term.text('typed-through-attach');
    term.keys('Enter');
    await eventually('the typed line reaches the session', async () => (await h.ok(['logs', id])).includes('typed-through-attach'));
    term.keys('C-b', 'd');
    await term.until('top again after detaching', (x) => /^amux top /m.test(x) && !!row(x, 'att'));

    term.keys('l');
    await term.until('the log, followed', (x) => /── log of att/.test(x) && /typed-through-attach/.test(x) && !/^amux top /m.test(x));
    await h.ok(['send', id, 'a-line-while-following']);
    await term.until('a new line arrives', (x) => /a-line-while-following/.test(x.split('── log of att')[1] ?? ''));
    term.keys('q');
    await term.until('top again after the log', (x) => /^amux top /m.test(x) && !!row(x, 'att'));
    term.keys('q');
    assert.equal(await term.back(), 0);
  });

  test('fits 80×24 and follows resizes to 120×40 and back', async (t) => {
    const h = amuxHome(t);
    const long = 'while :; do echo tick; sleep 1; done # the-end';
    await h.ok(['run', '-n', 'long', '--', long]);
    await h.ok(['run', '-n', 'other', '--', 'sleep 1000']);
    const term = terminal(h, t);
    let s = await term.top();
    const frame = (x: string, height: number) => {
      const ls = lines(x);
      assert.equal(ls.filter((l) => /^amux top /.test(l)).length, 1, `one header:\n${x}`);
      assert.match(ls[0]!, /^amux top .*\? help$/);
      assert.match(ls[height - 2]!, /q quit/, 'the footer is on the last line but one');
    };
    s = await term.until('both rows', (x) => !!row(x, 'long') && !!row(x, 'other'));
    frame(s, 24);
    assert.doesNotMatch(row(s, 'long')!, /the-end/, '80 columns cut the command');

    term.resize(120, 40);
    s = await term.until('the wider frame', (x) => lines(x)[0]!.length > 100 && /q quit/.test(lines(x)[38] ?? '') && !!row(x, 'long'));
    frame(s, 40);
    assert.match(row(s, 'long')!, /the-end/, '120 columns show the whole command');

    term.resize(80, 24);
    s = await term.until('the narrow frame again', (x) => lines(x)[0]!.length <= 80 && /q quit/.test(lines(x)[22] ?? '') && !!row(x, 'long'));
    frame(s, 24);
    assert.ok(lines(s).every((l) => l.length <= 80));
    term.keys('q');
    assert.equal(await term.back(), 0);
  });

  test('restores the terminal on SIGTERM (143), when the daemon stops (3, one line) and on an error (1)', async (t) => {
    const h = amuxHome(t);
    await h.ok(['run', '-n', 'bystander', '--', 'sleep 1000']);
    const term = terminal(h, t);

    await term.top();
    process.kill(term.topPid(), 'SIGTERM');
    assert.equal(await term.back(), 143);

    await term.top();
    await h.ok(['daemon', 'stop']);
    await term.until('one line says why', (x) => /^amux: the daemon stopped; sessions keep running/m.test(x));
    assert.equal(await term.back(), 3);

    for (const how of ['throw', 'render']) {
      await term.top(`AMUX_TEST_TOP_FAIL=${how}`);
      term.keys('!');
      await term.until(`the ${how} failure is reported`, (x) => /^amux: top failed: a (render )?failure asked for by AMUX_TEST_TOP_FAIL/m.test(x));
      assert.equal(await term.back(), 1);
    }
  });

  test('without a terminal it refuses with one line, exit 2', async (t) => {
    const h = amuxHome(t);
    const r = await h.run(['top']);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^amux: top needs a terminal: stdin and stdout must be a TTY; use 'amux ps' or 'amux events -f' from scripts\n$/);
    // A terminal on stdin but a pipe on stdout is no terminal either.
    const term = terminal(h, t);
    term.text(`${process.execPath} ${BIN} top | cat; echo "rc=\${PIPESTATUS[0]} @$((6*7))"`);
    term.keys('Enter');
    await term.until('exit 2 with the message', (x) => /top needs a terminal/.test(x) && /rc=2 @42/.test(x));
  });

  test('NO_COLOR (and --no-color): no colour codes on the screen; without it the statuses are coloured', async (t) => {
    const h = amuxHome(t);
    await h.ok(['run', '-n', 'busy', '--', 'sleep 1000']);
    const done = await h.ok(['run', '-n', 'gone', '--', 'exit 4']);
    await h.until(done, (x) => x.status === 'failed');
    // Colour SGR parameters: 30–38, 40–48, 90–97, 100–107 (bold, dim and inverse are not colours).
    const colours = (x: string) => sgr(x).filter((p) => /^(3[0-8]|4[0-8]|9[0-7]|10[0-7])$/.test(p));
    const ready = (x: string) => !!row(x, 'busy') && /failed/.test(row(x, 'gone') ?? '');

    const coloured = terminal(h, t);
    await coloured.top();
    await coloured.until('rows', ready);
    assert.ok(colours(coloured.screenEscapes()).length > 0, 'a terminal without NO_COLOR shows colours');
    coloured.keys('q');
    await coloured.back();

    for (const [prefix, args] of [['NO_COLOR=1', ''], ['', '--no-color']] as const) {
      await coloured.top(prefix, args);
      await coloured.until('rows', ready);
      await sleep(700); // a refresh or two more
      const raw = coloured.screenEscapes();
      assert.deepEqual(colours(raw), [], `${prefix || args}: no colour codes in\n${JSON.stringify(raw.slice(0, 600))}`);
      assert.ok(sgr(raw).includes('7'), 'the selection is still shown (inverse)');
      coloured.keys('q');
      assert.equal(await coloured.back(), 0);
    }
  });

  test('CPU % and memory of each live session, from one GET /v1/sessions?usage=1', async (t) => {
    const h = amuxHome(t);
    // A loop's share of a CPU is what the machine leaves it: a few % beside a load of 15 on 2 cores.
    // At least 1 %, and more than a sleeper's, holds however busy the machine is.
    const busy = await h.ok(['run', '-n', 'spin', '--', 'while :; do :; done']);
    const sleeper = await h.ok(['run', '--', 'sleep 600']);
    const ended = await h.ok(['run', '--', 'true']);
    await h.until(ended, (x) => x.status === 'completed');
    const plain = await h.api('GET', '/v1/sessions');
    assert.ok(!('cpuPercent' in plain.body[0]), 'only asked for');
    let spin: any;
    let slept: any;
    const deadline = Date.now() + 60_000; // a deadline no load reaches (ADR 0058)
    while (Date.now() < deadline) {
      const r = await h.api('GET', '/v1/sessions?usage=1');
      assert.equal(r.status, 200);
      spin = r.body.find((x: any) => x.id === busy);
      slept = r.body.find((x: any) => x.id === sleeper);
      const done = r.body.find((x: any) => x.id === ended);
      assert.deepEqual([done.cpuPercent, done.rssBytes], [null, null], 'a finished session has no usage');
      assert.ok(spin.rssBytes > 1024 * 1024, 'a bash tree takes more than a MiB');
      if (spin.cpuPercent !== null && spin.cpuPercent >= 1 && slept.cpuPercent !== null) break;
      await sleep(600);
    }
    assert.ok(spin.cpuPercent >= 1, `a CPU loop uses CPU: ${JSON.stringify(spin)}`);
    assert.ok(slept.cpuPercent < spin.cpuPercent, `a sleeper uses less: ${JSON.stringify(slept)}`);
    assert.equal((await h.api('GET', '/v1/sessions?usage=maybe')).status, 400);

    const term = terminal(h, t);
    await term.top();
    await term.until('the loop shows its CPU % and memory', (x) => {
      // REASON, then EXIT (blank), TIME, CPU%, MEM.
      const m = /working +cpu +\S+ +(\d+\.?\d*) +(\d+\.?\d*[KMG]) /.exec(row(x, 'spin') ?? '');
      return m !== null && Number(m[1]) >= 1;
    });
    term.keys('q');
    await term.back();
  });

  test('other commands load neither react nor ink', async (t) => {
    const h = amuxHome(t);
    const probe = join(h.home, 'probe.js');
    writeFileSync(probe, `process.on('exit', () => process.stderr.write('UI-MODULES ' + Object.keys(require.cache).filter((p) => /node_modules\\/(react|ink|yoga-layout)\\//.test(p)).length + '\\n'));\n`);
    const id = await h.ok(['run', '--', 'sleep 100']);
    const sh = await h.ok(['run']);
    await h.until(sh, (x) => x.status === 'idle');
    for (const args of [['ps'], ['run', '--', 'true'], ['exec', sh, '--', 'true'], ['logs', id], ['inspect', id]]) {
      const r = await h.run(args, { env: { NODE_OPTIONS: `--require ${probe}` } });
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /UI-MODULES 0\n/, `amux ${args.join(' ')} loaded no UI module`);
    }
  });
});
