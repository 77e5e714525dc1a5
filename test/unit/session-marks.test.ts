import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { markOf } from '../../src/process/session-marks.js';

const env = (...vars: string[]) => `${vars.join('\0')}\0`;

describe('markOf: which session a process belongs to, from its environment (ADR 0027)', () => {
  const sock = '/home/u/.amux/tmux.sock';
  test('AMUX_SESSION_ID, with TMUX naming this home’s socket', () => {
    assert.equal(markOf(env('PATH=/bin', 'AMUX_SESSION_ID=3f9a01bc', `TMUX=${sock},123,0`), sock), '3f9a01bc');
  });
  test('AMUX_SESSION_ID without TMUX (unset by the program): still ours', () => {
    assert.equal(markOf(env('AMUX_SESSION_ID=3f9a01bc'), sock), '3f9a01bc');
  });
  test('a session of another AMUX_HOME (its TMUX names another socket) is not ours', () => {
    assert.equal(markOf(env('AMUX_SESSION_ID=3f9a01bc', 'TMUX=/other/tmux.sock,9,0'), sock), null);
    assert.equal(markOf(env('AMUX_SESSION_ID=3f9a01bc', `TMUX=${sock}x,9,0`), sock), null);
  });
  test('no mark, or an empty one', () => {
    assert.equal(markOf(env('PATH=/bin', `TMUX=${sock},1,0`), sock), null);
    assert.equal(markOf(env('AMUX_SESSION_ID='), sock), null);
    assert.equal(markOf('', sock), null);
  });
  test('only a whole variable counts', () => {
    assert.equal(markOf(env('XAMUX_SESSION_ID=3f9a01bc'), sock), null);
  });
});
