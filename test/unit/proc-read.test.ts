import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { readProc } from '../../src/process/proc-read.js';

test('readProc reads a /proc file as readFileSync does; a gone one is null', () => {
  assert.equal(readProc(`/proc/${process.pid}/cmdline`), readFileSync(`/proc/${process.pid}/cmdline`, 'latin1'));
  assert.match(readProc(`/proc/${process.pid}/stat`)!, new RegExp(`^${process.pid} \\(`));
  assert.equal(readProc('/proc/999999999/stat'), null);
});

test('readProc reads a file longer than its buffer whole, and each read is its own', () => {
  const dir = mkdtempSync(join(tmpdir(), 'amux-proc-'));
  try {
    const long = join(dir, 'long');
    const text = 'x'.repeat(40_000) + '\u00e9';
    writeFileSync(long, text, 'latin1');
    writeFileSync(join(dir, 'short'), 'ab', 'latin1');
    assert.equal(readProc(long), text);
    assert.equal(readProc(join(dir, 'short')), 'ab', 'nothing of the longer read before it is left over');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
