import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_COMMAND_BYTES, resolveCommand } from '../../src/core/command.js';
import { durationField } from '../../src/core/duration.js';
import { resolveRef } from '../../src/core/ids.js';
import { setLongTimeout } from '../../src/core/long-timeout.js';
import { waitExitCode } from '../../src/core/signals.js';
import { MAX_UNTIL_REGEX, parseUntil } from '../../src/core/until.js';
import { pathOf, ROUTES } from '../../src/protocol/routes.js';
import { checkInput, ROUTE_SCHEMAS } from '../../src/protocol/schemas.js';

/**
 * The exact edges a hand mutation run found unguarded: each limit at its value and one past it, and
 * the few rules no unit test named (src/guides/sessions.md, api.md).
 */
const invalid = { code: 'invalid_argument', exitCode: 2 };

describe('limits at their value and one past it', () => {
  test(`a regex of exactly ${MAX_UNTIL_REGEX} characters is taken, one more is refused`, () => {
    assert.equal(parseUntil(`output:${'a'.repeat(MAX_UNTIL_REGEX)}`).kind, 'output');
    assert.throws(() => parseUntil(`output:${'a'.repeat(MAX_UNTIL_REGEX + 1)}`), { ...invalid, message: /longer than 1000 characters/ });
  });

  test(`a command of exactly ${MAX_COMMAND_BYTES} bytes is taken, one more is refused`, () => {
    assert.equal(resolveCommand({ command: 'x'.repeat(MAX_COMMAND_BYTES) })!.script.length, MAX_COMMAND_BYTES);
    assert.throws(() => resolveCommand({ command: 'x'.repeat(MAX_COMMAND_BYTES + 1) }), { ...invalid, message: /longer than/ });
    // Bytes, not characters: 'é' is two.
    assert.throws(() => resolveCommand({ command: 'é'.repeat(MAX_COMMAND_BYTES / 2 + 1) }), invalid);
  });

  const candidates = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `abc${String(i).padStart(5, '0')}`, name: null }));
  test('exactly 10 ambiguous candidates are all listed, with no ellipsis', () => {
    assert.throws(() => resolveRef('abc', candidates(10)), (e: Error) => {
      assert.equal((e as any).code, 'ambiguous_id');
      assert.equal(e.message.match(/abc\d{5}/g)!.length, 10);
      assert.doesNotMatch(e.message, /…/);
      return true;
    });
  });

  test('11 ambiguous candidates: 10 listed, then an ellipsis', () => {
    assert.throws(() => resolveRef('abc', candidates(11)), (e: Error) => {
      assert.equal(e.message.match(/abc\d{5}/g)!.length, 10);
      assert.match(e.message, /, …\)/);
      return true;
    });
  });

  test('durationField(0) is 0 ms, not the fallback', () => {
    assert.equal(durationField(0, 'timeout', 5000), 0);
    assert.equal(durationField('0', 'timeout', 5000), 0);
    assert.equal(durationField(undefined, 'timeout', 5000), 5000);
  });

  test('a job ended by its timeout waits to 124, as GNU timeout, not 128+15', () => {
    assert.equal(waitExitCode({ status: 'killed', exitCode: 124, signal: 'SIGTERM' }), 124);
    assert.equal(waitExitCode({ status: 'killed', exitCode: null, signal: 'SIGTERM' }), 143);
  });
});

describe('setLongTimeout never hands node a delay it would overflow', () => {
  test('every armed step is at most 2^31-1 ms, and it fires once, when due', () => {
    const real = globalThis.setTimeout;
    const armed: { ms: number; fn: () => void }[] = [];
    (globalThis as any).setTimeout = (fn: () => void, ms: number) => {
      armed.push({ fn, ms });
      return { unref() {} };
    };
    try {
      let now = 0;
      let fired = 0;
      const total = 60 * 86_400_000;
      setLongTimeout(() => fired++, total, () => now);
      while (fired === 0) {
        const step = armed.at(-1)!;
        // Real node fires a delay above 2^31-1 after 1 ms: the fake timers of node:test do not.
        assert.ok(step.ms <= 2 ** 31 - 1, `armed ${step.ms} ms`);
        now += step.ms;
        step.fn();
        assert.ok(armed.length < 100, 'it ends');
      }
      assert.equal(now, total);
      assert.equal(fired, 1);
    } finally {
      globalThis.setTimeout = real;
    }
  });
});

describe('pathOf', () => {
  test('encodes parameters, drops false and undefined, writes true as 1 and arrays comma-joined', () => {
    assert.equal(pathOf(ROUTES.inspect, { ref: 'a b/c' }), '/v1/sessions/a%20b%2Fc');
    assert.equal(pathOf(ROUTES.listSessions, {}, { status: ['working', 'idle'], usage: true, attention: false, label: undefined }), '/v1/sessions?status=working%2Cidle&usage=1');
    assert.equal(pathOf(ROUTES.listSessions), '/v1/sessions');
  });

  test('a route missing a parameter throws (a bug, never a wrong URL)', () => {
    assert.throws(() => pathOf(ROUTES.inspect, {}), /needs :ref/);
  });
});

describe('POST /v1/wait', () => {
  test('refuses an unknown field, naming it', () => {
    const r = checkInput(ROUTE_SCHEMAS.wait.body!, { ids: ['a'], untill: 'idle' }, 'body');
    assert.equal(r.ok, false);
    assert.match((r as { message: string }).message, /unknown field 'untill'/);
    assert.equal(checkInput(ROUTE_SCHEMAS.wait.body!, { ids: ['a'], until: 'idle' }, 'body').ok, true);
  });
});
