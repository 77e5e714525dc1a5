import { describe, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { setLongTimeout } from '../../src/core/long-timeout.js';

describe('setLongTimeout', () => {
  test('a duration past 2^31-1 ms fires when it is due, not at once', () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      let now = 0;
      let fired = 0;
      const day = 86_400_000;
      setLongTimeout(() => fired++, 25 * day, () => now);
      const step = (ms: number) => {
        now += ms;
        mock.timers.tick(ms);
      };
      step(1);
      assert.equal(fired, 0, 'not at once (node would fire an overflowing timer after 1 ms)');
      step(2 ** 31 - 1);
      assert.equal(fired, 0, 'not after the first step');
      step(25 * day - 2 ** 31 - 1);
      assert.equal(fired, 0, '1 ms before it is due');
      step(1);
      assert.equal(fired, 1, 'exactly when due');
    } finally {
      mock.timers.reset();
    }
  });

  test('can be cancelled, also between steps', () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      let now = 0;
      let fired = 0;
      const cancel = setLongTimeout(() => fired++, 2 ** 32, () => now);
      now += 2 ** 31 - 1;
      mock.timers.tick(2 ** 31 - 1);
      cancel();
      now += 2 ** 32;
      mock.timers.tick(2 ** 32);
      assert.equal(fired, 0);
    } finally {
      mock.timers.reset();
    }
  });
});
