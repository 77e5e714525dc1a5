/**
 * The cost of the attention scan (ADR 0034) with the announcements of ADR 0049 and ADR 0050 (a
 * report, never a test): MB/s of `scanAttention` over three kinds of output, each as a ratio
 * against a floor measured in the same run, a loop that only reads every byte and counts ESC and
 * BEL (no scanner can do less). Outputs: plain text (a build log), a TUI redrawing with CSI
 * sequences, and an agent's TUI that animates its window title and reports OSC 7501 and OSC 9;4
 * at every frame. `node dist/scripts/bench-scan.js` (BENCH_SCAN_MB, default 32 per kind).
 */
import * as current from '../src/core/attention-scan.js';

// BENCH_SCAN_MODULE: another build of attention-scan.js (an older one, to compare in the same run's terms).
const mod = (process.env.BENCH_SCAN_MODULE ? require(process.env.BENCH_SCAN_MODULE) : current) as typeof current;
const { newScanState, scanAttention } = mod;

const MB = Number(process.env.BENCH_SCAN_MB ?? 32);
const PIECE = 64 * 1024; // the monitor reads a log in pieces; a look reads at most 1 MiB

function fill(unit: string): Buffer {
  const one = Buffer.from(unit, 'utf8');
  const out = Buffer.alloc(MB * 1024 * 1024);
  for (let at = 0; at < out.length; at += one.length) one.copy(out, at);
  return out;
}

const KINDS: Record<string, Buffer> = {
  'plain text': fill('src/core/attention-scan.ts:120:5 - compiling module 42 of 97 (ok)\n'),
  'TUI (CSI redraws)': fill('\x1b[H\x1b[2K\x1b[38;5;244m│\x1b[0m row \x1b[1mtext\x1b[22m \x1b[?25l\x1b[12;40H…\r\n'),
  'agent TUI (titles, OSC 7501, 9;4)': fill('\x1b]0;⠙ Working (12s • esc to interrupt)\x07\x1b]7501;state=working:app=codex\x1b\\\x1b]9;4;1;42\x07\x1b[2K streaming a token \r\n'),
};

function floor(data: Buffer): number {
  let n = 0;
  for (let i = 0; i < data.length; i++) {
    const b = data[i]!;
    if (b === 0x1b || b === 0x07) n++;
  }
  return n;
}

function scan(data: Buffer): number {
  const state = newScanState();
  let n = 0;
  for (let at = 0; at < data.length; at += PIECE) n += scanAttention(data.subarray(at, at + PIECE), state).signals.length;
  return n;
}

function rate(fn: (d: Buffer) => number, data: Buffer): number {
  let best = Infinity;
  for (let run = 0; run < 5; run++) {
    const t0 = performance.now();
    fn(data);
    best = Math.min(best, performance.now() - t0);
  }
  return data.length / 1024 / 1024 / (best / 1000);
}

console.log(`attention scan, ${MB} MiB per kind, best of 5, pieces of ${PIECE / 1024} KiB`);
console.log('kind'.padEnd(36), 'floor MB/s'.padStart(11), 'scan MB/s'.padStart(10), 'scan/floor'.padStart(11));
for (const [kind, data] of Object.entries(KINDS)) {
  const f = rate(floor, data);
  const s = rate(scan, data);
  console.log(kind.padEnd(36), f.toFixed(0).padStart(11), s.toFixed(0).padStart(10), (s / f).toFixed(2).padStart(11));
}
