import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chunkBytesFor, chunksToKeep, logExtent, logSize, readLog } from '../../src/daemon/output/log-files.js';

const KiB = 1024;
const MiB = 1024 * KiB;

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A log directory holding `text` split into chunks of `chunk` bytes, the way `split -a 6 -d` writes them. */
function logDir(text: string, chunk: number, firstIndex = 0): string {
  const dir = mkdtempSync(join(tmpdir(), 'amux-unit-log-'));
  dirs.push(dir);
  const bytes = Buffer.from(text);
  for (let i = 0; i * chunk < bytes.length; i++) {
    if (i < firstIndex) continue;
    writeFileSync(join(dir, `log.${String(i).padStart(6, '0')}`), bytes.subarray(i * chunk, (i + 1) * chunk));
  }
  return dir;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz'; // 26 bytes: chunks of 4 → 7 chunks, the last one 2 bytes

describe('chunkBytesFor', () => {
  const cases: [number, number][] = [
    [8 * MiB, MiB],
    [64 * MiB, MiB],
    [4 * MiB, 512 * KiB],
    [64 * KiB, 8 * KiB],
    [32 * KiB, 4 * KiB],
    [4 * KiB, 4 * KiB],
    [100, 4 * KiB],
    [8 * MiB + 7, MiB],
  ];
  for (const [cap, chunk] of cases) {
    test(`cap ${cap} → chunk ${chunk}`, () => assert.equal(chunkBytesFor(cap), chunk));
  }
});

describe('chunksToKeep', () => {
  test('cap / chunk, at least one', () => {
    assert.equal(chunksToKeep(8 * MiB, MiB), 8);
    assert.equal(chunksToKeep(8 * MiB + 10, MiB), 8);
    assert.equal(chunksToKeep(4 * KiB, 4 * KiB), 1);
    assert.equal(chunksToKeep(100, 4 * KiB), 1);
  });

  test('what is kept never exceeds the cap', () => {
    for (const cap of [4 * KiB, 5000, 64 * KiB, 3 * MiB + 1, 8 * MiB, 100 * MiB]) {
      const chunk = chunkBytesFor(cap);
      assert.ok(chunksToKeep(cap, chunk) * chunk <= Math.max(cap, chunk), `cap ${cap}`);
    }
  });
});

describe('logExtent', () => {
  test('a missing or empty directory is an empty log', () => {
    assert.deepEqual(logExtent('/nonexistent/amux/log', 4), { first: 0, end: 0, truncated: false, indices: [] });
    assert.deepEqual(logExtent(logDir('', 4), 4), { first: 0, end: 0, truncated: false, indices: [] });
  });

  test('whole log', () => {
    assert.deepEqual(logExtent(logDir(ALPHABET, 4), 4), { first: 0, end: 26, truncated: false, indices: [0, 1, 2, 3, 4, 5, 6] });
  });

  test('ignores files that are not chunks', () => {
    const dir = logDir(ALPHABET, 4);
    writeFileSync(join(dir, 'log.tmp'), 'x');
    writeFileSync(join(dir, 'log.'), 'x');
    writeFileSync(join(dir, 'other.000009'), 'x');
    assert.deepEqual(logExtent(dir, 4).indices, [0, 1, 2, 3, 4, 5, 6]);
    assert.equal(logExtent(dir, 4).end, 26);
  });

  test('after the oldest chunks are gone: absolute offsets, truncated', () => {
    assert.deepEqual(logExtent(logDir(ALPHABET, 4, 3), 4), { first: 12, end: 26, truncated: true, indices: [3, 4, 5, 6] });
  });

  test('sorts chunk indices numerically', () => {
    const dir = logDir('', 4);
    for (const i of [10, 9, 100]) writeFileSync(join(dir, `log.${String(i).padStart(6, '0')}`), 'abcd');
    assert.deepEqual(logExtent(dir, 4).indices, [9, 10, 100]);
    assert.equal(logExtent(dir, 4).end, 404);
  });
});

describe('logSize', () => {
  test('walks from the hint to the newest chunk', () => {
    const dir = logDir(ALPHABET, 4);
    assert.deepEqual(logSize(dir, 4, 0), { index: 6, end: 26 });
    assert.deepEqual(logSize(dir, 4, 4), { index: 6, end: 26 });
    assert.deepEqual(logSize(dir, 4, 6), { index: 6, end: 26 });
  });

  test('a full last chunk', () => {
    const dir = logDir(ALPHABET.slice(0, 8), 4);
    assert.deepEqual(logSize(dir, 4, 0), { index: 1, end: 8 });
  });

  test('no log yet', () => {
    assert.deepEqual(logSize(logDir('', 4), 4, 0), { index: 0, end: 0 });
  });

  test(
    'finds the newest chunk when the hinted one was pruned',

    () => {
      const dir = logDir(ALPHABET, 4, 3);
      assert.deepEqual(logSize(dir, 4, 0), { index: 6, end: 26 });
    },
  );
});

describe('readLog', () => {
  test('reads across chunk boundaries with absolute offsets', () => {
    const dir = logDir(ALPHABET, 4);
    const r = readLog(dir, 4, 2, 9);
    assert.equal(r.data.toString(), 'cdefghijk');
    assert.equal(r.offset, 2);
    assert.equal(r.nextOffset, 11);
    assert.deepEqual(r.extent, { first: 0, end: 26, truncated: false, indices: [0, 1, 2, 3, 4, 5, 6] });
  });

  test('every offset and limit gives the matching slice', () => {
    const dir = logDir(ALPHABET, 4);
    for (let offset = 0; offset <= 27; offset++) {
      for (let limit = 0; limit <= 27; limit++) {
        const r = readLog(dir, 4, offset, limit);
        const from = Math.min(offset, 26);
        assert.equal(r.data.toString(), ALPHABET.slice(from, from + limit), `offset ${offset} limit ${limit}`);
        assert.equal(r.offset, from);
        assert.equal(r.nextOffset, from + r.data.length);
      }
    }
  });

  test('paging with nextOffset reads everything exactly once', () => {
    const dir = logDir(ALPHABET, 4);
    let offset = 0;
    let all = '';
    for (let i = 0; i < 20; i++) {
      const r = readLog(dir, 4, offset, 3);
      all += r.data.toString();
      offset = r.nextOffset;
    }
    assert.equal(all, ALPHABET);
    assert.equal(offset, 26);
  });

  test('a negative offset starts at the beginning; past the end gives nothing', () => {
    const dir = logDir(ALPHABET, 4);
    assert.equal(readLog(dir, 4, -5, 3).data.toString(), 'abc');
    const r = readLog(dir, 4, 1000, 10);
    assert.equal(r.data.length, 0);
    assert.equal(r.offset, 26);
    assert.equal(r.nextOffset, 26);
  });

  test('a missing log reads as empty', () => {
    const r = readLog('/nonexistent/amux/log', 4, 0, 100);
    assert.equal(r.data.length, 0);
    assert.equal(r.nextOffset, 0);
  });
});

