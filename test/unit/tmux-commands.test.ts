import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import {
  PANE_FORMAT, attachArgs, chunkFilter, capturePaneArgs, captureScript, pasteTextCalls, exactSession, formatLiteral, killSessionArgs,
  listPanesArgs, newSessionArgs, parseCaptures, parsePanes, sendKeysArgs, sendTextArgs, tmuxLiteral, tmuxSessionName,
} from '../../src/tmux/commands.js';

/** What tmux's argv parser does to one argument ending in `;` (cmd-parse.c): drop it; a `\` before it becomes `;`. */
/** What tmux makes of a format argument: `##` becomes `#`, then strftime's `%%` becomes `%`. */
function unformat(arg: string): string {
  return arg.replace(/##|%%/g, (m) => m[0]!);
}

function tmuxUnescape(arg: string): string {
  if (!arg.endsWith(';')) return arg;
  const s = arg.slice(0, -1);
  assert.ok(s.endsWith('\\'), `${JSON.stringify(arg)} would end the tmux command`);
  return `${s.slice(0, -1)};`;
}

describe('tmuxLiteral', () => {
  const cases: [string, string][] = [
    ['echo hi', 'echo hi'],
    ['a;', 'a\\;'],
    [';', '\\;'],
    ['a;b', 'a;b'],
    ['a\\;', 'a\\\\;'],
    ['', ''],
    ['; ', '; '],
  ];
  for (const [input, out] of cases) {
    test(`${JSON.stringify(input)} → ${JSON.stringify(out)}`, () => {
      assert.equal(tmuxLiteral(input), out);
    });
  }

  for (const text of ['ls;', ';', 'a\\;', ';;', 'x \\ ;']) {
    test(`${JSON.stringify(text)} arrives literally after tmux unescapes it`, () => {
      assert.equal(tmuxUnescape(tmuxLiteral(text)), text);
    });
  }
});

describe('formatLiteral', () => {
  test("'#' becomes '##'", () => {
    assert.equal(formatLiteral('#{pane_id} ## #S'), '##{pane_id} #### ##S');
    assert.equal(formatLiteral('no hash'), 'no hash');
    // tmux runs strftime(3) after formats: an unescaped %06d would become the day of the month
    assert.equal(formatLiteral('printf %06d ${F%.*} 100%'), 'printf %%06d ${F%%.*} 100%%');
  });
});

describe('names and small argv builders', () => {
  test('session names and exact targets', () => {
    assert.equal(tmuxSessionName('abcd1234'), 'amux-abcd1234');
    assert.equal(exactSession('abcd1234'), '=amux-abcd1234');
  });

  test('list-panes', () => {
    assert.deepEqual(listPanesArgs(), ['list-panes', '-a', '-F', PANE_FORMAT]);
    assert.equal(PANE_FORMAT.split('\t').length, 9);
  });

  test('kill, attach, capture', () => {
    assert.deepEqual(killSessionArgs('abcd1234'), ['kill-session', '-t', '=amux-abcd1234']);
    assert.deepEqual(attachArgs('abcd1234', false), ['attach-session', '-t', '=amux-abcd1234']);
    assert.deepEqual(attachArgs('abcd1234', true), ['attach-session', '-r', '-t', '=amux-abcd1234']);
    assert.deepEqual(capturePaneArgs('%3', false), ['capture-pane', '-p', '-t', '%3']);
    assert.deepEqual(capturePaneArgs('%3', true), ['capture-pane', '-p', '-e', '-t', '%3']);
  });

  test('sendTextArgs types literally, after --', () => {
    assert.deepEqual(sendTextArgs('%7', 'echo hi'), ['send-keys', '-t', '%7', '-l', '--', 'echo hi']);
    assert.deepEqual(sendTextArgs('%7', 'ls;'), ['send-keys', '-t', '%7', '-l', '--', 'ls\\;']);
    assert.deepEqual(sendTextArgs('%7', '-n'), ['send-keys', '-t', '%7', '-l', '--', '-n']);
    assert.deepEqual(sendTextArgs('%7', '#{pane_id}'), ['send-keys', '-t', '%7', '-l', '--', '#{pane_id}']);
  });

  test('sendKeysArgs escapes a trailing ; in every key', () => {
    assert.deepEqual(sendKeysArgs('%7', ['C-c', ';', 'Enter']), ['send-keys', '-t', '%7', '--', 'C-c', '\\;', 'Enter']);
  });

  test('captureScript: one separator and one capture per pane', () => {
    assert.equal(
      captureScript(['%1', '%22'], '@@S@@'),
      "display-message -p -t %1 '@@S@@ #{pane_id}'\ncapture-pane -p -t %1\ndisplay-message -p -t %22 '@@S@@ #{pane_id}'\ncapture-pane -p -t %22\n",
    );
    assert.equal(captureScript([], '@@S@@'), '');
  });
});

describe('newSessionArgs', () => {
  const spec = {
    id: 'abcd1234',
    bash: '/usr/bin/bash',
    timeout: '/usr/bin/timeout',
    rcfile: '/home/u/.amux/sessions/abcd1234/rc',
    logPrefix: "/home/u/my #1 'logs'/abcd1234/log.",
    chunkBytes: 4096,
    keepChunks: 8,
  };

  test('the whole argv', () => {
    assert.deepEqual(newSessionArgs(spec), [
      'new-session', '-d', '-s', 'amux-abcd1234', '-x', '80', '-y', '24', '-P', '-F', '#{pane_id}\t#{pane_pid}',
      '--', '/usr/bin/timeout', '--foreground', '0', '/usr/bin/bash', '--noprofile', '--rcfile', '/home/u/.amux/sessions/abcd1234/rc', '-i',
      ';', 'set-option', '-w', '-t', '=amux-abcd1234:', 'remain-on-exit', 'on',
      ';', 'pipe-pane', '-O', '-t', '=amux-abcd1234:',
      newSessionArgs(spec).at(-1),
    ]);
    const pipe = newSessionArgs(spec).at(-1)!;
    assert.ok(pipe.startsWith('SHELL=/bin/sh exec split -b 4096 -a 6 -d --filter='), pipe);
    assert.ok(pipe.endsWith(" - '/home/u/my ##1 '\\''logs'\\''/abcd1234/log.'"), pipe);
  });

  test('width and height', () => {
    const args = newSessionArgs({ ...spec, width: 80, height: 24 });
    assert.deepEqual(args.slice(4, 8), ['-x', '80', '-y', '24']);
  });

  test('the ; separators are separate elements, and no other element ends in an unescaped ;', () => {
    const args = newSessionArgs({ ...spec, rcfile: '/tmp/odd;', bash: '/opt/b;', timeout: '/opt/t;' });
    assert.deepEqual(args.map((a, i) => (a === ';' ? i : -1)).filter((i) => i >= 0), [20, 27]);
    for (const [i, a] of args.entries()) {
      if (a !== ';' && a.endsWith(';')) assert.ok(a.endsWith('\\;'), `element ${i} ${JSON.stringify(a)}`);
    }
    assert.equal(tmuxUnescape(args[18]!), '/tmp/odd;');
    assert.equal(tmuxUnescape(args[15]!), '/opt/b;');
    assert.equal(tmuxUnescape(args[12]!), '/opt/t;');
  });

  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  test('the pipe-pane command writes chunks under a hostile log path when /bin/sh runs it', () => {
    const base = mkdtempSync(join(tmpdir(), 'amux-unit-'));
    dirs.push(base);
    const logDir = join(base, "we$ird 'dir' #{x} `id` $(id);");
    mkdirSync(logDir);
    const args = newSessionArgs({ ...spec, logPrefix: `${logDir}/log.`, chunkBytes: 5 });
    // tmux expands the pipe-pane argument as a format ('##' → '#') and hands it to /bin/sh -c.
    const pipe = tmuxUnescape(args[args.length - 1]!);
    assert.ok(!pipe.replace(/##/g, '').includes('#'), 'every # is doubled');
    assert.ok(!pipe.replace(/%%/g, '').includes('%'), 'every % is doubled');
    execFileSync('/bin/sh', ['-c', unformat(pipe)], { input: 'hello world', cwd: base });
    assert.deepEqual(readdirSync(logDir).sort(), ['log.000000', 'log.000001', 'log.000002']);
    assert.equal(readFileSync(join(logDir, 'log.000000'), 'utf8'), 'hello');
    assert.equal(readFileSync(join(logDir, 'log.000002'), 'utf8'), 'd');
    assert.deepEqual(readdirSync(base), [basename(logDir)], 'nothing written anywhere else');
  });

  test('the capture pipeline keeps only the newest keepChunks chunks (the cap holds without the daemon)', () => {
    const base = mkdtempSync(join(tmpdir(), 'amux-unit-'));
    dirs.push(base);
    const logDir = join(base, 'a #b');
    mkdirSync(logDir);
    const args = newSessionArgs({ ...spec, logPrefix: `${logDir}/log.`, chunkBytes: 4, keepChunks: 2 });
    const pipe = unformat(tmuxUnescape(args[args.length - 1]!));
    execFileSync('/bin/sh', ['-c', pipe], { input: '0123456789abcdefghij', cwd: base });
    assert.deepEqual(readdirSync(logDir).sort(), ['log.000003', 'log.000004']);
    assert.equal(readFileSync(join(logDir, 'log.000003'), 'utf8'), 'cdef');
    assert.equal(readFileSync(join(logDir, 'log.000004'), 'utf8'), 'ghij');
  });

  test('a job stream\'s filter: the ring past chunk 000009 (suffixes read as decimal), and `hold` keeps them all', () => {
    for (const held of [false, true]) {
      const dir = mkdtempSync(join(tmpdir(), 'amux-unit-'));
      dirs.push(dir);
      if (held) writeFileSync(join(dir, 'hold'), '');
      // Job streams are written from inside their directory (ADR 0026): relative names.
      const filter = chunkFilter(3, true);
      execFileSync('split', ['-b', '4', '-a', '6', '-d', `--filter=${filter}`, '-', 'out.'], { input: 'x'.repeat(44) + 'last', cwd: dir, env: { ...process.env, SHELL: '/bin/sh' } });
      const chunks = readdirSync(dir).filter((f) => f.startsWith('out.')).sort();
      if (held) assert.equal(chunks.length, 12);
      else assert.deepEqual(chunks, ['out.000009', 'out.000010', 'out.000011']);
      assert.equal(readFileSync(join(dir, 'out.000011'), 'utf8'), 'last');
    }
  });
});

describe('captureScript', () => {
  test('display-message text has no literal % (tmux runs it through strftime: %12 → width 12)', () => {
    const script = captureScript(['%3', '%12', '%123'], '@@sep@@');
    for (const line of script.split('\n').filter((l) => l.startsWith('display-message'))) {
      const text = line.slice(line.indexOf("'"));
      assert.ok(!text.includes('%'), line);
    }
    assert.match(script, /display-message -p -t %12 '@@sep@@ #\{pane_id\}'\ncapture-pane -p -t %12\n/);
  });
});

describe('parsePanes', () => {
  test('tab-separated fields, dead flag, empty dead status → null', () => {
    const out =
      'amux-abcd1234\t%3\t12345\t0\t\t10\t5\t100\n' +
      'amux-ffff0000\t%4\t999\t1\t137\t0\t1\t0\n' +
      'amux-00000001\t%5\t42\t1\t\t2\t3\t4\n' +
      'amux-00000002\t%6\t43\t1\t\t0\t0\t0\t9\n';
    assert.deepEqual(parsePanes(out), [
      { sessionName: 'amux-abcd1234', paneId: '%3', panePid: 12345, dead: false, deadStatus: null, cursorX: 10, cursorY: 5, historySize: 100, deadSignal: null },
      { sessionName: 'amux-ffff0000', paneId: '%4', panePid: 999, dead: true, deadStatus: 137, cursorX: 0, cursorY: 1, historySize: 0, deadSignal: null },
      { sessionName: 'amux-00000001', paneId: '%5', panePid: 42, dead: true, deadStatus: null, cursorX: 2, cursorY: 3, historySize: 4, deadSignal: null },
      // killed by a signal (tmux ≥ 3.3): no status, the signal's number
      { sessionName: 'amux-00000002', paneId: '%6', panePid: 43, dead: true, deadStatus: null, cursorX: 0, cursorY: 0, historySize: 0, deadSignal: 9 },
    ]);
  });

  test('dead status 0 is 0, not null', () => {
    assert.equal(parsePanes('amux-a\t%1\t1\t1\t0\t0\t0\t0')[0]!.deadStatus, 0);
  });

  test('short lines and empty output are skipped', () => {
    assert.deepEqual(parsePanes(''), []);
    assert.deepEqual(parsePanes('\n\nno tabs here\namux-a\t%1\t1\n'), []);
  });
});

describe('parseCaptures', () => {
  const SEP = '@@amux-k3j2h1@@';

  test('splits the output of a capture script by pane', () => {
    const out = `${SEP} %1\n$ ls\nfile\n\n${SEP} %22\n\n${SEP} %3\nlast`;
    const m = parseCaptures(out, SEP);
    assert.deepEqual([...m.entries()], [
      ['%1', '$ ls\nfile\n\n'],
      ['%22', '\n'],
      ['%3', 'last'],
    ]);
  });

  test('text before the first separator and a cut-off separator line are ignored', () => {
    const m = parseCaptures(`noise\n${SEP} %1\nscreen\n${SEP} %2`, SEP);
    assert.deepEqual([...m.entries()], [['%1', 'screen\n']]);
  });

  test('no separator → nothing', () => {
    assert.equal(parseCaptures('just text\n', SEP).size, 0);
  });
});

describe('pasteTextCalls', () => {
  test('one line goes in as one call: into a buffer, pasted (bracketed when the program asked), no Enter', () => {
    assert.deepEqual(pasteTextCalls('=amux-x:', 'B', 'ls -la'), {
      calls: [['set-buffer', '-b', 'B', '--', 'ls -la', ';', 'paste-buffer', '-p', '-d', '-b', 'B', '-t', '=amux-x:']],
      stdin: null,
    });
  });

  test('text that tmux would parse arrives literally: a trailing ;, a leading -, a format', () => {
    for (const text of ['ls;', '-n', '#{pane_id}', "it's \\ $HOME"]) {
      const { calls } = pasteTextCalls('T', 'B', text);
      assert.equal(tmuxUnescape(calls[0]![4]!), text);
      assert.equal(calls[0]![3], '--');
    }
  });

  test('multi-line or long text goes through stdin, then the paste', () => {
    for (const text of ['a\nb', 'x'.repeat(5000), 'a\rb']) {
      assert.deepEqual(pasteTextCalls('T', 'B', text), {
        calls: [['load-buffer', '-b', 'B', '-'], ['paste-buffer', '-p', '-d', '-b', 'B', '-t', 'T']],
        stdin: text,
      });
    }
  });

  test('an argument stays under the 16 KiB message limit even in 4-byte characters', () => {
    const { calls, stdin } = pasteTextCalls('T', 'B', '😀'.repeat(2000));
    assert.equal(stdin, null);
    assert.ok(Buffer.byteLength(calls[0]!.join(' ')) < 16 * 1024);
  });
});

describe('tmux errors that mean the target is gone', () => {
  test("can't find session, no server, and tmux 3.3a's 'no current target' are not-found; others are not", async () => {
    const { TmuxCommandError } = await import('../../src/tmux/tmux.js');
    for (const stderr of ["can't find session: amux-1", 'no server running on /tmp/x', 'no current target']) {
      assert.equal(new TmuxCommandError('kill-session', stderr, null).notFound, true, stderr);
    }
    assert.equal(new TmuxCommandError('kill-session', 'unknown option -- z', null).notFound, false);
  });
});
