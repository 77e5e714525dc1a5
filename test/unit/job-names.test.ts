import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseExitFileName } from '../../src/daemon/output/exit-files.js';
import { paneTarget, typeJobArgs, wakePromptArgs } from '../../src/tmux/commands.js';

describe('wakePromptArgs', () => {
  test('one tmux call: clear the prompt line without a bell, then Enter; nothing typed', () => {
    assert.deepEqual(wakePromptArgs('%3'), ['send-keys', '-t', '%3', '--', 'C-x', 'C-k', ';', 'send-keys', '-t', '%3', '--', 'Enter']);
  });
});

describe('typeJobArgs (a shell of an older rcfile)', () => {
  test('one tmux call: clear the prompt line, type the job number, Enter', () => {
    assert.deepEqual(typeJobArgs('%3', 2), [
      'send-keys', '-t', '%3', '--', 'C-e', 'C-u',
      ';', 'send-keys', '-t', '%3', '-l', '--', ' __amux_next=2',
      ';', 'send-keys', '-t', '%3', '--', 'Enter',
    ]);
  });

  test('with an exact session target and a large job number', () => {
    const t = paneTarget('abcd1234');
    assert.equal(t, '=amux-abcd1234:');
    assert.deepEqual(typeJobArgs(t, 123456), [
      'send-keys', '-t', t, '--', 'C-e', 'C-u',
      ';', 'send-keys', '-t', t, '-l', '--', ' __amux_next=123456',
      ';', 'send-keys', '-t', t, '--', 'Enter',
    ]);
  });

  test('the typed text starts with a space (kept out of history) and no argument ends in ;', () => {
    const args = typeJobArgs('%0', 1);
    assert.ok(args.includes(' __amux_next=1'));
    assert.equal(args.filter((a) => a === ';').length, 2, 'exactly two command separators');
    assert.ok(args.every((a) => a === ';' || !a.endsWith(';')));
  });

  test('throws on a job number that is not a positive integer', () => {
    for (const seq of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.throws(() => typeJobArgs('%1', seq), /invalid job number/, String(seq));
    }
  });
});

describe('parseExitFileName', () => {
  test('<id>.<seq>: job seq ended', () => {
    assert.deepEqual(parseExitFileName('abcd1234.1'), { id: 'abcd1234', seq: 1, start: false });
    assert.deepEqual(parseExitFileName('0123beef.42'), { id: '0123beef', seq: 42, start: false });
  });

  test('<id>.<seq>.start: job seq started', () => {
    assert.deepEqual(parseExitFileName('abcd1234.7.start'), { id: 'abcd1234', seq: 7, start: true });
    assert.deepEqual(parseExitFileName('ffffffff.1000.start'), { id: 'ffffffff', seq: 1000, start: true });
  });

  test('<id>.shell: the shell exited (seq 0)', () => {
    assert.deepEqual(parseExitFileName('abcd1234.shell'), { id: 'abcd1234', seq: 0, start: false });
  });

  test('rejects <id>.shell.start', () => {
    assert.equal(parseExitFileName('abcd1234.shell.start'), null);
  });

  test('rejects bad ids, bad suffixes and the empty name', () => {
    const bad = [
      '', 'abcd1234', 'abcd1234.', 'ABCD1234.1', 'abcd123.1', 'abcd12345.1', 'abcg1234.1', 'xabcd1234.1',
      'abcd1234.-1', 'abcd1234.1.5', 'abcd1234.1.start.tmp', 'abcd1234.1.stop', 'abcd1234.start', 'abcd1234.Shell',
      'abcd1234.1 ', ' abcd1234.1', 'abcd1234.1\n', '.abcd1234.1', 'abcd1234..1', 'abcd1234.1.',
    ];
    for (const name of bad) assert.equal(parseExitFileName(name), null, JSON.stringify(name));
  });
});
