import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PsOptions } from '../../src/cli/commands/ps.js';
import { parseFast, parseFastPs, parseFastRun, type FastCommand } from '../../src/cli/fast-path.js';
import { buildProgram } from '../../src/cli/program.js';
import { VERSION } from '../../src/version.js';

/** What commander makes of the same argv for `ps` (its action is replaced, nothing runs). */
async function viaCommander(args: string[]): Promise<PsOptions> {
  const program = buildProgram(() => undefined);
  let seen: PsOptions | undefined;
  program.commands.find((c) => c.name() === 'ps')!.action((opts: PsOptions) => {
    seen = opts;
  });
  await program.parseAsync(['node', 'amux', ...args]);
  return seen!;
}

/** Commander fills defaults (trunc: true); the fast path leaves them out. Compare meaning. */
const meaning = (o: PsOptions) => ({ quiet: o.quiet === true, json: o.json === true, status: o.status, trunc: o.trunc !== false });

describe('parseFastPs agrees with commander', () => {
  const cases = [
    ['ps'],
    ['ps', '-q'],
    ['ps', '--quiet', '--json'],
    ['ps', '--status', 'working,idle'],
    ['ps', '--status=failed'],
    ['ps', '--no-trunc', '-q'],
    ['ps', '--no-color'],
  ];
  for (const args of cases) {
    test(args.join(' '), async () => {
      const fast = parseFastPs(args);
      assert.ok(fast, 'the fast path takes it');
      assert.deepEqual(meaning(fast), meaning(await viaCommander(args)));
    });
  }

  test('anything else goes to commander', () => {
    for (const args of [['ps', '--help'], ['ps', '-h'], ['ps', '-qa'], ['ps', '--status'], ['ps', '--status', '--json'], ['ps', 'extra'], ['run', 'ps'], [], ['--no-color', 'ps']]) {
      assert.equal(parseFastPs(args), null, args.join(' '));
    }
  });
});

/** What commander makes of a `run` argv: the command words and the options. */
async function runViaCommander(args: string[]): Promise<{ cmd: string[]; opts: Record<string, unknown> }> {
  const program = buildProgram(() => undefined);
  let seen: { cmd: string[]; opts: Record<string, unknown> } | undefined;
  program.commands.find((c) => c.name() === 'run')!.action((cmd: string[], opts: Record<string, unknown>) => {
    seen = { cmd, opts: { ...opts } };
  });
  await program.parseAsync(['node', 'amux', ...args]);
  return seen!;
}

describe('parseFastRun agrees with commander', () => {
  const cases = [
    ['run'],
    ['run', '--', 'make', '-j4'],
    ['run', '--', 'echo $HOME; ls'],
    ['run', 'ls', '-la'],
    ['run', '-n', 'web', '-C', '/tmp', '--', 'npm', 'start'],
    ['run', '--name=web', '--cwd=/tmp', '-w', '--rm', '--json', '--', 'true'],
    ['run', '-e', 'A=1', '-e', 'B=two words', '--env', 'C=', '--', 'env'],
    ['run', '-w', 'sh', '-c', 'exit 3', '-n', 'not-an-option-here'],
    ['run', '--', '--', '-n'],
    ['run', '--timeout', '5s', '--idle-timeout=1m30s', '--', 'x'],
  ];
  for (const args of cases) {
    test(args.join(' '), async () => {
      const fast = parseFastRun(args);
      assert.ok(fast && fast.command === 'run', 'the fast path takes it');
      const slow = await runViaCommander(args);
      assert.deepEqual(fast.cmd, slow.cmd);
      const clean = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
      assert.deepEqual(clean(fast.opts as Record<string, unknown>), clean(slow.opts));
    });
  }

  test('anything else goes to commander', () => {
    for (const args of [['run', '-h'], ['run', '--help'], ['run', '-wn', 'x'], ['run', '-n'], ['run', '-n', '-w'], ['run', '--bogus'], ['run', '--timeout'], ['run', '--idle-timeout', '-w']]) {
      assert.equal(parseFastRun(args), null, args.join(' '));
    }
  });

  test('a bad --env is the same usage error on both paths', async () => {
    const isUsage = (e: any) => e.code === 'usage' && e.exitCode === 2;
    assert.throws(() => parseFastRun(['run', '-e', '1BAD=x', '--', 'true']), isUsage);
    await assert.rejects(runViaCommander(['run', '-e', '1BAD=x', '--', 'true']), isUsage);
  });
});

describe('parseFast', () => {
  test('routes ps, run, exec and a lone --version, nothing else', () => {
    assert.equal(parseFast(['ps', '-q'])?.command, 'ps');
    assert.equal(parseFast(['run', '--', 'true'])?.command, 'run');
    assert.equal(parseFast(['exec', 'abc', '--', 'true'])?.command, 'exec');
    assert.equal(parseFast(['logs', '--stack', 'x']), null);
    assert.equal(parseFast([]), null);
    assert.equal(parseFast(['--version'])?.command, 'version');
    assert.equal(parseFast(['-V'])?.command, 'version');
    assert.equal(parseFast(['--version', 'ps']), null);
  });

  test('--version prints what commander prints', () => {
    let out = '';
    const program = buildProgram(() => undefined);
    program.exitOverride();
    program.configureOutput({ writeOut: (s) => (out += s) });
    assert.throws(() => program.parse(['node', 'amux', '--version']), { code: 'commander.version' });
    assert.equal(out, `${VERSION}\n`);
  });
});

/** What commander makes of a `state` argv. */
async function stateViaCommander(args: string[]): Promise<{ state: string; opts: Record<string, unknown> }> {
  const program = buildProgram(() => undefined);
  let seen: { state: string; opts: Record<string, unknown> } | undefined;
  program.commands.find((c) => c.name() === 'state')!.action((state: string, opts: Record<string, unknown>) => {
    seen = { state, opts: { ...opts } };
  });
  await program.parseAsync(['node', 'amux', ...args]);
  return seen!;
}

describe('parseFastState agrees with commander', () => {
  const cases = [
    ['state', 'ready'],
    ['state', 'waiting', '-m', 'approve: edit src/x.ts?'],
    ['state', 'waiting', '--message=a b', '--ttl', '10m', '--json'],
    ['state', '--session', 'abc', 'working', '--ttl=90s'],
  ];
  for (const args of cases) {
    test(args.join(' '), async () => {
      const fast = parseFast(args);
      assert.ok(fast && fast.command === 'state', 'the fast path takes it');
      const slow = await stateViaCommander(args);
      assert.deepEqual({ state: fast.state, opts: fast.opts }, slow);
    });
  }

  test('anything else goes to commander', () => {
    for (const args of [['state'], ['state', '--help'], ['state', 'a', 'b'], ['state', 'ready', '-m'], ['state', 'ready', '-x'], ['state', 'ready', '-m', '-dash']]) {
      assert.equal(parseFast(args), null, args.join(' '));
    }
  });

  test('ps --attention takes the fast path', () => {
    assert.deepEqual(parseFast(['ps', '--attention', '-q']), { command: 'ps', opts: { attention: true, quiet: true } });
  });
});

/** What commander makes of an argv for a verb whose action takes (operands…, opts): each operand argument, then the options. */
async function verbViaCommander(verb: string, args: string[]): Promise<unknown[]> {
  const program = buildProgram(() => undefined);
  let seen: unknown[] | undefined;
  program.commands.find((c) => c.name() === verb)!.action((...got: unknown[]) => {
    seen = got.slice(0, -1).map((x) => (x !== null && typeof x === 'object' && !Array.isArray(x) ? { ...x } : x));
  });
  await program.parseAsync(['node', 'amux', ...args]);
  return seen!;
}

const defined = (o: object) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/**
 * Each argv of `cases` is taken by the fast path as commander takes it: `actionArgs` gives what the
 * fast command stands for as commander's action would get it (its operands, then its options).
 */
function agreesWithCommander(verb: string, cases: string[][], actionArgs: (fast: FastCommand) => unknown[]): void {
  for (const args of cases) {
    test(args.join(' '), async () => {
      const fast = parseFast(args);
      assert.ok(fast && fast.command === verb, 'the fast path takes it');
      const slow = await verbViaCommander(verb, args);
      assert.deepEqual(actionArgs(fast), [...slow.slice(0, -1), defined(slow.at(-1) as object)]);
    });
  }
}

/** Each argv is left to commander: the fast path returns null. */
function leftToCommander(argvs: string[][]): void {
  test('anything else goes to commander', () => {
    for (const args of argvs) assert.equal(parseFast(args), null, args.join(' '));
  });
}

describe('parseFastWait agrees with commander', () => {
  agreesWithCommander('wait', [
    ['wait', 'abc'],
    ['wait', 'a', 'b', 'c'],
    ['wait', '--until', 'idle', 'repl'],
    ['wait', 'web', '--until', 'output:listening on', '--timeout', '1m'],
    ['wait', '--any', '--until=attention', 'build', 'test', '--json'],
    ['wait', '--after', '42', '--since-offset=1024', '--until', 'output:x', 'id1'],
    ['wait', 'host:abc', '--timeout=90s'],
    ['wait', '--', 'abc'],
  ], (f) => (f.command === 'wait' ? [f.refs, f.opts] : []));
  leftToCommander([['wait'], ['wait', '--help'], ['wait', '-h', 'x'], ['wait', 'x', '--until'], ['wait', 'x', '--until', '-q'], ['wait', 'x', '--bogus'], ['wait', '--json']]);
});

describe('parseFastSend agrees with commander', () => {
  agreesWithCommander('send', [
    ['send', 'repl', 'print(1 + 1)'],
    ['send', 'repl', 'two', 'words'],
    ['send', '--keys', 'repl', 'C-c'],
    ['send', '--json', 'repl', '2+2'],
    ['send', 'repl', '--no-enter', 'partial'],
    ['send', '--when', 'idle', '--timeout', '1m', 'repl', 'exit()'],
    ['send', '--when=ready', 'repl', '--', '-n', '--json'],
    ['send', 'repl'],
  ], (f) => (f.command === 'send' ? [f.ref, f.words, f.opts] : []));
  leftToCommander([['send'], ['send', '--help'], ['send', 'x', '-n'], ['send', 'x', '--when'], ['send', 'x', '--keys=1'], ['send', '--json']]);
});

describe('parseFastLogs agrees with commander', () => {
  agreesWithCommander('logs', [
    ['logs', 'web'],
    ['logs', '-f', 'web'],
    ['logs', 'web', '-n', '20'],
    ['logs', '--tail=5', '--raw', 'web'],
    ['logs', '--screen', 'repl'],
    ['logs', '--json', '--since-offset', '1024', '--limit=4096', 'job-3f9a01bc-2', '--stderr'],
    ['logs', '--follow', '-t', '--stdout', 'job-3f9a01bc-2'],
    ['logs', 'host:web', '--timestamps'],
  ], (f) => (f.command === 'logs' ? [f.ref, f.opts] : []));
  leftToCommander([['logs'], ['logs', '--help'], ['logs', 'a', 'b'], ['logs', '-ft', 'x'], ['logs', '-n5', 'x'], ['logs', '--stack', 'app'], ['logs', '--since', '10m', 'x'], ['logs', 'x', '--until=5m'], ['logs', 'x', '-n']]);
});

describe('a bad value is the same usage error on both paths', () => {
  test('checked in argv order, a repeated one too', async () => {
    const cases = [
      ['wait', 'x', '--timeout', 'soon'],
      ['wait', 'x', '--after', '1.5'],
      ['wait', '--timeout', 'soon', '--timeout', '5s', 'web'],
      ['wait', '--since-offset', 'x', '--timeout', 'y', 'id'],
      ['send', '--timeout', 'never', '--timeout', '1m', 'repl', 'hi'],
      ['logs', 'x', '-n', 'ten'],
      ['logs', '-n', 'x', '--tail', '5', 'web'],
      ['logs', '--limit', '-1'],
    ];
    let checked = 0;
    for (const args of cases) {
      let fast: any = null;
      try {
        if (parseFast(args) === null) continue; // commander's alone
      } catch (e) {
        fast = e;
      }
      assert.ok(fast && fast.code === 'usage' && fast.exitCode === 2, `${args.join(' ')}: the fast path refuses it`);
      await assert.rejects(verbViaCommander(args[0]!, args), (e: any) => e.code === 'usage' && e.exitCode === 2 && e.message === fast.message, args.join(' '));
      checked++;
    }
    assert.equal(checked, cases.length - 1, 'all but --limit -1 (a value that starts with -: commander\'s) are the fast path\'s');
  });
});
