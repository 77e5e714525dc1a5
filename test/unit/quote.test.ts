import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { quoteArgv, shellQuote } from '../../src/core/quote.js';

/** Runs `printf '%s\0' <quoted words>` in a real bash and returns the words it printed. */
function bashWords(words: readonly string[]): string[] {
  const out = execFileSync('bash', ['--norc', '--noprofile', '-c', `printf '%s\\0' ${quoteArgv(words)}`], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent-home' },
    maxBuffer: 16 * 1024 * 1024,
  });
  const parts = out.toString('utf8').split('\0');
  assert.equal(parts.pop(), '', 'output ends with a NUL');
  return parts;
}

describe('shellQuote', () => {
  const cases: [string, string][] = [
    ['', "''"],
    ['abc', 'abc'],
    ['/usr/bin/env', '/usr/bin/env'],
    ['a=b,c:d@e%f+g.h-i_j', 'a=b,c:d@e%f+g.h-i_j'],
    ['a b', "'a b'"],
    ["it's", `'it'\\''s'`],
    ["'", `''\\'''`],
    ['$HOME', "'$HOME'"],
    ['`id`', "'`id`'"],
    ['$(id)', "'$(id)'"],
    ['*', "'*'"],
    ['~', "'~'"],
    ['a;b', "'a;b'"],
    ['!', "'!'"],
    ['line1\nline2', "'line1\nline2'"],
    ['é', "'é'"],
  ];
  for (const [word, quoted] of cases) {
    test(`${JSON.stringify(word)} → ${quoted}`, () => {
      assert.equal(shellQuote(word), quoted);
    });
  }
});

describe('quoteArgv', () => {
  test('joins quoted words with spaces', () => {
    assert.equal(quoteArgv(['printf', '%s\n', '$HOME']), `'printf' '%s\n' '$HOME'`);
    assert.equal(quoteArgv([]), '');
  });

  test('hostile words survive a real bash byte-exact', () => {
    const words = [
      "it's", '"double"', "mixed 'single' and \"double\"", '$HOME', '${HOME}', '`id`', '$(id)', '$((1+2))',
      'a\nb', '\n', 'trailing newline\n', 'tab\there', 'unicode ✓ héllo 日本語 🎉', '', ' ', ';', 'a; rm -rf /',
      '*', '?', '[a-z]*', '~', '~root', '!', '!!', '#comment', '\\', '\\n', 'back\\slash\\', '&&', '|', '>', '<',
      '(', ')', '{a,b}', '-n', '--', '%s', "'", "''", 'x=y', '\x1b[31mred\x1b[0m', '\x01\x7f',
    ];
    assert.deepEqual(bashWords(words), words);
  });

  test('a 100 KB hostile word survives a real bash byte-exact', () => {
    const unit = "ab 'c' $(id) `x` \"$HOME\"\n✓;* \\ lorem ipsum dolor sit amet ";
    const big = unit.repeat(Math.ceil(100_000 / unit.length)).slice(0, 100_000);
    assert.equal(big.length, 100_000);
    // one bash -c argument must stay under Linux's 128 KiB per-argument limit
    assert.ok(Buffer.byteLength(quoteArgv([big])) < 128 * 1024);
    const words = [big, 'after'];
    assert.deepEqual(bashWords(words), words);
  });

  test(
    'the first word runs as a command even when it looks like an assignment or a keyword',
    () => {
      // src/guides/sessions.md (run): several words are an exact argv. Like execvp, `FOO=bar env` must try to run a
      // program named "FOO=bar" (exit 127), not run env with FOO set.
      for (const argv of [['FOO=bar', 'true'], ['if', 'true'], ['{', 'true']]) {
        const r = spawnSync('bash', ['--norc', '--noprofile', '-c', quoteArgv(argv)], { encoding: 'utf8' });
        assert.equal(r.status, 127, `${JSON.stringify(argv)} → ${quoteArgv(argv)} exited ${r.status}`);
      }
    },
  );
});
