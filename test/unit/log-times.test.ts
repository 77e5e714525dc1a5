import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { keptMarks, markLine, offsetSince, offsetUntil, parseMarks, parseTimeRef, timeAt } from '../../src/core/log-times.js';
import { stampLines } from '../../src/core/stamp-lines.js';

const marks = parseMarks(`${markLine(10, 1000)}${markLine(25, 2000)}${markLine(40, 3000)}41 `);

describe('log time marks (logs --since/--until/-t)', () => {
  test('a torn last line is skipped', () => {
    assert.deepEqual(marks, [[10, 1000], [25, 2000], [40, 3000]]);
  });
  test('since: from the last mark at or before the time; until: to the last mark within a second after it', () => {
    assert.equal(offsetSince(marks, 500), 0);
    assert.equal(offsetSince(marks, 2000), 25);
    assert.equal(offsetSince(marks, 2500), 25);
    assert.equal(offsetUntil(marks, 1500), 25);
    assert.equal(offsetUntil(marks, 500), 10);
    assert.equal(offsetUntil(marks, -1000), 0);
    assert.equal(offsetUntil(marks, 3000), null, 'at or after the last mark: everything');
  });
  test('a byte is placed at the first mark that covers it', () => {
    assert.equal(timeAt(marks, 10), 1000);
    assert.equal(timeAt(marks, 11), 2000);
    assert.equal(timeAt(marks, 41), null);
  });
  test('times: ISO, epoch ms, or a duration before now; anything else is a usage error', () => {
    assert.equal(parseTimeRef('2026-11-26T10:00:00Z', 0, 'since'), Date.UTC(2026, 10, 26, 10));
    assert.equal(parseTimeRef('1795663932371', 0, 'since'), 1795663932371);
    assert.equal(parseTimeRef('10m', 3_600_000, 'since'), 3_000_000);
    assert.throws(() => parseTimeRef('2026-13-45', 0, 'since'), (e: any) => e.exitCode === 2);
    assert.throws(() => parseTimeRef('soon', 0, 'since'), (e: any) => e.exitCode === 2);
  });
  test('stampLines: markers removed, lines placed by their absolute end, plain text', () => {
    const nonce = 'abcd1234';
    const raw = Buffer.from(`\x1b]5150;amux;${nonce};s;1\x07one\r\ntw\x1b[1mo\x1b[0m\r\n\x1b]5150;amux;${nonce};e;1;0\x07three`);
    const start = raw.indexOf('one');
    const m = [[100 + start + 5, 1], [100 + raw.indexOf('three'), 2], [100 + raw.length, 3]] as const;
    const nl = (from: number) => 100 + raw.indexOf('\n', from) + 1;
    assert.deepEqual(stampLines(raw, 100, nonce, m), [
      { at: 1, text: 'one', end: nl(0) },
      { at: 2, text: 'two', end: nl(nl(0) - 100) },
      { at: 3, text: 'three', end: 100 + raw.length, open: true },
    ]);
  });
});

describe('the marks kept (issue 34 item 12)', () => {
  test('marks of chunks no longer on disk go; beyond the cap the older half is thinned, the newest stay', () => {
    const many: [number, number][] = Array.from({ length: 100 }, (_, i) => [i * 10, 1000 + i * 1000]);
    assert.deepEqual(keptMarks(many, 500, 1000), many.slice(50));
    const thin = keptMarks(many, 0, 40);
    assert.ok(thin.length <= 40, `${thin.length}`);
    assert.deepEqual(thin.slice(-20), many.slice(-20), 'the newest are exact');
    for (let i = 1; i < thin.length; i++) assert.ok(thin[i]![0] > thin[i - 1]![0], 'in order');
    assert.deepEqual(thin.at(-1), many.at(-1));
  });
});
