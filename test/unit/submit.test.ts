import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { enterDue, enterTaken, nextMark, readSince, shellOwns, SUBMIT, watchText, type InputMark } from '../../src/core/submit.js';

const SHELL = 100;
const mark = (at: number, printed: number, reads: [number, number][], group: number | null = 200): InputMark => ({ at, printed, reads: new Map(reads), group });

describe('readSince', () => {
  test('counts what the processes in both marks read; one that came or went counts nothing', () => {
    assert.equal(readSince(mark(0, 0, [[1, 10], [2, 5]]), mark(1, 0, [[1, 15], [2, 5]])), 5);
    assert.equal(readSince(mark(0, 0, [[1, 10]]), mark(1, 0, [[1, 10], [3, 999]])), 0);
    assert.equal(readSince(mark(0, 0, []), mark(1, 0, [])), 0);
  });
});

describe('enterDue (ADR 0047)', () => {
  test('a read is not enough: Enter waits for the echo after it, then settles', () => {
    let w = watchText(mark(0, 100, [[7, 50]]));
    w = nextMark(w, mark(5, 100, [[7, 61]])); // it read the paste, and has not handled it yet
    assert.equal(enterDue(w, 5 + SUBMIT.settleMs), null, 'no echo yet');
    w = nextMark(w, mark(300, 130, [[7, 61]])); // its echo, 300 ms later (a lagging event loop)
    assert.equal(enterDue(w, 300 + SUBMIT.settleMs - 1), null);
    assert.equal(enterDue(w, 300 + SUBMIT.settleMs), 'settled');
  });

  test('a read never echoed: Enter after unseenMs (a prompt that does not echo)', () => {
    let w = watchText(mark(0, 100, [[7, 50]]));
    w = nextMark(w, mark(5, 100, [[7, 61]]));
    assert.equal(enterDue(w, 5 + SUBMIT.unseenMs - 1), null);
    assert.equal(enterDue(w, 5 + SUBMIT.unseenMs), 'unechoed');
  });

  test('a program that read the text gets Enter once nothing changed for settleMs, not before', () => {
    let w = watchText(mark(0, 100, [[7, 50]]));
    w = nextMark(w, mark(5, 100, [[7, 61]])); // it read the paste
    w = nextMark(w, mark(9, 130, [[7, 61]])); // and redrew its prompt
    assert.equal(enterDue(w, 9 + SUBMIT.settleMs - 1), null);
    w = nextMark(w, mark(9 + SUBMIT.settleMs, 130, [[7, 61]]));
    assert.equal(enterDue(w, 9 + SUBMIT.settleMs), 'settled');
  });

  test('no echo and no read: Enter after unseenMs; changes that never stop: at the deadline', () => {
    const still = watchText(mark(0, 100, [[7, 50]]));
    assert.equal(enterDue(still, SUBMIT.unseenMs - 1), null);
    assert.equal(enterDue(still, SUBMIT.unseenMs), 'unseen');
    let busy = watchText(mark(0, 100, [[7, 50]]));
    for (let t = 10; t < SUBMIT.textDeadlineMs; t += 10) {
      busy = nextMark(busy, mark(t, 100 + t, [[7, 50]]));
      assert.equal(enterDue(busy, t), null, `at ${t} ms`);
    }
    assert.equal(enterDue(busy, SUBMIT.textDeadlineMs), 'deadline');
  });
});

describe('shellOwns', () => {
  test("only the session's own shell owning the terminal gets text and Enter in one call", () => {
    assert.equal(shellOwns(mark(0, 0, [[SHELL, 1]], SHELL), SHELL), true);
    assert.equal(shellOwns(mark(0, 0, [[7, 1]], 7), SHELL), false);
    assert.equal(shellOwns(mark(0, 0, [], null), SHELL), false);
  });
});

describe('enterTaken', () => {
  test('a read by the foreground after the Enter, or another foreground group, is taken; an echo alone is not', () => {
    const before = mark(0, 100, [[7, 50]]);
    assert.equal(enterTaken(before, mark(1, 102, [[7, 50]])), false, 'the kernel echoed it: nobody read it');
    assert.equal(enterTaken(before, mark(1, 100, [[7, 51]])), true);
    assert.equal(enterTaken(before, mark(1, 100, [[8, 0]], 300)), true, 'the shell started the line as a job');
    assert.equal(enterTaken(before, mark(1, 100, [], null)), false, 'the shell is gone');
    // Text and Enter in one call: taken once all of it was read, not part of it.
    assert.equal(enterTaken(before, mark(1, 100, [[7, 55]]), 6), false);
    assert.equal(enterTaken(before, mark(1, 100, [[7, 56]]), 6), true);
  });
});
