import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CommanderError } from 'commander';
import { parseExecWords } from '../../src/cli/parse.js';
import { buildProgram } from '../../src/cli/program.js';
import { BIN } from '../helpers/amux.js';

/** Runs the built CLI without a daemon (none of these commands needs one). */
function amux(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', AMUX_HOME: '/nonexistent/amux-help-test' };
  delete env.NODE_EXTRA_CA_CERTS;
  const r = spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The command lines of the help's closing "Examples:" block (each below its `# what` line). */
function examplesOf(help: string): string[] {
  const at = help.lastIndexOf('\nExamples:\n');
  assert.ok(at >= 0, `an Examples block in:\n${help}`);
  return help
    .slice(at + '\nExamples:\n'.length)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

/** Shell words of an example up to its first pipe, list or redirection; substitutions become an id. */
function words(line: string): string[] {
  const text = line.replace(/\$\([^)]*\)/g, '3f9a01bc').replace(/\$\w+/g, '3f9a01bc');
  const out: string[] = [];
  for (const m of text.matchAll(/'([^']*)'|"([^"]*)"|([|;<>&])|([^\s|;<>&]+)/g)) {
    if (m[3]) break;
    out.push(m[1] ?? m[2] ?? m[4]!);
  }
  return out;
}

const program = buildProgram(() => undefined);
const names = program.commands.map((c) => c.name());

describe('help that teaches (ADR 0023)', () => {
  test('every command, and amux itself, ends its --help with 2–4 examples, each a line that runs amux', () => {
    for (const args of [['--help'], ...names.map((n) => [n, '--help'])]) {
      const r = amux(args);
      assert.equal(r.code, 0, `amux ${args.join(' ')}: ${r.stderr}`);
      const lines = examplesOf(r.stdout);
      assert.ok(lines.length >= 2 && lines.length <= 4, `amux ${args.join(' ')}: ${lines.length} examples`);
      for (const line of lines) {
        const [first] = words(line).filter((w) => !/^[A-Z_]+=/.test(w)); // an environment prefix (AMUX_HOME=…) may lead
        assert.equal(first, 'amux', `amux ${args.join(' ')}: "${line}" runs amux`);
      }
      if (args.length === 2) assert.ok(lines.every((l) => l.includes(`amux ${args[0]}`)), `amux ${args[0]} examples use ${args[0]}`);
    }
  });

  test('the fast paths still answer --help: ps, run, exec (also after its ID)', () => {
    for (const args of [['ps', '--help'], ['run', '-h'], ['exec', '--help'], ['exec', 'web', '--help']]) {
      const r = amux(args);
      assert.equal(r.code, 0, args.join(' '));
      assert.match(r.stdout, new RegExp(`^Usage: amux ${args[0]}`));
      assert.match(r.stdout, /\nExamples:\n/);
    }
  });

  test("every example parses: its command, flags, values and arguments are what amux accepts", async () => {
    for (const cmd of program.commands) {
      const r = amux([cmd.name(), '--help']);
      for (const line of examplesOf(r.stdout)) {
        const argv = words(line).filter((w) => !/^[A-Z_]+=/.test(w));
        // A fresh program whose actions only check what commander parsed (exec reads its words itself).
        const probe = buildProgram(() => undefined);
        let ran = false;
        for (const c of probe.commands) {
          c.exitOverride().configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
          c.action((...a: unknown[]) => {
            if (c.name() === 'exec') assert.ok(parseExecWords(a[1] as string[]), line);
            ran = true;
          });
        }
        probe.exitOverride().configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
        assert.equal(argv[0], 'amux', line);
        try {
          await probe.parseAsync(argv.slice(1), { from: 'user' });
        } catch (err) {
          assert.fail(`"${line}" does not parse: ${err instanceof CommanderError ? err.message : String(err)}`);
        }
        assert.ok(ran, `"${line}" ran a command`);
      }
    }
  });

  test('amux alone prints a short overview of the common commands and exits 0', () => {
    const r = amux([]);
    assert.equal(r.code, 0);
    assert.equal(r.stderr, '');
    const lines = r.stdout.trimEnd().split('\n');
    assert.ok(lines.length <= 25, `${lines.length} lines`);
    assert.match(r.stdout, /'amux --help' lists every command/);
    const full = amux(['--help']).stdout;
    assert.ok(full.split('\n').length > lines.length, 'shorter than the full reference');
    // Every command it names exists.
    const named = [...r.stdout.matchAll(/(?:^ {2}|; )amux ([a-z]+)/gm)].map((m) => m[1]!);
    assert.ok(named.length >= 8);
    for (const n of named) assert.ok(names.includes(n), `amux ${n} is a command`);
  });

  test('amux --version prints the version of package.json', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const r = amux([flag]);
      assert.equal(r.code, 0);
      assert.equal(r.stdout, `${pkg.version}\n`);
    }
  });

  test('bad input: one line and exit 2 (completion tcsh, no shell, an unknown command)', () => {
    for (const [args, message] of [[['completion', 'tcsh'], /no completion for shell 'tcsh': use bash, zsh, fish/], [['completion'], /completion needs <shell>: amux completion .*<shell>/], [['bogus'], /unknown command 'bogus' \(Did you mean/]] as const) {
      const r = amux([...args]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^amux: [^\n]+\n$/);
      assert.match(r.stderr, message);
    }
  });

  test('the words helper reads the examples as a shell would, up to a pipe or redirection', () => {
    assert.deepEqual(words("amux exec sh -- 'cd src && make'"), ['amux', 'exec', 'sh', '--', 'cd src && make']);
    assert.deepEqual(words('amux wait $id; echo $?'), ['amux', 'wait', '3f9a01bc']);
    assert.deepEqual(words('amux completion bash > ~/x'), ['amux', 'completion', 'bash']);
  });
});
