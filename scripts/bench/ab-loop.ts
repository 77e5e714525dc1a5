import { SLOTS, type Slot } from './ab-trees.js';
import { isAborted } from './measure.js';

export type Unit = 'ms' | 'MB';

/** One measured quantity, sampled from a slot's context (its home, session, socket…). */
export interface Metric<C> {
  name: string;
  unit: Unit;
  /** One sample; `round` counts over the whole phase, warm-up rounds included (unique per home). */
  sample: (ctx: C, round: number) => Promise<number>;
}

/** What one metric collected, per slot; `error` once it failed (it is then sampled no more). */
export interface MetricSamples {
  name: string;
  unit: Unit;
  samples: Record<Slot, number[]>;
  error?: string;
}

/** How many rounds, and how they are cut into epochs. */
export interface LoopPlan {
  /** Timed rounds in all. */
  runs: number;
  /** Untimed rounds at the start of every epoch: page cache, JIT, a new daemon's first requests. */
  warmup: number;
  /** Every epoch runs in fresh homes (see ab-phases.ts). */
  epochs: number;
}

export function emptySamples(metrics: readonly Metric<unknown>[]): MetricSamples[] {
  return metrics.map((m) => ({ name: m.name, unit: m.unit, samples: { A: [], "A'": [], B: [] } }));
}

/** `runs` cut into `epochs` parts as equal as can be (none empty). */
export function epochSizes(runs: number, epochs: number): number[] {
  const k = Math.max(1, Math.min(epochs, runs));
  return Array.from({ length: k }, (_, e) => Math.floor((runs * (e + 1)) / k) - Math.floor((runs * e) / k));
}

/** SLOTS rotated by `round`, so no slot always goes first (right after another tree's sample). */
export function slotOrder(round: number): Slot[] {
  const k = round % SLOTS.length;
  return [...SLOTS.slice(k), ...SLOTS.slice(0, k)];
}

/**
 * Rounds `first` .. `first + warmup + timed - 1`, appending the timed samples to `out` (one entry
 * per metric). Each round samples every metric from each slot in turn (A, A', B, rotated), so a
 * load spike or drift hits the three alike, and A vs A' shows what "no difference" looks like in
 * this very run. A failing metric is recorded and dropped; the others go on.
 */
export async function abRounds<C>(
  ctxs: Record<Slot, C>,
  metrics: readonly Metric<C>[],
  out: MetricSamples[],
  rounds: { first: number; warmup: number; timed: number },
  log: (msg: string) => void,
): Promise<void> {
  for (let k = 0; k < rounds.warmup + rounds.timed; k++) {
    const round = rounds.first + k;
    for (const [i, m] of metrics.entries()) {
      const got = out[i]!;
      if (got.error) continue;
      for (const slot of slotOrder(round)) {
        if (isAborted()) throw new Error('benchmark interrupted');
        try {
          const v = await m.sample(ctxs[slot], round);
          if (k >= rounds.warmup) got.samples[slot].push(v);
        } catch (err) {
          got.error = `${slot}: ${(err as Error).message.split('\n')[0]}`;
          log(`${m.name} failed in slot ${slot}: ${(err as Error).stack ?? err}`);
          break;
        }
      }
    }
  }
}
