import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { waitCommandExit } from '../../src/cli/commands/wait.js';
import type { SessionStatus } from '../../src/core/status.js';
import type { WaitResult } from '../../src/protocol/wait.js';

function r(id: string, status: SessionStatus, exitCode: number | null = null, signal: string | null = null): WaitResult {
  return { id, status, exitCode, signal, error: null, reason: null, reached: true, event: null, match: null, logOffset: null };
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

describe('waitCommandExit with --until and --any', () => {
  const at = (id: string, reached: boolean, status: SessionStatus = 'idle', exitCode: number | null = null): WaitResult => ({ ...r(id, status, exitCode), reached });

  test('a state: 0 when every target reached it, 1 when one ended without', () => {
    assert.equal(waitCommandExit([at('a', true), at('b', true)], false, { exited: false }), 0);
    assert.equal(waitCommandExit([at('a', true), at('b', false, 'completed', 0)], false, { exited: false }), 1);
    assert.equal(waitCommandExit([at('a', false)], true, { exited: false }), 124);
  });

  test('--any: 0 when one reached the state; the exit code of the first that ended for exited', () => {
    assert.equal(waitCommandExit([at('a', false, 'working'), at('b', true)], false, { exited: false, any: true }), 0);
    assert.equal(waitCommandExit([at('a', false, 'completed', 0), at('b', false, 'failed', 1)], false, { exited: false, any: true }), 1);
    assert.equal(waitCommandExit([at('a', false, 'working'), at('b', true, 'failed', 3)], false, { any: true }), 3);
    assert.equal(waitCommandExit([at('a', true, 'completed', 0), at('b', true, 'failed', 3)], false, { any: true }), 0);
  });
});
