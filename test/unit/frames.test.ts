import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FRAME, FrameParser, encodeFrame, type Frame } from '../../src/protocol/frames.js';

/** Feeds `chunks` to one parser and collects every frame it hands back (payloads copied). */
function parseAll(chunks: readonly Buffer[]): { frames: Frame[]; leftover: number } {
  const p = new FrameParser();
  const frames: Frame[] = [];
  for (const c of chunks) for (const f of p.push(c)) frames.push({ type: f.type, payload: Buffer.from(f.payload) });
  return { frames, leftover: p.leftover };
}

const plain = (frames: readonly Frame[]) => frames.map((f) => ({ type: f.type, payload: f.payload.toString('latin1') }));

describe('encodeFrame', () => {
  test("docker's 8-byte header: type, three zero bytes, big-endian length", () => {
    const buf = encodeFrame(FRAME.stderr, Buffer.from('hello'));
    assert.deepEqual([...buf.subarray(0, 8)], [2, 0, 0, 0, 0, 0, 0, 5]);
    assert.equal(buf.subarray(8).toString(), 'hello');
    assert.equal(buf.length, 13);
  });

  test('an empty payload is a bare header', () => {
    assert.deepEqual([...encodeFrame(FRAME.end, Buffer.alloc(0))], [3, 0, 0, 0, 0, 0, 0, 0]);
  });

  test('a length above 16 bits uses all four length bytes', () => {
    const buf = encodeFrame(FRAME.stdout, Buffer.alloc(0x012345, 0x61));
    assert.deepEqual([...buf.subarray(0, 8)], [1, 0, 0, 0, 0x00, 0x01, 0x23, 0x45]);
    assert.equal(buf.length, 8 + 0x012345);
  });

  test('frame types', () => {
    assert.deepEqual(FRAME, { start: 0, stdout: 1, stderr: 2, end: 3 });
  });
});

describe('FrameParser', () => {
  const frames: Frame[] = [
    { type: FRAME.start, payload: Buffer.from('{"id":"job-abcd1234-2"}') },
    { type: FRAME.stdout, payload: Buffer.from('out\n') },
    { type: FRAME.stderr, payload: Buffer.alloc(0) },
    { type: FRAME.stdout, payload: Buffer.from([0, 1, 2, 0xff, 0xfe, 10]) },
    { type: FRAME.stderr, payload: Buffer.from('é\u0000err') },
    { type: FRAME.end, payload: Buffer.from('{"exitCode":3}') },
  ];
  const stream = Buffer.concat(frames.map((f) => encodeFrame(f.type, f.payload)));

  test('the whole stream in one chunk', () => {
    const { frames: got, leftover } = parseAll([stream]);
    assert.deepEqual(plain(got), plain(frames));
    assert.equal(leftover, 0);
  });

  test('split in two at every byte boundary (inside headers too)', () => {
    for (let i = 0; i <= stream.length; i++) {
      const { frames: got, leftover } = parseAll([stream.subarray(0, i), stream.subarray(i)]);
      assert.deepEqual(plain(got), plain(frames), `split at ${i}`);
      assert.equal(leftover, 0, `split at ${i}`);
    }
  });

  test('split in three at every pair of boundaries', () => {
    for (let i = 0; i <= stream.length; i++) {
      for (let j = i; j <= stream.length; j++) {
        const { frames: got, leftover } = parseAll([stream.subarray(0, i), stream.subarray(i, j), stream.subarray(j)]);
        assert.deepEqual(plain(got), plain(frames), `split at ${i}, ${j}`);
        assert.equal(leftover, 0);
      }
    }
  });

  test('one byte at a time: each frame comes out exactly when its last byte arrives', () => {
    const p = new FrameParser();
    const got: Frame[] = [];
    let end = 0;
    const ends = frames.map((f) => (end += 8 + f.payload.length));
    for (let i = 0; i < stream.length; i++) {
      const out = p.push(stream.subarray(i, i + 1));
      if (ends.includes(i + 1)) assert.equal(out.length, 1, `byte ${i}`);
      else assert.equal(out.length, 0, `byte ${i}`);
      got.push(...out.map((f) => ({ type: f.type, payload: Buffer.from(f.payload) })));
    }
    assert.deepEqual(plain(got), plain(frames));
    assert.equal(p.leftover, 0);
  });

  test('empty chunks change nothing', () => {
    const { frames: got, leftover } = parseAll([Buffer.alloc(0), stream.subarray(0, 3), Buffer.alloc(0), stream.subarray(3), Buffer.alloc(0)]);
    assert.deepEqual(plain(got), plain(frames));
    assert.equal(leftover, 0);
  });

  test('only empty payloads', () => {
    const s = Buffer.concat([encodeFrame(1, Buffer.alloc(0)), encodeFrame(2, Buffer.alloc(0)), encodeFrame(3, Buffer.alloc(0))]);
    for (let i = 0; i <= s.length; i++) {
      const { frames: got } = parseAll([s.subarray(0, i), s.subarray(i)]);
      assert.deepEqual(got.map((f) => [f.type, f.payload.length]), [[1, 0], [2, 0], [3, 0]]);
    }
  });

  test('a 300 KiB payload, in 4 KiB chunks and at odd boundaries', () => {
    const big = Buffer.alloc(300 * 1024);
    for (let i = 0; i < big.length; i++) big[i] = (i * 31 + 7) & 0xff;
    const s = Buffer.concat([encodeFrame(FRAME.stdout, big), encodeFrame(FRAME.end, Buffer.from('{}'))]);
    const chunks: Buffer[] = [];
    for (let i = 0; i < s.length; i += 4096) chunks.push(s.subarray(i, i + 4096));
    for (const parts of [chunks, [s.subarray(0, 5), s.subarray(5, 8 + big.length - 1), s.subarray(8 + big.length - 1)]]) {
      const { frames: got, leftover } = parseAll(parts);
      assert.equal(got.length, 2);
      assert.equal(got[0]!.type, FRAME.stdout);
      assert.ok(got[0]!.payload.equals(big), 'payload intact');
      assert.deepEqual(plain([got[1]!]), [{ type: FRAME.end, payload: '{}' }]);
      assert.equal(leftover, 0);
    }
  });

  test('leftover counts the bytes of a truncated last frame', () => {
    const whole = encodeFrame(FRAME.stdout, Buffer.from('0123456789'));
    const first = encodeFrame(FRAME.start, Buffer.from('{}'));
    for (let cut = 1; cut < whole.length; cut++) {
      const { frames: got, leftover } = parseAll([first, whole.subarray(0, cut)]);
      assert.deepEqual(plain(got), [{ type: FRAME.start, payload: '{}' }], `cut at ${cut}`);
      assert.equal(leftover, cut, `cut at ${cut}`);
    }
  });

  test('leftover is 0 for a fresh parser and after a clean end', () => {
    const p = new FrameParser();
    assert.equal(p.leftover, 0);
    assert.deepEqual(p.push(Buffer.alloc(0)), []);
    assert.equal(p.leftover, 0);
    p.push(encodeFrame(FRAME.end, Buffer.from('x')));
    assert.equal(p.leftover, 0);
  });
});
