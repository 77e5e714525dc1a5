import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { commandFromArgs, resolveCommand } from '../../src/core/command.js';

const invalid = { name: 'AmuxError', code: 'invalid_argument', exitCode: 2 };

describe('commandFromArgs', () => {
  test('no argument → no command (a shell session)', () => {
    assert.deepEqual(commandFromArgs([]), {});
  });

  test('one argument → a shell command line', () => {
    assert.deepEqual(commandFromArgs(['make && make test']), { command: 'make && make test' });
  });

  test('several arguments → an exact argv', () => {
    assert.deepEqual(commandFromArgs(['printf', '%s\n', '$HOME']), { argv: ['printf', '%s\n', '$HOME'] });
  });

  test('the argv is a copy', () => {
    const args = ['a', 'b'];
    const out = commandFromArgs(args);
    args.push('c');
    assert.deepEqual(out, { argv: ['a', 'b'] });
  });
});

describe('resolveCommand', () => {
  test('nothing → null', () => {
    assert.equal(resolveCommand({}), null);
    assert.equal(resolveCommand({ command: null, argv: null }), null);
  });

  test('a command line runs as written', () => {
    assert.deepEqual(resolveCommand({ command: 'echo $HOME | wc -c' }), {
      display: 'echo $HOME | wc -c',
      script: 'echo $HOME | wc -c',
    });
  });

  test('an argv is quoted word by word', () => {
    assert.deepEqual(resolveCommand({ argv: ['printf', '%s\n', '$HOME', "it's"] }), {
      display: `printf '%s\n' '$HOME' 'it'\\''s'`,
      script: `'printf' '%s\n' '$HOME' 'it'\\''s'`,
    });
  });

  test('a one-word argv', () => {
    assert.deepEqual(resolveCommand({ argv: ['true'] }), { display: 'true', script: "'true'" });
  });

  test('command and argv together are refused', () => {
    assert.throws(() => resolveCommand({ command: 'ls', argv: ['ls'] }), invalid);
  });

  for (const command of ['', '   ', '\n\t']) {
    test(`empty command ${JSON.stringify(command)} is refused`, () => {
      assert.throws(() => resolveCommand({ command }), invalid);
    });
  }

  test('an empty argv is refused', () => {
    assert.throws(() => resolveCommand({ argv: [] }), invalid);
  });

  test('a non-string argv word is refused', () => {
    assert.throws(() => resolveCommand({ argv: ['echo', 3 as unknown as string] }), invalid);
  });

  test('a non-string command is refused', () => {
    assert.throws(() => resolveCommand({ command: ['ls'] as unknown as string }), invalid);
  });

  test('a NUL byte is refused in a command and in an argv word', () => {
    assert.throws(() => resolveCommand({ command: 'echo a\0b' }), invalid);
    assert.throws(() => resolveCommand({ argv: ['echo', 'a\0b'] }), invalid);
  });
});
