import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { durationField, formatAge, formatDuration, MAX_DURATION_MS, parseBytes, parseDuration } from '../../src/core/duration.js';
import { isoTime } from '../../src/core/iso-time.js';

const usage = { name: 'AmuxError', code: 'usage', exitCode: 2 };

describe('parseDuration', () => {
  const good: [string, number][] = [
    ['1500ms', 1500],
    ['90s', 90_000],
    ['5m', 300_000],
    ['2h', 7_200_000],
    ['1h30m', 5_400_000],
    ['1d', 86_400_000],
    ['1m30s', 90_000],
    ['2d3h4m5s6ms', 2 * 86_400_000 + 3 * 3_600_000 + 4 * 60_000 + 5000 + 6],
    ['1.5s', 1500],
    ['0s', 0],
    ['0', 0],
    ['30', 30_000],
    ['007', 7000],
    ['  90s  ', 90_000],
  ];
  for (const [input, ms] of good) {
    test(`${JSON.stringify(input)} is ${ms} ms`, () => {
      assert.equal(parseDuration(input), ms);
    });
  }

  test('ms is not read as minutes followed by garbage', () => {
    assert.equal(parseDuration('5ms'), 5);
    assert.equal(parseDuration('5m'), 300_000);
  });

  const bad = ['', '   ', 'abc', '5x', '1h 30m', '-5s', '1.5.2s', 's', 'ms', '5 s', '+5s', '1e3', '5M', 'Infinity', '5s!', '99999999999999999999d', '5m5m', '30m1h', '1s1m', '5ms5s'];
  for (const input of bad) {
    test(`${JSON.stringify(input)} is a usage error`, () => {
      assert.throws(() => parseDuration(input), usage);
    });
  }

  test('the error names what was being parsed', () => {
    assert.throws(() => parseDuration('soon', '--timeout'), (err: Error) => {
      assert.equal((err as { code?: string }).code, 'usage');
      assert.match(err.message, /--timeout/);
      return true;
    });
  });
});

describe('formatAge', () => {
  const cases: [number, string][] = [
    [-5000, '0s'],
    [0, '0s'],
    [999, '0s'],
    [45_000, '45s'],
    [59_999, '59s'],
    [60_000, '1m'],
    [3_599_999, '59m'],
    [3_600_000, '1h'],
    [86_399_999, '23h'],
    [86_400_000, '1d'],
    [10 * 86_400_000, '10d'],
  ];
  for (const [ms, text] of cases) {
    test(`${ms} ms is ${text}`, () => {
      assert.equal(formatAge(ms), text);
    });
  }
});

describe('parseBytes', () => {
  const good: [string, number][] = [
    ['1048576', 1_048_576],
    ['0', 0],
    ['100b', 100],
    ['512KiB', 512 * 1024],
    ['512k', 512 * 1024],
    ['8MiB', 8 * 1024 * 1024],
    ['8mib', 8 * 1024 * 1024],
    ['2MB', 2 * 1024 * 1024],
    ['1GiB', 1024 ** 3],
    ['1.5k', 1536],
    ['8 MiB', 8 * 1024 * 1024],
    [' 4096 ', 4096],
  ];
  for (const [input, bytes] of good) {
    test(`${JSON.stringify(input)} is ${bytes} bytes`, () => {
      assert.equal(parseBytes(input), bytes);
    });
  }

  for (const input of ['', 'abc', '-1', '1TB', '8 MiB extra', 'MiB', '1..5k']) {
    test(`${JSON.stringify(input)} is a usage error`, () => {
      assert.throws(() => parseBytes(input), usage);
    });
  }
});

describe('formatDuration', () => {
  test('milliseconds, seconds, minutes and hours as people write them', () => {
    const cases: Array<[number, string]> = [
      [0, '0ms'], [850, '850ms'], [1000, '1s'], [1500, '1.5s'], [59_999, '60.0s'],
      [60_000, '1m0s'], [185_000, '3m5s'], [3_600_000, '1h0m'], [7_800_000, '2h10m'],
      [86_400_000, '1d'], [93_600_000, '1d2h'], [30 * 86_400_000, '30d'],
    ];
    for (const [ms, text] of cases) assert.equal(formatDuration(ms), text, `${ms} ms`);
  });
});

describe('the longest duration (ADR 0054)', () => {
  test('36500d is taken; a millisecond more, as text or as a number, is refused naming the longest', () => {
    assert.equal(parseDuration('36500d'), MAX_DURATION_MS);
    for (const text of ['36500d1ms', '99999999d', '9999999999999999999']) {
      assert.throws(() => parseDuration(text, '--delay duration'), { ...usage, message: /invalid --delay duration .*the longest is 36500d/ });
    }
    assert.equal(durationField(MAX_DURATION_MS, 'delay', 0), MAX_DURATION_MS);
    for (const v of [MAX_DURATION_MS + 1, 8.64e15, String(8.64e15)]) {
      assert.throws(() => durationField(v, 'delay', 0), { code: 'invalid_argument', message: /the longest is 36500d/ });
    }
  });

  test('now plus the longest is still a date', () => {
    assert.ok(!Number.isNaN(new Date(Date.now() + MAX_DURATION_MS).getTime()));
  });
});

describe('isoTime', () => {
  test('a time past the Date range is its end, not a RangeError; no number is null', () => {
    assert.equal(isoTime(0), '1970-01-01T00:00:00.000Z');
    assert.equal(isoTime(Date.now() + 8.64e15), '+275760-09-13T00:00:00.000Z');
    assert.equal(isoTime(-9e15), '-271821-04-20T00:00:00.000Z');
    assert.equal(isoTime(null), null);
    assert.equal(isoTime(Number.NaN), null);
  });
});
