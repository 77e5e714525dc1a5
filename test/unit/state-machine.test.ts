import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertTransition, canTransition } from '../../src/core/state-machine.js';
import { SESSION_STATUSES, type SessionStatus, isTerminal } from '../../src/core/status.js';

// ADR 0010's table, written out by hand: row = from, columns = to, in the order
// pending working idle paused completed failed stopped expired.
const ORDER: SessionStatus[] = ['pending', 'working', 'idle', 'paused', 'completed', 'failed', 'stopped', 'expired'];
const ALLOWED: Record<SessionStatus, string> = {
  //         p w i P c f s e
  pending:   '0 1 1 0 0 1 1 1', // → failed: a run --after dependency failed (ADR 0033)
  working:   '0 0 1 1 1 1 1 1',
  idle:      '0 1 0 1 1 1 1 1',
  paused:    '0 1 1 0 0 1 1 1',
  completed: '0 0 0 0 0 0 0 0',
  failed:    '0 0 0 0 0 0 0 0',
  stopped:   '0 0 0 0 0 0 0 0',
  expired:   '0 0 0 0 0 0 0 0',
};

function expected(from: SessionStatus, to: SessionStatus): boolean {
  return ALLOWED[from].split(' ')[ORDER.indexOf(to)] === '1';
}

describe('state machine', () => {
  test('the table covers exactly the 8 statuses', () => {
    assert.deepEqual([...SESSION_STATUSES].sort(), [...ORDER].sort());
  });

  for (const from of ORDER) {
    for (const to of ORDER) {
      const ok = expected(from, to);
      test(`${from} → ${to} is ${ok ? 'allowed' : 'refused'}`, () => {
        assert.equal(canTransition(from, to), ok);
        if (ok) assert.doesNotThrow(() => assertTransition(from, to));
        else assert.throws(() => assertTransition(from, to), { name: 'AmuxError', code: 'internal', exitCode: 1 });
      });
    }
  }

  test('terminal states are exactly completed, failed, stopped, expired', () => {
    assert.deepEqual(ORDER.filter(isTerminal), ['completed', 'failed', 'stopped', 'expired']);
  });

  test('named illegal transitions throw internal', () => {
    for (const [from, to] of [['idle', 'pending'], ['paused', 'completed'], ['completed', 'working'], ['failed', 'failed']] as const) {
      assert.throws(() => assertTransition(from, to), { code: 'internal' }, `${from} → ${to}`);
    }
  });
});
