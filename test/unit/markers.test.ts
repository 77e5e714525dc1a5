import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { type Mark, MarkerStream, type Piece, markerPrefix, stripMarkers } from '../../src/core/markers.js';

const NONCE = '3f9a01bc';
const start = (seq: number, nonce = NONCE) => `\x1b]5150;amux;${nonce};s;${seq}\x07`;
const end = (seq: number, code: number, nonce = NONCE) => `\x1b]5150;amux;${nonce};e;${seq};${code}\x07`;

/** Pieces as comparable data: adjacent data merged into one string (latin1 keeps bytes). */
type Flat = (string | Mark)[];
function flatten(pieces: Piece[]): Flat {
  const out: Flat = [];
  for (const p of pieces) {
    if ('mark' in p) out.push(p.mark);
    else if (p.data.length > 0) {
      const s = p.data.toString('latin1');
      if (typeof out[out.length - 1] === 'string') out[out.length - 1] += s;
      else out.push(s);
    }
  }
  return out;
}

function feedChunks(buf: Buffer, sizes: (i: number) => number): { flat: Flat; offsets: number[]; stream: MarkerStream } {
  const stream = new MarkerStream(NONCE);
  const pieces: Piece[] = [];
  const offsets: number[] = [];
  let pos = 0;
  let i = 0;
  while (pos < buf.length) {
    const n = Math.max(1, Math.min(sizes(i++), buf.length - pos));
    pieces.push(...stream.feed(buf.subarray(pos, pos + n)));
    pos += n;
    offsets.push(stream.offset);
  }
  pieces.push(...stream.feed(Buffer.alloc(0), true));
  return { flat: flatten(pieces), offsets, stream };
}

/** A small deterministic PRNG so a failure can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// A stream with everything that can confuse a splitter: other OSC sequences, lone ESC and BEL,
// a foreign nonce, malformed markers, UTF-8 text and markers back to back.
const STREAM = [
  '$ make\r\n',
  start(1),
  'building \x1b[32m✓\x1b[0m\r\n\x1b]0;title\x07',
  'a lone ESC \x1b and a BEL \x07 here\n',
  start(9, 'ffffffff'),
  `\x1b]5150;amux;${NONCE};x;1\x07`,
  `\x1b]5150;amux;${NONCE};s;0\x07`,
  `\x1b]5150;amux;${NONCE};e;1\x07`,
  `\x1b]5150;amux;${NONCE};s;1;2\x07`,
  '\x1b]5150;amux;3f9a01',
  'done\r\n',
  end(1, 0),
  start(2),
  end(2, 130),
  '$ ',
].join('');
const EXPECTED: Flat = ([
  '$ make\r\n',
  { kind: 'start', seq: 1 },
  'building \x1b[32m✓\x1b[0m\r\n\x1b]0;title\x07a lone ESC \x1b and a BEL \x07 here\n' +
    `${start(9, 'ffffffff')}\x1b]5150;amux;${NONCE};x;1\x07\x1b]5150;amux;${NONCE};s;0\x07` +
    `\x1b]5150;amux;${NONCE};e;1\x07\x1b]5150;amux;${NONCE};s;1;2\x07\x1b]5150;amux;3f9a01done\r\n`,
  { kind: 'end', seq: 1, code: 0 },
  { kind: 'start', seq: 2 },
  { kind: 'end', seq: 2, code: 130 },
  '$ ',
] as Flat).map((x) => (typeof x === 'string' ? Buffer.from(x).toString('latin1') : x));
const BYTES = Buffer.from(STREAM);

describe('MarkerStream', () => {
  test('markerPrefix', () => {
    assert.equal(markerPrefix('abc').toString(), '\x1b]5150;amux;abc;');
  });

  test('a whole buffer splits into data and marks', () => {
    const stream = new MarkerStream(NONCE);
    assert.deepEqual(flatten(stream.feed(BYTES)), EXPECTED);
    assert.equal(stream.offset, BYTES.length);
  });

  test('a lone marker', () => {
    assert.deepEqual(flatten(new MarkerStream(NONCE).feed(Buffer.from(end(12, 3)))), [{ kind: 'end', seq: 12, code: 3 }]);
  });

  test('byte by byte gives the same result', () => {
    const { flat, offsets } = feedChunks(BYTES, () => 1);
    assert.deepEqual(flat, EXPECTED);
    assert.equal(offsets[offsets.length - 1], BYTES.length);
  });

  test('random chunk splits give the same result', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const rand = rng(seed);
      const { flat } = feedChunks(BYTES, () => 1 + Math.floor(rand() * 40));
      assert.deepEqual(flat, EXPECTED, `seed ${seed}`);
    }
  });

  test('offset never passes the input and never goes back', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const rand = rng(seed);
      let fed = 0;
      const stream = new MarkerStream(NONCE);
      let last = 0;
      let pos = 0;
      while (pos < BYTES.length) {
        const n = Math.min(1 + Math.floor(rand() * 30), BYTES.length - pos);
        stream.feed(BYTES.subarray(pos, pos + n));
        pos += n;
        fed += n;
        assert.ok(stream.offset <= fed, `seed ${seed}: offset ${stream.offset} > fed ${fed}`);
        assert.ok(stream.offset >= last, `seed ${seed}: offset went back`);
        assert.ok(fed - stream.offset <= 96, `seed ${seed}: holds back more than one marker`);
        last = stream.offset;
      }
      assert.equal(stream.offset, BYTES.length, `seed ${seed}`);
    }
  });

  test('offset excludes a held-back partial marker, and counts it once complete', () => {
    const stream = new MarkerStream(NONCE);
    const marker = Buffer.from(end(4, 0));
    const first = Buffer.concat([Buffer.from('hello '), marker.subarray(0, 20)]);
    assert.deepEqual(flatten(stream.feed(first)), ['hello ']);
    assert.equal(stream.offset, 6);
    assert.deepEqual(flatten(stream.feed(marker.subarray(20))), [{ kind: 'end', seq: 4, code: 0 }]);
    assert.equal(stream.offset, 6 + marker.length);
  });

  test('a partial prefix at a chunk end is held back, then released when it is not a marker', () => {
    const stream = new MarkerStream(NONCE);
    assert.deepEqual(flatten(stream.feed(Buffer.from('abc\x1b]51'))), ['abc']);
    assert.equal(stream.offset, 3);
    assert.deepEqual(flatten(stream.feed(Buffer.from('0;x\n'))), ['\x1b]510;x\n']);
    assert.equal(stream.offset, 11);
  });

  test('a lone ESC at a chunk end is held back for one chunk only', () => {
    const stream = new MarkerStream(NONCE);
    assert.deepEqual(flatten(stream.feed(Buffer.from('x\x1b'))), ['x']);
    assert.equal(stream.offset, 1);
    assert.deepEqual(flatten(stream.feed(Buffer.from('[0m'))), ['\x1b[0m']);
    assert.equal(stream.offset, 5);
  });

  test('a marker with the wrong nonce passes through as data', () => {
    const text = `a${start(1, 'deadbeef')}b${end(1, 0, 'deadbeef')}c`;
    assert.deepEqual(flatten(new MarkerStream(NONCE).feed(Buffer.from(text))), [text]);
    assert.deepEqual(feedChunks(Buffer.from(text), () => 1).flat, [text]);
  });

  for (const body of ['x;1', 's;0', 's;-1', 's;abc', 's;1.5', 's;', 'e;1', 'e;1;x', 'e;1;2;3', 's;1;2', '']) {
    test(`a malformed marker (${JSON.stringify(body)}) passes through as data`, () => {
      const text = `before\x1b]5150;amux;${NONCE};${body}\x07after`;
      assert.deepEqual(flatten(new MarkerStream(NONCE).feed(Buffer.from(text))), [text]);
      assert.deepEqual(feedChunks(Buffer.from(text), () => 1).flat, [text]);
    });
  }

  test('numeric fields are plain decimal', () => {
    for (const body of ['e;1;', 's;0x1', 's; 1', 'e;1;1e2', 'e;1; ']) {
      const text = `\x1b]5150;amux;${NONCE};${body}\x07`;
      assert.deepEqual(flatten(new MarkerStream(NONCE).feed(Buffer.from(text))), [text], body);
    }
  });

  test('a marker too long to be one passes through as data, split or not', () => {
    // Padding the seq with zeros keeps it valid and makes the marker as long as we like.
    const prefix = `\x1b]5150;amux;${NONCE};s;`;
    const sized = (len: number) => `${prefix}${'1'.padStart(len - prefix.length - 1, '0')}\x07`;
    for (let len = 90; len <= 100; len++) {
      const text = `<${sized(len)}>`;
      const whole = flatten(new MarkerStream(NONCE).feed(Buffer.from(text)));
      const split = feedChunks(Buffer.from(text), () => 1).flat;
      assert.deepEqual(split, whole, `length ${len}`);
      if (len <= 97) assert.deepEqual(whole, ['<', { kind: 'start', seq: 1 }, '>'], `length ${len}`);
      else assert.deepEqual(whole, [text], `length ${len}`);
    }
  });

  test('final=true flushes a held-back partial marker as data', () => {
    const stream = new MarkerStream(NONCE);
    const partial = `\x1b]5150;amux;${NONCE};e;3`;
    assert.deepEqual(flatten(stream.feed(Buffer.from(`out${partial}`))), ['out']);
    assert.equal(stream.offset, 3);
    assert.deepEqual(flatten(stream.feed(Buffer.alloc(0), true)), [partial]);
    assert.equal(stream.offset, 3 + partial.length);
  });

  test('final=true on a chunk that ends in a partial prefix keeps the bytes', () => {
    const stream = new MarkerStream(NONCE);
    assert.deepEqual(flatten(stream.feed(Buffer.from('tail\x1b]5'), true)), ['tail\x1b]5']);
    assert.equal(stream.offset, 7);
  });

  test('UTF-8 split inside a character is passed through intact', () => {
    const text = Buffer.from(`é✓🎉${start(1)}日本`);
    const { flat } = feedChunks(text, () => 1);
    assert.deepEqual(flat, [Buffer.from('é✓🎉').toString('latin1'), { kind: 'start', seq: 1 }, Buffer.from('日本').toString('latin1')]);
  });
});

describe('stripMarkers', () => {
  test('removes our markers only', () => {
    const expected = EXPECTED.filter((x): x is string => typeof x === 'string').join('');
    assert.equal(stripMarkers(BYTES, NONCE).toString('latin1'), expected);
  });

  test('keeps a trailing partial marker', () => {
    const text = `a${start(1)}b\x1b]5150;amux;${NONCE};e`;
    assert.equal(stripMarkers(Buffer.from(text), NONCE).toString(), `ab\x1b]5150;amux;${NONCE};e`);
  });

  test('a buffer without markers is unchanged', () => {
    const buf = Buffer.from([0, 1, 0x1b, 0x5d, 0x07, 0xff, 0xfe]);
    assert.deepEqual(stripMarkers(buf, NONCE), buf);
  });
});
