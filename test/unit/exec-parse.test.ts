import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseFast, parseFastExec } from '../../src/cli/fast-path.js';
import { parseExecWords } from '../../src/cli/parse.js';
import { buildProgram } from '../../src/cli/program.js';
import { AmuxError } from '../../src/errors.js';

/** Asserts that `fn` throws an AmuxError with code 'usage' whose message mentions `mention`. */
function assertUsage(fn: () => unknown, mention: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof AmuxError, `an AmuxError, got ${String(err)}`);
    assert.equal(err.code, 'usage');
    assert.equal(err.exitCode, 2);
    assert.match(err.message, mention);
    return true;
  });
}

describe('parseExecWords: options', () => {
  test('no words: no command, no options', () => {
    assert.deepEqual(parseExecWords([]), { cmd: [], opts: {} });
  });

  test('-b and --background', () => {
    assert.deepEqual(parseExecWords(['-b', '--', 'sleep', '9']), { cmd: ['sleep', '9'], opts: { background: true } });
    assert.deepEqual(parseExecWords(['--background', 'sleep', '9']), { cmd: ['sleep', '9'], opts: { background: true } });
  });

  test('-i and --interactive', () => {
    assert.deepEqual(parseExecWords(['-i', '--', 'wc', '-l']), { cmd: ['wc', '-l'], opts: { interactive: true } });
    assert.deepEqual(parseExecWords(['--interactive', 'cat']), { cmd: ['cat'], opts: { interactive: true } });
    assert.deepEqual(parseExecWords(['head', '-i']), { cmd: ['head', '-i'], opts: {} }, "the command's own -i stays in it");
  });

  test('--tty and --json', () => {
    assert.deepEqual(parseExecWords(['--tty', '--', 'vim']), { cmd: ['vim'], opts: { tty: true } });
    assert.deepEqual(parseExecWords(['--json', 'true']), { cmd: ['true'], opts: { json: true } });
  });

  test('all of them together, in any order', () => {
    assert.deepEqual(parseExecWords(['--json', '--timeout', '5s', '-b', '--tty', '--', 'x']), {
      cmd: ['x'], opts: { json: true, timeout: 5000, background: true, tty: true },
    });
  });

  test('--timeout DUR and --timeout=DUR are parsed to ms', () => {
    const cases: [string[], number][] = [
      [['--timeout', '5s'], 5000],
      [['--timeout', '1500ms'], 1500],
      [['--timeout', '2'], 2000],
      [['--timeout', '1h30m'], 5_400_000],
      [['--timeout=90s'], 90_000],
      [['--timeout=5m'], 300_000],
      [['--timeout=0'], 0],
    ];
    for (const [words, ms] of cases) {
      assert.deepEqual(parseExecWords([...words, '--', 'cmd']), { cmd: ['cmd'], opts: { timeout: ms } }, words.join(' '));
    }
  });

  test('the last --timeout wins', () => {
    assert.deepEqual(parseExecWords(['--timeout', '1s', '--timeout=2s', 'x']), { cmd: ['x'], opts: { timeout: 2000 } });
  });

  test('-h and --help answer null (commander shows the help)', () => {
    assert.equal(parseExecWords(['-h']), null);
    assert.equal(parseExecWords(['--help']), null);
    assert.equal(parseExecWords(['-b', '--help', '--', 'ls']), null);
  });

  test('`into` defaults are merged, and not changed', () => {
    const into = { json: true, timeout: 1000 };
    assert.deepEqual(parseExecWords(['-b', '--', 'ls'], into), { cmd: ['ls'], opts: { json: true, timeout: 1000, background: true } });
    assert.deepEqual(parseExecWords(['--timeout', '3s', 'ls'], into), { cmd: ['ls'], opts: { json: true, timeout: 3000 } });
    assert.deepEqual(parseExecWords([], into), { cmd: [], opts: { json: true, timeout: 1000 } });
    assert.deepEqual(into, { json: true, timeout: 1000 });
  });
});

describe('parseExecWords: where the command starts', () => {
  test('at `--`, which is dropped', () => {
    assert.deepEqual(parseExecWords(['--', 'ls', '-la']), { cmd: ['ls', '-la'], opts: {} });
    assert.deepEqual(parseExecWords(['--']), { cmd: [], opts: {} });
  });

  test('a command that starts with - goes after --', () => {
    assert.deepEqual(parseExecWords(['--', '-b', '--json']), { cmd: ['-b', '--json'], opts: {} });
    assert.deepEqual(parseExecWords(['--', '--']), { cmd: ['--'], opts: {} });
  });

  test('at the first word that is not an option: its options stay in the command', () => {
    assert.deepEqual(parseExecWords(['ls', '-la']), { cmd: ['ls', '-la'], opts: {} });
    assert.deepEqual(parseExecWords(['-b', 'grep', '-b', '--json', 'x']), { cmd: ['grep', '-b', '--json', 'x'], opts: { background: true } });
    assert.deepEqual(parseExecWords(['sh', '-c', 'exit 3', '--timeout', '1s']), { cmd: ['sh', '-c', 'exit 3', '--timeout', '1s'], opts: {} });
  });

  test('a `--` inside the command is kept', () => {
    assert.deepEqual(parseExecWords(['git', 'log', '--', 'file']), { cmd: ['git', 'log', '--', 'file'], opts: {} });
    assert.deepEqual(parseExecWords(['--', 'rm', '--', '-f']), { cmd: ['rm', '--', '-f'], opts: {} });
  });

  test('a lone - is a command word', () => {
    assert.deepEqual(parseExecWords(['-', 'x']), { cmd: ['-', 'x'], opts: {} });
  });

  test('a timeout value that looks like a command is taken as the value', () => {
    assert.deepEqual(parseExecWords(['--timeout', '10', 'sleep', '20']), { cmd: ['sleep', '20'], opts: { timeout: 10_000 } });
  });

  test('the words are not changed', () => {
    const words = ['-b', '--', 'echo', "'; rm -rf / #", '$(id)'];
    const copy = [...words];
    assert.deepEqual(parseExecWords(words)?.cmd, ['echo', "'; rm -rf / #", '$(id)']);
    assert.deepEqual(words, copy);
  });
});

describe('parseExecWords: usage errors', () => {
  test('an unknown option', () => {
    assertUsage(() => parseExecWords(['-x', 'ls']), /unknown option '-x'/);
    assertUsage(() => parseExecWords(['--background=yes', 'ls']), /unknown option '--background=yes'/);
    assertUsage(() => parseExecWords(['-bt', 'ls']), /unknown option '-bt'/);
    assertUsage(() => parseExecWords(['--timeoutx=5s', 'ls']), /unknown option/);
    assertUsage(() => parseExecWords(['-la']), /after --/);
  });

  test('--timeout without a value', () => {
    assertUsage(() => parseExecWords(['--timeout']), /--timeout/);
    assertUsage(() => parseExecWords(['--timeout=']), /--timeout/);
    assertUsage(() => parseExecWords(['-b', '--timeout']), /argument missing/);
  });

  test('a bad duration', () => {
    assertUsage(() => parseExecWords(['--timeout', 'soon', 'ls']), /invalid --timeout duration 'soon'/);
    assertUsage(() => parseExecWords(['--timeout=5x', 'ls']), /invalid --timeout duration '5x'/);
    assertUsage(() => parseExecWords(['--timeout', '-1', 'ls']), /invalid --timeout duration '-1'/);
    assertUsage(() => parseExecWords(['--timeout', '--', 'ls']), /invalid --timeout duration '--'/);
  });
});

describe('parseFastExec', () => {
  test('returns the ref, the command and the options', () => {
    assert.deepEqual(parseFastExec(['exec', 'web', '--', 'npm', 'test']), { command: 'exec', ref: 'web', cmd: ['npm', 'test'], opts: {} });
    assert.deepEqual(parseFastExec(['exec', 'abcd1234', '-b', '--timeout', '1m', '--json', '--', 'make']), {
      command: 'exec', ref: 'abcd1234', cmd: ['make'], opts: { background: true, timeout: 60_000, json: true },
    });
    assert.deepEqual(parseFastExec(['exec', 'ab', 'ls', '-la']), { command: 'exec', ref: 'ab', cmd: ['ls', '-la'], opts: {} });
    assert.deepEqual(parseFastExec(['exec', 'ab']), { command: 'exec', ref: 'ab', cmd: [], opts: {} });
  });

  test('parseFast routes exec to it', () => {
    assert.deepEqual(parseFast(['exec', 'web', '--tty', 'top']), { command: 'exec', ref: 'web', cmd: ['top'], opts: { tty: true } });
  });

  test('null when the ref is missing or starts with -', () => {
    for (const args of [['exec'], ['exec', '-b', 'web', '--', 'ls'], ['exec', '--json', 'web'], ['exec', '--', 'web', 'ls'], ['exec', '-h'], ['exec', '-']]) {
      assert.equal(parseFastExec(args), null, args.join(' '));
      assert.equal(parseFast(args), null, args.join(' '));
    }
  });

  test('null for anything but exec, and for help after the ref', () => {
    assert.equal(parseFastExec(['run', 'web', 'ls']), null);
    assert.equal(parseFastExec([]), null);
    assert.equal(parseFastExec(['exec', 'web', '--help']), null);
    assert.equal(parseFast(['exec', 'web', '-h']), null);
  });

  test('an unknown option after the ref is a usage error', () => {
    assertUsage(() => parseFastExec(['exec', 'web', '-q', 'ls']), /unknown option '-q'/);
    assertUsage(() => parseFast(['exec', 'web', '--timeout']), /argument missing/);
  });

  test('hostile command words are passed through literally', () => {
    const hostile = ["'; rm -rf / #", '$(touch /tmp/pwned)', '`id`', 'a\nb', '"$HOME"', '\\', '; exit 1', '*', '--json', '-b', '--'];
    assert.deepEqual(parseFastExec(['exec', 'web', '--', ...hostile]), { command: 'exec', ref: 'web', cmd: hostile, opts: {} });
    assert.deepEqual(parseFastExec(['exec', 'web', 'echo', ...hostile]), { command: 'exec', ref: 'web', cmd: ['echo', ...hostile], opts: {} });
    assert.deepEqual(parseFastExec(['exec', 'web', "echo '$HOME' \"$(id)\"; ls\n`x`"]), {
      command: 'exec', ref: 'web', cmd: ["echo '$HOME' \"$(id)\"; ls\n`x`"], opts: {},
    });
  });
});

/** What `amux exec` makes of an argv through commander: its action is replaced by the parse it does. */
async function execViaCommander(args: string[]): Promise<{ ref: string; cmd: string[]; opts: Record<string, unknown> } | null> {
  const program = buildProgram(() => undefined);
  let seen: { ref: string; cmd: string[]; opts: Record<string, unknown> } | null = null;
  program.commands.find((c) => c.name() === 'exec')!.action((ref: string, words: string[], opts: Record<string, unknown>) => {
    const parsed = parseExecWords(words, { ...opts });
    seen = parsed && { ref, cmd: parsed.cmd, opts: { ...parsed.opts } };
  });
  await program.parseAsync(['node', 'amux', ...args]);
  return seen;
}

describe('exec options before the ref (commander)', () => {
  test('-i before the ref, as with docker exec -i', async () => {
    assert.deepEqual(await execViaCommander(['exec', '-i', 'web', '--', 'cat']), { ref: 'web', cmd: ['cat'], opts: { interactive: true } });
    assert.deepEqual(await execViaCommander(['exec', '--interactive', '--json', 'web', 'cat']), { ref: 'web', cmd: ['cat'], opts: { interactive: true, json: true } });
  });
});

describe('parseFastExec agrees with commander', () => {
  const cases = [
    ['exec', 'web', '--', 'ls'],
    ['exec', 'web', 'ls', '-la'],
    ['exec', 'web', '-b', '--', 'sleep', '10'],
    ['exec', 'web', '--timeout', '5s', '--json', '--', 'make', '-j4'],
    ['exec', 'web', '--timeout=1m', '--tty', 'vim'],
    ['exec', 'web', '--', "echo '$HOME'; ls"],
    ['exec', 'web', 'git', 'log', '--', 'x'],
    ['exec', 'web', '-i', '--', 'wc', '-l'],
    ['exec', 'web', '--interactive', '--json', 'cat'],
  ];
  for (const args of cases) {
    test(args.join(' '), async () => {
      const fast = parseFastExec(args);
      assert.ok(fast && fast.command === 'exec', 'the fast path takes it');
      const slow = await execViaCommander(args);
      assert.ok(slow);
      const clean = (o: object) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
      assert.deepEqual({ ref: fast.ref, cmd: fast.cmd, opts: clean(fast.opts) }, { ref: slow.ref, cmd: slow.cmd, opts: clean(slow.opts) });
    });
  }
});
