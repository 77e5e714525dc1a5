import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { habitHint, killSignalWords } from '../../src/cli/habits.js';

describe('habits (src/guides/sessions.md)', () => {
  test('docker, pueue and kill(1) habits get a hint that names the amux way', () => {
    assert.match(habitHint(['run', '-d', '--', 'make'])!, /always run detached.*-w waits/);
    assert.match(habitHint(['run', '-it', 'bash'])!, /amux attach ID/);
    assert.match(habitHint(['exec', '-it', 'web', '--', 'sh'])!, /amux attach ID.*--tty/);
    assert.match(habitHint(['exec', 'web', '-w', '/tmp', '--', 'ls'])!, /'cd DIR && CMD'/);
    assert.match(habitHint(['exec', '-w', '/tmp', 'web', 'ls'])!, /'cd DIR && CMD'/);
    assert.match(habitHint(['exec', 'web', '-e', 'A=1', 'env'])!, /'KEY=VALUE CMD'/);
    assert.match(habitHint(['exec', 'web', '--env=A=1', 'env'])!, /'KEY=VALUE CMD'/);
    assert.match(habitHint(['ps', '-a'])!, /--status finished.*amux history/);
    assert.match(habitHint(['ps', '--all'])!, /--status finished/);
    assert.match(habitHint(['stop', 'web'])!, /amux kill NAME/);
    assert.match(habitHint(['start', 'web'])!, /amux restart NAME/);
    assert.match(habitHint(['version'])!, /amux --version/);
  });

  test('the command the user runs is never read for habits', () => {
    assert.equal(habitHint(['run', '--', 'docker', 'run', '-d', 'nginx']), null);
    assert.equal(habitHint(['run', 'docker', 'run', '-it', 'x']), null);
    assert.equal(habitHint(['run', '-n', 'x', 'ps', '-a']), null);
    assert.equal(habitHint(['exec', 'web', 'ls', '-w']), null);
    assert.equal(habitHint(['exec', 'web', '--', 'grep', '-e', 'x']), null);
    assert.equal(habitHint(['exec', '-b', 'web', 'tail', '-t']), null);
    assert.equal(habitHint(['ps', '--json']), null);
    assert.equal(habitHint(['kill', '-a']), null, 'no table for kill');
    assert.equal(habitHint([]), null);
  });

  test('kill -9, -KILL and -SIGKILL read as kill(1) does; other words stay', () => {
    assert.deepEqual(killSignalWords(['kill', '-9', 'web']), ['kill', '-s', '9', 'web']);
    assert.deepEqual(killSignalWords(['kill', '-KILL', 'a', 'b']), ['kill', '-s', 'KILL', 'a', 'b']);
    assert.deepEqual(killSignalWords(['kill', '-SIGINT', '--grace', '1s', 'web']), ['kill', '-s', 'SIGINT', '--grace', '1s', 'web']);
    assert.deepEqual(killSignalWords(['kill', '-s', 'TERM', 'web']), ['kill', '-s', 'TERM', 'web']);
    assert.deepEqual(killSignalWords(['kill', '-NOPE', 'web']), ['kill', '-NOPE', 'web'], 'not a signal: commander refuses it');
    assert.deepEqual(killSignalWords(['kill', '-STOP', 'web']), ['kill', '-STOP', 'web'], 'STOP does not end a process (pause does)');
    assert.deepEqual(killSignalWords(['kill', '--', '-9']), ['kill', '--', '-9']);
    assert.deepEqual(killSignalWords(['rm', '-9']), ['rm', '-9']);
  });
});
