import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { type Observation, decideStatus, finished, quickDecision } from '../../src/core/status-rules.js';

const NOW = 1_700_000_000_000;
const THRESHOLD = 3000;

/** A live session whose shell runs a job that is quietly busy. */
function obs(over: Partial<Observation> = {}): Observation {
  return {
    present: true,
    paneDead: false,
    paneDeadStatus: null,
    mainExit: null,
    jobRunning: true,
    children: 1,
    outputChanged: false,
    ...over,
  };
}

function timing(sinceActivityMs: number) {
  return { now: NOW, lastActivityAt: NOW - sinceActivityMs, idleThresholdMs: THRESHOLD };
}

describe('decideStatus', () => {
  test('an exit-status file beats a vanished session (keeps the real exit code)', () => {
    assert.deepEqual(decideStatus('working', obs({ mainExit: 0, present: false }), timing(0)), finished(0));
    assert.deepEqual(decideStatus('idle', obs({ mainExit: 7, present: false }), timing(0)), finished(7));
  });

  test('an exit-status file beats a dead pane', () => {
    const d = decideStatus('working', obs({ mainExit: 2, paneDead: true, paneDeadStatus: 1 }), timing(0));
    assert.equal(d.status, 'failed');
    assert.equal(d.exitCode, 2);
    assert.equal(d.error, 'command exited with code 2');
  });

  test('a paused session stays paused over an exit-status file (paused → completed is not allowed; resume sees it)', () => {
    assert.equal(decideStatus('paused', obs({ mainExit: 0 }), timing(0)).status, 'paused');
    assert.equal(decideStatus('paused', obs({ mainExit: 0, present: false }), timing(0)).status, 'failed');
  });

  test('tmux session gone → failed', () => {
    const d = decideStatus('working', obs({ present: false, paneDead: true, paneDeadStatus: 1 }), timing(0));
    assert.equal(d.status, 'failed');
    assert.equal(d.error, 'tmux session no longer exists');
  });

  test('gone beats paused', () => {
    assert.equal(decideStatus('paused', obs({ present: false }), timing(0)).error, 'tmux session no longer exists');
  });

  test('pane dead with a status → failed with that exit code', () => {
    const d = decideStatus('idle', obs({ paneDead: true, paneDeadStatus: 1 }), timing(0));
    assert.equal(d.status, 'failed');
    assert.equal(d.exitCode, 1);
    assert.equal(d.signal, null);
    assert.match(d.error ?? '', /^shell process exited/);
    assert.match(d.error ?? '', /\b1\b/);
  });

  test('pane dead by signal → failed naming the signal', () => {
    const d = decideStatus('working', obs({ paneDead: true, paneDeadStatus: 137 }), timing(0));
    assert.equal(d.status, 'failed');
    assert.equal(d.exitCode, 137);
    assert.equal(d.signal, 'SIGKILL');
    assert.match(d.error ?? '', /^shell process exited.*SIGKILL/);
  });

  test('pane killed by a signal (no status) → failed, the signal named', () => {
    const d = decideStatus('working', obs({ paneDead: true, paneDeadStatus: null, paneDeadSignal: 9 }), timing(0));
    assert.equal(d.status, 'failed');
    assert.equal(d.signal, 'SIGKILL');
    assert.equal(d.exitCode, 137);
    assert.equal(d.error, 'shell process exited (SIGKILL)');
  });

  test('a shell that exited 0 by itself → completed, code 0 (src/guides/statuses.md)', () => {
    const d = decideStatus('idle', obs({ paneDead: true, paneDeadStatus: 0 }), timing(0));
    assert.deepEqual([d.status, d.exitCode, d.signal, d.error, d.reason], ['completed', 0, null, undefined, 'shell exited']);
  });

  test('pane dead with unknown status → failed, no code', () => {
    const d = decideStatus('working', obs({ paneDead: true, paneDeadStatus: null }), timing(0));
    assert.equal(d.status, 'failed');
    assert.equal(d.exitCode, null);
    assert.equal(d.signal, null);
    assert.equal(d.error, 'shell process exited; tmux kept no exit status');
  });

  test('paused stays paused, even with output and past the threshold', () => {
    assert.equal(decideStatus('paused', obs({ outputChanged: true }), timing(0)).status, 'paused');
    assert.equal(decideStatus('paused', obs({ jobRunning: false, children: 0 }), timing(THRESHOLD * 10)).status, 'paused');
  });

  test('output changed → working', () => {
    for (const current of ['idle', 'working', 'pending'] as const) {
      assert.equal(decideStatus(current, obs({ outputChanged: true }), timing(THRESHOLD * 10)).status, 'working', current);
    }
    assert.equal(decideStatus('idle', obs({ outputChanged: true, jobRunning: false, children: 0 }), timing(0)).status, 'working');
  });

  test('no job and no children → idle at once', () => {
    assert.equal(decideStatus('working', obs({ jobRunning: false, children: 0 }), timing(0)).status, 'idle');
  });

  test('a child process without a job keeps the session below the threshold', () => {
    assert.equal(decideStatus('working', obs({ jobRunning: false, children: 1 }), timing(0)).status, 'working');
  });

  test('a job without children keeps the session below the threshold', () => {
    assert.equal(decideStatus('working', obs({ jobRunning: true, children: 0 }), timing(0)).status, 'working');
  });

  test('unchanged output for the threshold → idle', () => {
    assert.equal(decideStatus('working', obs(), timing(THRESHOLD)).status, 'idle');
    assert.equal(decideStatus('working', obs(), timing(THRESHOLD + 5000)).status, 'idle');
  });

  test('below the threshold keeps the current status, with a reason of this look, never a kept one', () => {
    assert.deepEqual(decideStatus('working', obs(), timing(THRESHOLD - 1)), { status: 'working', reason: 'recent output' });
    assert.deepEqual(decideStatus('idle', obs(), timing(THRESHOLD - 1)), { status: 'idle', reason: 'screen stable' });
  });

  test('a pending session that started becomes working', () => {
    assert.equal(decideStatus('pending', obs(), timing(0)).status, 'working');
  });
});

describe('decideStatus with evidence (ADR 0015)', () => {
  const input = { verdict: 'input', reason: 'reading the terminal' } as const;
  const cpu = { verdict: 'working', reason: 'cpu' } as const;

  test('reading the terminal is idle at once, even right after output (its prompt)', () => {
    const d = decideStatus('working', obs({ activity: input, outputChanged: true }), timing(0));
    assert.deepEqual(d, { status: 'idle', reason: 'reading the terminal' });
  });

  test('busy evidence keeps a silent session working past the threshold', () => {
    assert.deepEqual(decideStatus('working', obs({ activity: cpu }), timing(THRESHOLD * 10)), { status: 'working', reason: 'cpu' });
    assert.deepEqual(decideStatus('idle', obs({ activity: { verdict: 'working', reason: 'sleeping' } }), timing(THRESHOLD * 10)), { status: 'working', reason: 'sleeping' });
  });

  test('output beats busy evidence as the reason', () => {
    assert.equal(decideStatus('working', obs({ activity: cpu, outputChanged: true }), timing(0)).reason, 'output changed');
  });

  test('unknown evidence falls back to the screen: stable for the threshold → idle', () => {
    assert.deepEqual(decideStatus('working', obs({ activity: { verdict: 'unknown' } }), timing(THRESHOLD)), { status: 'idle', reason: 'screen stable' });
    assert.equal(decideStatus('working', obs({ activity: { verdict: 'unknown' } }), timing(THRESHOLD - 1)).status, 'working');
  });

  test('evidence never overrides an exit, a vanished session, a dead pane or a pause', () => {
    assert.equal(decideStatus('working', obs({ activity: input, mainExit: 3 }), timing(0)).status, 'failed');
    assert.equal(decideStatus('working', obs({ activity: cpu, present: false }), timing(0)).status, 'failed');
    assert.equal(decideStatus('working', obs({ activity: cpu, paneDead: true, paneDeadStatus: 1 }), timing(0)).status, 'failed');
    assert.equal(decideStatus('paused', obs({ activity: cpu }), timing(0)).status, 'paused');
  });
});

describe('finished', () => {
  test('exit 0 → completed', () => {
    const d = finished(0);
    assert.equal(d.status, 'completed');
    assert.equal(d.exitCode, 0);
    assert.equal(d.signal, null);
    assert.equal(d.error, undefined);
  });

  test('exit 3 → failed with the code', () => {
    const d = finished(3);
    assert.equal(d.status, 'failed');
    assert.equal(d.exitCode, 3);
    assert.equal(d.signal, null);
    assert.equal(d.error, 'command exited with code 3');
  });

  test('exit 143 → failed, killed by SIGTERM', () => {
    const d = finished(143);
    assert.equal(d.status, 'failed');
    assert.equal(d.exitCode, 143);
    assert.equal(d.signal, 'SIGTERM');
    assert.equal(d.error, 'killed by signal SIGTERM');
  });

  test('exit 130 → SIGINT; 137 → SIGKILL', () => {
    assert.equal(finished(130).error, 'killed by signal SIGINT');
    assert.equal(finished(137).signal, 'SIGKILL');
  });

  test('128 and codes past 128+64 are plain exit codes', () => {
    assert.equal(finished(128).error, 'command exited with code 128');
    assert.equal(finished(255).error, 'command exited with code 255');
    assert.equal(finished(255).signal, null);
  });
});

describe('quickDecision (between refreshes, ADR 0015)', () => {
  test('input is idle at once; otherwise working with the reason of this look alone', () => {
    assert.deepEqual(quickDecision({ verdict: 'input', reason: 'reading the terminal' }, true), { status: 'idle', reason: 'reading the terminal' });
    assert.deepEqual(quickDecision({ verdict: 'working', reason: 'cpu' }, false), { status: 'working', reason: 'cpu' });
    assert.deepEqual(quickDecision({ verdict: 'working', reason: 'cpu' }, true), { status: 'working', reason: 'output changed' });
    assert.deepEqual(quickDecision({ verdict: 'unknown' }, true), { status: 'working', reason: 'output changed' });
    // no new bytes since the last look: `output changed` is not kept
    assert.deepEqual(quickDecision({ verdict: 'unknown' }, false), { status: 'working', reason: 'recent output' });
  });
});
