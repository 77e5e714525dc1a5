import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { waitCommandExit } from '../../src/cli/commands/wait.js';
import type { SessionStatus } from '../../src/core/status.js';
import type { WaitResult } from '../../src/protocol/wait.js';

function r(id: string, status: SessionStatus, exitCode: number | null = null, signal: string | null = null): WaitResult {
  return { id, status, exitCode, signal, error: null, reason: null };
}

describe('waitCommandExit', () => {
  test('all completed → 0', () => {
    assert.equal(waitCommandExit([r('a', 'completed', 0), r('b', 'completed', 0)], false), 0);
    assert.equal(waitCommandExit([], false), 0);
  });

  test('timed out → 124, whatever the results', () => {
    assert.equal(waitCommandExit([r('a', 'completed', 0)], true), 124);
    assert.equal(waitCommandExit([r('a', 'failed', 3)], true), 124);
    assert.equal(waitCommandExit([], true), 124);
  });

  test('the first non-zero in argument order', () => {
    const results = [r('a', 'completed', 0), r('b', 'failed', 5), r('c', 'failed', 3)];
    assert.equal(waitCommandExit(results, false), 5);
    assert.equal(waitCommandExit([...results].reverse(), false), 3);
  });

  test('killed by signal → 128+N', () => {
    assert.equal(waitCommandExit([r('a', 'completed', 0), r('b', 'stopped', null, 'SIGTERM')], false), 143);
  });

  test('failed without a code → 1', () => {
    assert.equal(waitCommandExit([r('a', 'failed'), r('b', 'failed', 9)], false), 1);
  });
});
