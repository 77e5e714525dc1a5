import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { type Identified, jobId, parseJobId, resolveRef, validateName } from '../../src/core/ids.js';

const invalid = { name: 'AmuxError', code: 'invalid_argument', exitCode: 2 };

describe('validateName', () => {
  const good = ['a', 'A', '0', 'web', 'my-app_1.2', 'a..b', 'Z-', '9.', 'x'.repeat(64), `a${'-'.repeat(63)}`, 'jobs', 'deadbeef0', 'Deadbeefx'];
  for (const name of good) {
    test(`accepts ${JSON.stringify(name.length > 20 ? `${name.slice(0, 8)}… (${name.length})` : name)}`, () => {
      assert.equal(validateName(name), name);
    });
  }

  const bad = [
    '', '-a', '.a', '_a', 'a b', 'a/b', 'a;b', 'a$b', '$(id)', 'é', 'naïve', 'a\n', '\na', 'a\tb', 'a\0', 'x'.repeat(65), '..', "it's",
    // A name that reads as an id could never be reached by name: ids are resolved first.
    'deadbeef', '0123abcd', 'job-deadbeef-1', 'job-x', 'JOB-1',
    // Ids resolve in either case (as prefixes): an upper-case one would shadow the id.
    'DEADBEEF', 'Deadbeef', '0123ABCD',
  ];
  for (const name of bad) {
    test(`rejects ${JSON.stringify(name.length > 20 ? `${name.slice(0, 8)}… (${name.length})` : name)}`, () => {
      assert.throws(() => validateName(name), invalid);
    });
  }
});

describe('jobId / parseJobId', () => {
  test('round-trips', () => {
    assert.equal(jobId('deadbeef', 12), 'job-deadbeef-12');
    assert.deepEqual(parseJobId(jobId('deadbeef', 12)), { sessionId: 'deadbeef', seq: 12 });
  });

  const cases: [string, { sessionId: string; seq: number } | null][] = [
    ['job-deadbeef-1', { sessionId: 'deadbeef', seq: 1 }],
    ['job-0123abcd-999999999', { sessionId: '0123abcd', seq: 999_999_999 }],
    ['job-deadbeef-0', null],
    ['job-deadbeef-01', null],
    ['job-deadbeef-1234567890', null],
    ['job-DEADBEEF-1', null],
    ['job-deadbee-1', null],
    ['job-deadbeef0-1', null],
    ['job-deadbeef-1x', null],
    ['job-deadbeef-', null],
    ['deadbeef', null],
    ['job-deadbeef-1\n', null],
    ['', null],
  ];
  for (const [ref, want] of cases) {
    test(`${JSON.stringify(ref)} → ${JSON.stringify(want)}`, () => {
      assert.deepEqual(parseJobId(ref), want);
    });
  }
});

describe('resolveRef', () => {
  const s = (id: string, name: string | null = null): Identified => ({ id, name });
  const all = [s('abcd1234', 'web'), s('abce5678', 'api'), s('ffff0000', 'abcd'), s('12345678', null), s('0badc0de', 'ffff0000')];

  test('full id', () => {
    assert.equal(resolveRef('abcd1234', all), all[0]);
    assert.equal(resolveRef('12345678', all), all[3]);
  });

  test('a full id wins over a name equal to it', () => {
    // session 0badc0de is named "ffff0000", which is the id of another session
    assert.equal(resolveRef('ffff0000', all), all[2]);
  });

  test('exact name', () => {
    assert.equal(resolveRef('web', all), all[0]);
    assert.equal(resolveRef('api', all), all[1]);
  });

  test('an exact name wins over an id prefix', () => {
    // "abcd" is both the name of ffff0000 and a prefix of abcd1234
    assert.equal(resolveRef('abcd', all), all[2]);
  });

  test('unique prefix, case-insensitive', () => {
    assert.equal(resolveRef('abcd1', all), all[0]);
    assert.equal(resolveRef('abce', all), all[1]);
    assert.equal(resolveRef('1', all), all[3]);
    assert.equal(resolveRef('ABCE5', all), all[1]);
  });

  test('ambiguous prefix lists every candidate', () => {
    assert.throws(() => resolveRef('abc', all), (err: Error & { code?: string; exitCode?: number }) => {
      assert.equal(err.name, 'AmuxError');
      assert.equal(err.code, 'ambiguous_id');
      assert.equal(err.exitCode, 1);
      assert.ok(err.message.includes('abcd1234'), err.message);
      assert.ok(err.message.includes('abce5678'), err.message);
      assert.ok(!err.message.includes('12345678'), err.message);
      return true;
    });
  });

  test('no match is session_not_found', () => {
    const notFound = { name: 'AmuxError', code: 'session_not_found', exitCode: 1 };
    assert.throws(() => resolveRef('9999', all), notFound);
    assert.throws(() => resolveRef('nosuchname', all), notFound);
    assert.throws(() => resolveRef('abcd12345', all), notFound);
    assert.throws(() => resolveRef('abcd', []), notFound);
  });

  test('a non-hex reference is never treated as a prefix', () => {
    assert.throws(() => resolveRef('ab-', [s('ab-cdef0', null)]), { code: 'session_not_found' });
  });

  for (const ref of ['', 'ab\ncd', 'abc\0', '\x1b[31m', 'a\tb', 'x'.repeat(257)]) {
    test(`rejects ${JSON.stringify(ref.slice(0, 12))} as invalid_argument`, () => {
      assert.throws(() => resolveRef(ref, all), invalid);
    });
  }
});
