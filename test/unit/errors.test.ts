import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AmuxError, toAmuxError } from '../../src/errors.js';
import { ERROR_CODES, isErrorCode } from '../../src/protocol/errors.js';

function errno(code: string, path?: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`${code}: something`);
  err.code = code;
  if (path) err.path = path;
  return err;
}

describe('AmuxError', () => {
  test('carries code, exit code, HTTP status and cause', () => {
    const cause = new Error('root');
    const err = new AmuxError('session_not_found', 'no such session', { cause });
    assert.equal(err.name, 'AmuxError');
    assert.equal(err.code, 'session_not_found');
    assert.equal(err.exitCode, 1);
    assert.equal(err.httpStatus, 404);
    assert.equal(err.cause, cause);
    assert.deepEqual(err.toJSON(), { code: 'session_not_found', message: 'no such session' });
  });

  test('exit codes follow src/guides/sessions.md', () => {
    const exits = Object.fromEntries(Object.entries(ERROR_CODES).map(([code, v]) => [code, v.exit]));
    assert.equal(exits.usage, 2);
    assert.equal(exits.invalid_argument, 2);
    assert.equal(exits.daemon_unreachable, 3);
    assert.equal(exits.tmux_unavailable, 4);
    assert.equal(exits.session_not_found, 1);
    assert.equal(exits.internal, 1);
  });

  test('no cause property when none is given', () => {
    assert.equal(Object.hasOwn(new AmuxError('internal', 'x'), 'cause'), false);
  });
});

describe('isErrorCode', () => {
  test('knows our codes only', () => {
    assert.equal(isErrorCode('ambiguous_id'), true);
    assert.equal(isErrorCode('no_such_code'), false);
    assert.equal(isErrorCode('toString'), false);
    assert.equal(isErrorCode(42), false);
  });
});

describe('toAmuxError', () => {
  test('keeps an AmuxError as is', () => {
    const err = new AmuxError('name_in_use', 'taken');
    assert.equal(toAmuxError(err), err);
  });

  for (const code of ['ENOSPC', 'EDQUOT']) {
    test(`${code} becomes storage_error with the cause`, () => {
      const cause = errno(code, '/home/x/.amux/amux.db');
      const err = toAmuxError(cause);
      assert.ok(err instanceof AmuxError);
      assert.equal(err.code, 'storage_error');
      assert.equal(err.exitCode, 1);
      assert.equal(err.cause, cause);
      assert.ok(err.message.includes('/home/x/.amux/amux.db'), err.message);
    });
  }

  test('ENOSPC without a path is still storage_error', () => {
    assert.equal(toAmuxError(errno('ENOSPC')).code, 'storage_error');
  });

  for (const code of ['EACCES', 'EROFS', 'EPERM']) {
    test(`${code} on a path becomes storage_error`, () => {
      const cause = errno(code, '/ro/amux');
      const err = toAmuxError(cause);
      assert.equal(err.code, 'storage_error');
      assert.equal(err.cause, cause);
    });
  }

  test('EACCES without a path is internal', () => {
    assert.equal(toAmuxError(errno('EACCES')).code, 'internal');
  });

  test('any other Error becomes internal, keeping message and cause', () => {
    const cause = new TypeError('boom');
    const err = toAmuxError(cause);
    assert.ok(err instanceof AmuxError);
    assert.equal(err.code, 'internal');
    assert.equal(err.exitCode, 1);
    assert.equal(err.httpStatus, 500);
    assert.equal(err.message, 'boom');
    assert.equal(err.cause, cause);
  });

  test('non-Error values become internal', () => {
    const s = toAmuxError('plain string');
    assert.equal(s.code, 'internal');
    assert.equal(s.message, 'plain string');
    assert.equal(s.cause, 'plain string');
    assert.equal(toAmuxError(null).code, 'internal');
    assert.equal(toAmuxError(undefined).code, 'internal');
  });
});

describe('error messages are bounded', () => {
  test('a message that quotes a huge value keeps its start and its end (the fix), at most 2000 characters and a note', () => {
    const huge = 'x'.repeat(7 * 1024 * 1024);
    const err = new AmuxError('invalid_argument', `invalid name "${huge}": use at most 64 characters`);
    assert.ok(err.message.length < 2100, String(err.message.length));
    assert.ok(err.message.startsWith('invalid name "xxx'));
    assert.ok(err.message.endsWith('xxx": use at most 64 characters'));
    assert.match(err.message, /… \(\d+ characters left out\) …/);
    assert.equal(new AmuxError('usage', 'short').message, 'short');
  });
});
