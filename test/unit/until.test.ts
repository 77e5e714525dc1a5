import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseUntil, MAX_UNTIL_REGEX, untilStatus } from '../../src/core/until.js';
import { AmuxError } from '../../src/errors.js';

describe('parseUntil', () => {
  test('states', () => {
    assert.deepEqual(parseUntil(undefined), { kind: 'exited' });
    assert.deepEqual(parseUntil('exited'), { kind: 'exited' });
    assert.deepEqual(parseUntil('idle'), { kind: 'idle' });
    assert.deepEqual(parseUntil('working'), { kind: 'working' });
    assert.equal(untilStatus(parseUntil('idle')), 'idle');
    assert.equal(untilStatus(parseUntil('exited')), null);
  });

  test('output:REGEX is multi-line: ^ and $ are line ends', () => {
    const u = parseUntil('output:^ready$');
    assert.equal(u.kind, 'output');
    if (u.kind !== 'output') return;
    assert.equal(u.source, '^ready$');
    assert.ok(u.regex.test('starting\nready\nmore'));
    assert.ok(!u.regex.test('not ready yet'));
    // Everything after the first colon is the expression, colons included.
    const colon = parseUntil('output:a:b');
    assert.ok(colon.kind === 'output' && colon.source === 'a:b');
  });

  test('bad input is one invalid_argument line', () => {
    for (const [text, message] of [
      ['Idle', /unknown --until 'Idle'/],
      ['output:', /needs a regular expression/],
      ['output:(', /not a valid regular expression/],
      [`output:${'a'.repeat(MAX_UNTIL_REGEX + 1)}`, /longer than 1000/],
    ] as const) {
      assert.throws(() => parseUntil(text), (e: unknown) => e instanceof AmuxError && e.code === 'invalid_argument' && message.test(e.message) && !e.message.includes('\n'));
    }
  });
});
