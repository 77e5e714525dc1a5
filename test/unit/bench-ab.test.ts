import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { epochSizes, slotOrder, type MetricSamples } from '../../scripts/bench/ab-loop.js';
import { compare, selfRatioSpread } from '../../scripts/bench/ab-report.js';
import { parseFrames } from '../../scripts/bench/ab-socket.js';
import { parseTreeArgs } from '../../scripts/bench/ab-trees.js';

/** A frame as src/guides/api.md has it: type, three zero bytes, big-endian length, payload. */
function frame(type: number, payload: string): Buffer {
  const head = Buffer.alloc(8);
  head[0] = type;
  head.writeUInt32BE(Buffer.byteLength(payload), 4);
  return Buffer.concat([head, Buffer.from(payload)]);
}

const metric = (a: number[], a2: number[], b: number[]): MetricSamples => ({ name: 'm', unit: 'ms', samples: { A: a, "A'": a2, B: b } });

describe('bench:ab loop', () => {
  test('runs are cut into near-equal epochs, never an empty one', () => {
    assert.deepEqual(epochSizes(15, 3), [5, 5, 5]);
    assert.deepEqual(epochSizes(7, 3), [2, 2, 3]);
    assert.deepEqual(epochSizes(2, 3), [1, 1]);
  });

  test('the slot order rotates, so each slot goes first in turn', () => {
    assert.deepEqual([0, 1, 2, 3].map((r) => slotOrder(r)[0]), ['A', "A'", 'B', 'A']);
  });
});

describe('bench:ab report', () => {
  test('B within the A/A\' spread is the same; beyond it, worse or better', () => {
    const a = [10, 11, 10, 12, 10, 11, 10, 11];
    const a2 = [11, 10, 11, 10, 12, 10, 11, 10];
    assert.equal(compare(metric(a, a2, [10, 11, 11, 10, 11, 10, 12, 10])).verdict, 'same');
    assert.equal(compare(metric(a, a2, a.map((x) => x * 1.5))).verdict, 'WORSE');
    assert.equal(compare(metric(a, a2, a.map((x) => x * 0.5))).verdict, 'better');
  });

  test('a steady gap between A and A\' (one daemon bigger than the other) is noise too', () => {
    const r = compare(metric([100, 100, 100, 100], [108, 108, 108, 108], [105, 105, 105, 105]));
    assert.ok(Math.abs(r.noise - 0.08) < 1e-9);
    assert.equal(r.verdict, 'same');
  });

  test('the bootstrap spread is deterministic and zero for identical copies', () => {
    const a = [5, 7, 6, 9, 5, 6];
    assert.equal(selfRatioSpread(a, a), 0);
    assert.equal(selfRatioSpread(a, [6, 5, 8, 6, 7, 5]), selfRatioSpread(a, [6, 5, 8, 6, 7, 5]));
  });

  test('a metric that failed is an ERROR row', () => {
    assert.equal(compare({ ...metric([1, 2], [1, 2], [1, 2]), error: 'B: boom' }).verdict, 'ERROR');
  });
});

describe('bench:ab socket client', () => {
  test('splits a job stream into frames', () => {
    const frames = parseFrames(Buffer.concat([frame(0, '{"id":"j1"}'), frame(1, 'out'), frame(3, '{"status":"completed"}')]));
    assert.deepEqual(frames.map((f) => [f.type, f.payload.toString()]), [[0, '{"id":"j1"}'], [1, 'out'], [3, '{"status":"completed"}']]);
  });

  test('a stream cut inside a frame is an error', () => {
    assert.throws(() => parseFrames(frame(3, '{"status":"completed"}').subarray(0, 12)), /inside a frame/);
  });
});

describe('bench:ab arguments', () => {
  test('--baseline is required, unknown arguments are refused', () => {
    assert.throws(() => parseTreeArgs([], '/'), /--baseline is required/);
    assert.throws(() => parseTreeArgs(['--baseline', '/', '--fast'], '/'), /unknown argument/);
    assert.throws(() => parseTreeArgs(['--baseline'], '/'), /needs a directory/);
  });

  test('a directory without bin/amux is refused', () => {
    assert.throws(() => parseTreeArgs(['--baseline=/nonexistent'], '/'), /bin\/amux is missing/);
  });
});
