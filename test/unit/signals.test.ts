import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AmuxError } from '../../src/errors.js';
import { parseKillSignal, parseSignal, signalFromStatus, signalNames, signalNumber, waitExitCode } from '../../src/core/signals.js';

describe('parseSignal', () => {
  const good: [string | number, string][] = [
    ['TERM', 'SIGTERM'],
    ['SIGTERM', 'SIGTERM'],
    ['term', 'SIGTERM'],
    ['sigterm', 'SIGTERM'],
    [' INT ', 'SIGINT'],
    ['15', 'SIGTERM'],
    ['9', 'SIGKILL'],
    [9, 'SIGKILL'],
    ['1', 'SIGHUP'],
    ['KILL', 'SIGKILL'],
    ['usr1', 'SIGUSR1'],
    ['CONT', 'SIGCONT'],
  ];
  for (const [input, name] of good) {
    test(`${JSON.stringify(input)} → ${name}`, () => {
      assert.equal(parseSignal(input), name);
    });
  }

  for (const input of ['', 'FOO', 'SIG', 'SIGFOO', '0', '-9', '999', '9x', '1.5', 'TERM;', 'constructor', 'toString']) {
    test(`${JSON.stringify(input)} is a usage error`, () => {
      assert.throws(() => parseSignal(input), { name: 'AmuxError', code: 'usage', exitCode: 2 });
    });
  }

  test('numbers shared by two names give the conventional name', () => {
    assert.equal(parseSignal('6'), 'SIGABRT');
    assert.equal(parseSignal('29'), 'SIGIO');
    assert.equal(signalFromStatus(134), 'SIGABRT');
  });
});

describe('signalNumber', () => {
  test('known and unknown names', () => {
    assert.equal(signalNumber('SIGTERM'), 15);
    assert.equal(signalNumber('SIGKILL'), 9);
    assert.equal(signalNumber('SIGNOPE'), 0);
  });
});

describe('signalFromStatus', () => {
  const cases: [number, string | null][] = [
    [0, null], [1, null], [127, null], [128, null], [129, 'SIGHUP'], [130, 'SIGINT'], [137, 'SIGKILL'], [143, 'SIGTERM'],
    [128 + 31, 'SIGSYS'], [128 + 32, null], [193, null], [255, null], [-1, null],
  ];
  for (const [status, name] of cases) {
    test(`${status} → ${name}`, () => {
      assert.equal(signalFromStatus(status), name);
    });
  }
});

describe('waitExitCode', () => {
  test('completed → 0', () => {
    assert.equal(waitExitCode({ status: 'completed', exitCode: 0, signal: null }), 0);
    assert.equal(waitExitCode({ status: 'completed', exitCode: null, signal: null }), 0);
  });

  test('exit code N → N', () => {
    assert.equal(waitExitCode({ status: 'failed', exitCode: 3, signal: null }), 3);
    assert.equal(waitExitCode({ status: 'failed', exitCode: 143, signal: 'SIGTERM' }), 143);
  });

  test('signal only → 128 + N', () => {
    assert.equal(waitExitCode({ status: 'stopped', exitCode: null, signal: 'SIGTERM' }), 143);
    assert.equal(waitExitCode({ status: 'killed', exitCode: null, signal: 'SIGKILL' }), 137);
    assert.equal(waitExitCode({ status: 'expired', exitCode: 0, signal: 'SIGINT' }), 130);
  });

  test('failed with neither → 1', () => {
    assert.equal(waitExitCode({ status: 'failed', exitCode: null, signal: null }), 1);
    assert.equal(waitExitCode({ status: 'stopped', exitCode: null, signal: null }), 1);
    assert.equal(waitExitCode({ status: 'expired', exitCode: 0, signal: null }), 1);
  });
});

describe('parseKillSignal', () => {
  test('refuses the signals that stop or continue instead of ending, pointing to pause/resume (usage, exit 2)', () => {
    for (const sig of ['STOP', 'SIGTSTP', 'ttin', 'TTOU', '19', 'CONT']) {
      assert.throws(() => parseKillSignal(sig), (e: unknown) => e instanceof AmuxError && e.code === 'usage' && e.exitCode === 2 && /amux (pause|resume)/.test(e.message), sig);
    }
  });
  test('takes the signals that end a process', () => {
    assert.deepEqual(['TERM', 'INT', 'HUP', 'KILL', 'QUIT', 'USR1'].map(parseKillSignal), ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGKILL', 'SIGQUIT', 'SIGUSR1']);
  });
  test('completion offers none of them', () => {
    for (const n of ['STOP', 'TSTP', 'TTIN', 'TTOU', 'CONT']) assert.ok(!signalNames().includes(n), n);
    assert.ok(signalNames().includes('TERM'));
  });
});
