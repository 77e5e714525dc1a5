import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { SessionRecord } from '../../src/core/records.js';
import type { DaemonContext } from '../../src/daemon/context.js';
import { logBytes } from '../../src/daemon/output/log-size.js';
import { amuxPaths, sessionPaths } from '../../src/paths.js';
import { hasByteAt, release } from '../../src/process/held-read.js';

const home = mkdtempSync('/tmp/amux-growth-');
after(() => rmSync(home, { recursive: true, force: true }));

test('hasByteAt: whether a file held open has grown past an offset; null when it cannot be read', () => {
  const path = join(home, 'grows');
  writeFileSync(path, '');
  assert.equal(hasByteAt(path, 0), false, 'empty');
  appendFileSync(path, 'abc');
  assert.equal(hasByteAt(path, 0), true, 'grew: the held descriptor reads what was appended after it opened');
  assert.equal(hasByteAt(path, 2), true);
  assert.equal(hasByteAt(path, 3), false, 'nothing past its end');
  appendFileSync(path, 'd');
  assert.equal(hasByteAt(path, 3), true);
  assert.equal(hasByteAt(join(home, 'missing'), 0), null, 'cannot be opened: the caller asks another way');
  // Replaced: the held descriptor reads the old file until it is released.
  const next = join(home, 'next');
  writeFileSync(next, 'abcdefgh');
  renameSync(next, path);
  assert.equal(hasByteAt(path, 4), false, 'still the old file (4 bytes)');
  release(path);
  assert.equal(hasByteAt(path, 4), true, 'released: the path opened afresh');
});

test('logBytes: the same sizes as a stat, across appends and a chunk that fills (ADR 0071)', () => {
  // Only what logBytes reads of a daemon's context: its paths and the sessions' runtime.
  const ctx = { paths: amuxPaths(home), runtime: new Map() } as unknown as DaemonContext;
  const s = { id: '0000abcd', logChunkBytes: 8 } as SessionRecord;
  const dir = sessionPaths(ctx.paths, s.id).logDir;
  mkdirSync(dir, { recursive: true });
  const chunk = (i: number) => join(dir, `log.${String(i).padStart(6, '0')}`);
  assert.equal(logBytes(ctx, s), 0, 'no chunk yet');
  writeFileSync(chunk(0), 'hello');
  assert.equal(logBytes(ctx, s), 5);
  assert.equal(logBytes(ctx, s), 5, 'unchanged: told by a read at its end');
  appendFileSync(chunk(0), '!!');
  assert.equal(logBytes(ctx, s), 7, 'grown: measured again');
  appendFileSync(chunk(0), '?');
  writeFileSync(chunk(1), 'ab');
  assert.equal(logBytes(ctx, s), 10, 'chunk 0 filled, chunk 1 begun');
  appendFileSync(chunk(1), 'c');
  assert.equal(logBytes(ctx, s), 11);
  assert.equal(logBytes(ctx, s), 11);
});
