import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_SEQUENCE, pageEnd, pageStartSkip, sequenceEnd } from '../../src/core/page-bounds.js';

const b = (s: string) => Buffer.from(s, 'latin1');
const u = (s: string) => Buffer.from(s, 'utf8');

describe('sequenceEnd', () => {
  test('complete sequences end after their final byte', () => {
    assert.equal(sequenceEnd(b('\x1b[39mx'), 0), 5);
    assert.equal(sequenceEnd(b('\x1b]0;title\x07x'), 0), 10);
    assert.equal(sequenceEnd(b('\x1b]8;;http://a\x1b\\x'), 0), 15);
    assert.equal(sequenceEnd(b('\x1bP1$r\x1b\\'), 0), 7);
    assert.equal(sequenceEnd(b('\x1b(Bx'), 0), 3);
    assert.equal(sequenceEnd(b('\x1b=x'), 0), 2);
  });

  test('-1 when the buffer ends inside one', () => {
    for (const s of ['\x1b', '\x1b[', '\x1b[3', '\x1b[?25', '\x1b]5150;amux;n;e;3', '\x1b]0;t\x1b', '\x1b(']) assert.equal(sequenceEnd(b(s), 0), -1, JSON.stringify(s));
  });
});

describe('pageEnd: a page ends before what it would split', () => {
  test('an escape sequence cut by the limit (npm warn\\x1b[3 | 9m Unknown)', () => {
    const text = b('npm warn\x1b[3');
    assert.equal(pageEnd(text), 8);
    assert.equal(pageEnd(b('npm warn\x1b[39m')), 13);
  });

  test('a job marker, and the ST of an OSC (ESC at the very end)', () => {
    assert.equal(pageEnd(b('out\x1b]5150;amux;abc;e;3')), 3);
    assert.equal(pageEnd(b('out\x1b]0;title\x1b')), 3);
    assert.equal(pageEnd(b('out\x1b]0;title\x1b\\')), 14);
  });

  test('a UTF-8 character cut in the middle', () => {
    const e = u('caf\u00e9');
    assert.equal(pageEnd(e.subarray(0, 4)), 3);
    assert.equal(pageEnd(e), 5);
    const emoji = u('a\u{1F600}');
    for (let k = 2; k < 5; k++) assert.equal(pageEnd(emoji.subarray(0, k)), 1);
    assert.equal(pageEnd(emoji), 5);
  });

  test('a sequence longer than MAX_SEQUENCE is not waited for', () => {
    const long = b(`\x1b]0;${'x'.repeat(MAX_SEQUENCE + 10)}`);
    assert.equal(pageEnd(long, 0), long.length);
  });

  test('plain text and binary bytes end where they end', () => {
    assert.equal(pageEnd(b('hello\n')), 6);
    assert.equal(pageEnd(Buffer.from([0x00, 0xff, 0x80])), 3);
  });
});

describe('pageStartSkip: a page asked to start inside a sequence starts after it', () => {
  test('inside a CSI and inside a marker', () => {
    assert.equal(pageStartSkip(b('npm warn\x1b[3'), b('9m Unknown')), 2);
    assert.equal(pageStartSkip(b('x\x1b]5150;amux;n;'), b('e;3;0\x07next')), 6);
  });

  test('between sequences: nothing skipped', () => {
    assert.equal(pageStartSkip(b('npm warn\x1b[39m'), b(' Unknown')), 0);
    assert.equal(pageStartSkip(b(''), b('\x1b[1mbold')), 0);
    assert.equal(pageStartSkip(b('x\x1b]0;t\x1b\\'), b('text')), 0);
  });

  test('inside a UTF-8 character', () => {
    const e = u('\u20ac!');
    assert.equal(pageStartSkip(e.subarray(0, 1), e.subarray(1)), 2);
    assert.equal(pageStartSkip(e.subarray(0, 2), e.subarray(2)), 1);
    assert.equal(pageStartSkip(e.subarray(0, 3), e.subarray(3)), 0);
  });

  test('pages cut at every offset concatenate to the whole, and none holds a fragment', () => {
    const whole = u('a\x1b[31mred\x1b[0m \u00e9t\u00e9 \x1b]5150;amux;n;s;2\x07job\x1b]0;t\x1b\\ end');
    for (let limit = 1; limit < 12; limit++) {
      const pages: Buffer[] = [];
      let at = 0;
      while (at < whole.length) {
        let page = whole.subarray(at, at + limit);
        let end = pageEnd(page);
        if (end === 0) {
          page = whole.subarray(at, at + limit + MAX_SEQUENCE);
          end = at + page.length >= whole.length ? page.length : pageEnd(page, 0);
        }
        pages.push(page.subarray(0, end));
        at += end;
      }
      assert.deepEqual(Buffer.concat(pages), whole);
      for (const p of pages) {
        assert.equal(pageEnd(p, 0), p.length, `page ${JSON.stringify(p.toString('latin1'))} ends inside something`);
        assert.equal(pageStartSkip(Buffer.alloc(0), p), 0);
      }
    }
  });
});
