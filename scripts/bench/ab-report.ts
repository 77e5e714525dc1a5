import type { MetricSamples, Unit } from './ab-loop.js';
import { stats, type Stats } from './measure.js';

/** One A/B row: medians per slot, B against A, and the noise that B/A must be read against. */
export interface Comparison {
  name: string;
  unit: Unit;
  a: Stats;
  a2: Stats;
  b: Stats;
  /** median B / median A. */
  ratio: number;
  /** median A' / median A: the same tree against itself, in the same loop. */
  selfRatio: number;
  /** Relative noise: the larger of |A'/A − 1| and the half-width of A'/A's 95% bootstrap interval. */
  noise: number;
  verdict: 'WORSE' | 'better' | 'same' | 'ERROR';
  error?: string;
}

/** A small seeded PRNG (mulberry32): the same samples always give the same table. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const median = (xs: readonly number[]) => stats(xs).median;

/**
 * Half-width of the 95% interval of median(A')/median(A) over `resamples` bootstrap resamplings
 * of the rounds. A round's samples stay together (they were taken moments apart, under the same
 * load), so this is the spread that two copies of one tree show in this run, with as many degrees
 * of freedom as rounds rather than the single draw that A'/A alone is.
 */
export function selfRatioSpread(a: readonly number[], a2: readonly number[], resamples = 2000): number {
  const n = Math.min(a.length, a2.length);
  if (n < 2) return NaN;
  const random = prng(0x5eed);
  const ratios: number[] = [];
  for (let r = 0; r < resamples; r++) {
    const picks = Array.from({ length: n }, () => Math.floor(random() * n));
    ratios.push(median(picks.map((i) => a2[i]!)) / median(picks.map((i) => a[i]!)));
  }
  ratios.sort((x, y) => x - y);
  return (ratios[Math.floor(0.975 * (resamples - 1))]! - ratios[Math.floor(0.025 * (resamples - 1))]!) / 2;
}

/**
 * B is worse (or better) only when B/A is further from 1 than the noise. A' is a second copy of A
 * measured in the same loop: under "no change", B/A is distributed as A'/A. The bootstrap gives
 * that distribution's width; |A'/A − 1| is kept as well because some differences between two
 * daemons of the same tree are steady over the whole run (RSS, say) and resampling rounds cannot
 * see them.
 */
export function compare(m: MetricSamples): Comparison {
  const a = stats(m.samples.A);
  const a2 = stats(m.samples["A'"]);
  const b = stats(m.samples.B);
  const ratio = b.median / a.median;
  const selfRatio = a2.median / a.median;
  const noise = Math.max(Math.abs(selfRatio - 1), selfRatioSpread(m.samples.A, m.samples["A'"]));
  const verdict = m.error || !Number.isFinite(ratio) || !Number.isFinite(noise) ? 'ERROR' : ratio - 1 > noise ? 'WORSE' : 1 - ratio > noise ? 'better' : 'same';
  return { name: m.name, unit: m.unit, a, a2, b, ratio, selfRatio, noise, verdict, error: m.error };
}

const num = (n: number, digits: number) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

/** Plain aligned columns, no colour, so the output pastes into a README or a review as is. */
export function renderAbTable(rows: readonly Comparison[]): string {
  const head = ['measurement', 'A', "A'", 'B', 'B/A', "A'/A", 'noise', 'verdict'];
  const cells = rows.map((r) => {
    const v = (s: Stats) => `${num(s.median, 1)} ${r.unit}`;
    const verdict = r.error ? `ERROR: ${r.error}` : r.verdict;
    return [r.name, v(r.a), v(r.a2), v(r.b), num(r.ratio, 3), num(r.selfRatio, 3), `±${num(100 * r.noise, 1)}%`, verdict];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i === 0 || i === 7 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ').trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

/** The JSON form of a row: stats per slot and the raw samples (ms or MB, two decimals). */
export function rowJson(r: Comparison, m: MetricSamples) {
  const round = (xs: readonly number[]) => xs.map((x) => Math.round(x * 100) / 100);
  return {
    name: r.name, unit: r.unit, ratio: r.ratio, selfRatio: r.selfRatio, noise: r.noise, verdict: r.verdict, error: r.error,
    A: r.a, "A'": r.a2, B: r.b,
    samples: { A: round(m.samples.A), "A'": round(m.samples["A'"]), B: round(m.samples.B) },
  };
}
