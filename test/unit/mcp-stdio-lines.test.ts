import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { LineReader, messageId } from '../../src/mcp/lines.js';
import { findOwnSession, parentPid, sessionIdIn } from '../../src/mcp/own-session.js';

describe('amux mcp stdio lines', () => {
  test('splits lines across chunks, drops a CR, and keeps an unfinished line', () => {
    const r = new LineReader(100);
    assert.deepEqual(r.push(Buffer.from('{"a":1}\r\n{"b"')), [{ kind: 'line', text: '{"a":1}' }]);
    assert.deepEqual(r.push(Buffer.from(':2}\n\n')), [{ kind: 'line', text: '{"b":2}' }, { kind: 'line', text: '' }]);
  });

  test('a line over the limit is dropped as it comes, told with its size and id, and the next line is read', () => {
    const r = new LineReader(64);
    const long = `{"method":"tools/call","params":{"x":"${'a'.repeat(500)}"},"jsonrpc":"2.0","id":12}`;
    assert.deepEqual(r.push(Buffer.from(long.slice(0, 200))), []);
    const pieces = r.push(Buffer.from(`${long.slice(200)}\n{"ok":1}\n`));
    assert.deepEqual(pieces, [{ kind: 'oversize', bytes: long.length, id: 12 }, { kind: 'line', text: '{"ok":1}' }]);
  });

  test('the id of a cut message: first or last, a string or a number, never a nested one', () => {
    assert.equal(messageId('{"jsonrpc":"2.0","id":"r-1","method":"x","params":{"a":"', ''), 'r-1');
    assert.equal(messageId('{"method":"tools/call","params":{"id":5,"b":"', '"}},"jsonrpc":"2.0","id":7}'), 7);
    assert.equal(messageId('{"method":"x","params":{"id":5,"b":"', 'aaa","id":9}}}'), null);
    assert.equal(messageId('garbage', 'garbage'), null);
  });
});

describe('amux mcp own session', () => {
  test('reads the parent pid past a command name with spaces and parentheses', () => {
    assert.equal(parentPid('4242 (my (odd) prog) S 77 4242 4242 0 -1'), 77);
    assert.equal(sessionIdIn('PATH=/bin\0AMUX_SESSION_ID=ab12cd34\0HOME=/root\0'), 'ab12cd34');
    assert.equal(sessionIdIn('PATH=/bin\0AMUX_SESSION_ID=\0'), null);
  });

  test('takes its own variable first, else the nearest ancestor that has one', () => {
    const proc = mkdtempSync('/tmp/amux-proc-');
    try {
      const add = (pid: number, ppid: number, environ: string) => {
        mkdirSync(join(proc, String(pid)));
        writeFileSync(join(proc, String(pid), 'stat'), `${pid} (node) S ${ppid} 1 1`);
        writeFileSync(join(proc, String(pid), 'environ'), environ);
      };
      add(30, 20, 'HOME=/x\0');
      add(20, 10, 'AMUX_SESSION_ID=near0001\0');
      add(10, 1, 'AMUX_SESSION_ID=far00001\0');
      assert.equal(findOwnSession({}, 30, proc), 'near0001');
      assert.equal(findOwnSession({ AMUX_SESSION_ID: 'mine0001' }, 30, proc), 'mine0001');
      assert.equal(findOwnSession({}, 99, proc), null);
    } finally {
      rmSync(proc, { recursive: true, force: true });
    }
  });
});
