import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decideJobEnd, isMainJob, mainJobStatus } from '../../src/core/job-end.js';

describe('decideJobEnd', () => {
  test('exit 0 completes; a non-zero exit fails with the code; 128+N names the signal', () => {
    assert.deepEqual(decideJobEnd({ kind: 'exited', code: 0 }), { status: 'completed', exitCode: 0, signal: null, error: null });
    assert.deepEqual(decideJobEnd({ kind: 'exited', code: 3 }), { status: 'failed', exitCode: 3, signal: null, error: 'exited with code 3' });
    assert.deepEqual(decideJobEnd({ kind: 'exited', code: 130 }), { status: 'failed', exitCode: 130, signal: 'SIGINT', error: 'exited with code 130' });
  });

  test('a job amux kills ends killed, with the signal amux delivered and 128+N', () => {
    const end = decideJobEnd({ kind: 'exited', code: 143 }, { reason: 'kill', timeoutMs: null, signal: 'SIGTERM' });
    assert.deepEqual(end, { status: 'killed', exitCode: 143, signal: 'SIGTERM', error: 'killed by amux kill' });
    // Even a job that exited 0 on TERM counts as killed: amux ended it; its own code is named.
    assert.deepEqual(decideJobEnd({ kind: 'exited', code: 0 }, { reason: 'kill', timeoutMs: null, signal: 'SIGTERM' }),
      { status: 'killed', exitCode: 143, signal: 'SIGTERM', error: 'killed by amux kill (the command exited with 0)' });
  });

  test('the signal recorded is the one delivered, not the SIGINT the shell saw', () => {
    // A foreground job: the shell gets SIGINT to abandon the command list and reports 130.
    const end = decideJobEnd({ kind: 'exited', code: 130 }, { reason: 'timeout', timeoutMs: 2000, signal: 'SIGTERM' });
    assert.equal(end.signal, 'SIGTERM');
    assert.equal(end.exitCode, 124);
  });

  test('a job killed by its timeout exits 124 and keeps the signal that ended it', () => {
    const end = decideJobEnd({ kind: 'exited', code: 137 }, { reason: 'timeout', timeoutMs: 1500, signal: 'SIGKILL' });
    assert.deepEqual(end, { status: 'killed', exitCode: 124, signal: 'SIGKILL', error: 'timed out after 1.5s' });
  });

  test('the killing wins over how the end was seen (its session ended meanwhile)', () => {
    const end = decideJobEnd({ kind: 'session_ended', session: 'failed', terminated: false }, { reason: 'timeout', timeoutMs: 60_000, signal: 'SIGTERM' });
    assert.equal(end.status, 'killed');
    assert.equal(end.exitCode, 124);
    assert.equal(end.signal, 'SIGTERM');
  });

  test('ends without an exit status fail with a reason and no code', () => {
    assert.deepEqual(decideJobEnd({ kind: 'not_started', error: 'tmux went away' }), { status: 'failed', exitCode: null, signal: null, error: 'tmux went away' });
    assert.equal(decideJobEnd({ kind: 'start_lost' }).error, 'the daemon stopped before the shell started the job');
    assert.match(decideJobEnd({ kind: 'vanished' }).error!, /without reporting a status/);
    assert.equal(decideJobEnd({ kind: 'vanished' }).status, 'failed');
  });

  test('a job under an ended session: killed when amux ended it or the session was stopped or expired, else failed', () => {
    assert.deepEqual(decideJobEnd({ kind: 'session_ended', session: 'failed', terminated: true }), {
      status: 'killed', exitCode: null, signal: null, error: 'the session ended (failed); amux ended the job with it',
    });
    for (const session of ['stopped', 'expired'] as const) {
      assert.equal(decideJobEnd({ kind: 'session_ended', session, terminated: false }).status, 'killed');
    }
    const failed = decideJobEnd({ kind: 'session_ended', session: 'failed', terminated: false });
    assert.deepEqual(failed, { status: 'failed', exitCode: null, signal: null, error: 'the session ended (failed) while the job ran' });
  });
});

describe('job 1', () => {
  test('is the main command of a command session only', () => {
    assert.equal(isMainJob({ hasCommand: true }, 1), true);
    assert.equal(isMainJob({ hasCommand: true }, 2), false);
    assert.equal(isMainJob({ hasCommand: false }, 1), false);
  });

  test('ends as its session: completed and failed carry over, stopped and expired are killed', () => {
    assert.equal(mainJobStatus('completed'), 'completed');
    assert.equal(mainJobStatus('failed'), 'failed');
    assert.equal(mainJobStatus('stopped'), 'killed');
    assert.equal(mainJobStatus('expired'), 'killed');
  });
});
