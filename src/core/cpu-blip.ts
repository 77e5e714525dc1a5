import { MS_PER_TICK, usedCpu, type Activity, type Ticks } from './activity.js';

/**
 * A blip of CPU at an idle prompt (ADR 0048): a program waiting for you that computes for a moment
 * on its own (Claude Code's timer: 0.08–0.8 s every 40–80 s) stays `idle`; CPU that lasts
 * CPU_BLIP_MS, over at least CPU_BLIP_LOOKS looks in a row that each found CPU used, is work, and
 * the session turns `working (cpu)`. Input typed through amux makes a session `working` at once, so
 * this never delays the answer to a command; output while the program waits on the terminal is
 * its prompt's redraw, `idle` anyway.
 *
 * A burst is timed while it goes on: from a look that finds a real share of a core used since its
 * base, to each look at least BURST_GAP_MS after the last one that measured it which finds that
 * share used since then and a thread running now (or, paused at this instant, BURST_SHARE used);
 * any other such look ends it (a look sooner leaves it as it is: ticks count in 10 ms). `cpu` with
 * no streak (a thread runnable with no tick yet, the tail of a burst that stopped in a late look's
 * long window) is held as the prompt too. Without that, on a machine so busy that the daemon's
 * looks came late, the tail of one blip and the start of the next made one streak of two blips
 * 2 s apart (ADR 0048 amended).
 */
export const CPU_BLIP_MS = 1000;
/** Looks in a row that must find CPU used: a daemon that stalled cannot make one long look of two blips. */
export const CPU_BLIP_LOOKS = 3;

/** How long after the look that last measured a burst a look can tell that it stopped (ticks count in 10 ms: a few of them at a tenth of a core). */
export const BURST_GAP_MS = 200;

/** A burst of CPU at an idle prompt, timed: since when, over how many looks, and the last look that measured it (its time and ticks). */
export interface CpuStreak {
  since: number;
  looks: number;
  at: number;
  ticks: Ticks;
}

/** The share of a core since the last look that keeps a burst going while no thread runs at this look. */
export const BURST_SHARE = 0.5;

/** What a look found of a burst: its ticks; those used since `from` (the streak's last look, else the look's base) and whether a thread runs, absent when it judged no CPU. */
export interface BurstLook {
  ticks: Ticks;
  from: number;
  burst: { used: number; running: boolean } | undefined;
}

/**
 * The streak after a look at `now` that judged `activity`: a look sooner than BURST_GAP_MS after
 * the streak's last leaves it as it is; `cpu` with a burst going on since `look.from` starts or
 * extends it; anything else ends it.
 */
export function nextStreak(prev: CpuStreak | undefined, activity: Activity, now: number, look: BurstLook): CpuStreak | undefined {
  if (activity.verdict !== 'working' || activity.reason !== 'cpu') return undefined;
  if (prev && now - prev.at < BURST_GAP_MS) return prev;
  if (!look.burst) return undefined;
  const { used, running } = look.burst;
  const elapsed = Math.max(now - look.from, BURST_GAP_MS);
  if (!usedCpu(used, elapsed) || !(running || used * MS_PER_TICK >= BURST_SHARE * elapsed)) return undefined;
  return prev ? { since: prev.since, looks: prev.looks + 1, at: now, ticks: look.ticks } : { since: now, looks: 1, at: now, ticks: look.ticks };
}

/**
 * What an idle session's look says once blips are held: `cpu` that is still a blip is the program
 * still at its prompt (`inputReason`, the reason of the last look that found it there); anything
 * else as judged. Only for a session whose status is `idle` and whose last look found it waiting
 * on the terminal (`inputReason` known): a program that has never asked is not at a prompt.
 */
export function holdBlip(
  status: string,
  activity: Activity,
  streak: CpuStreak | undefined,
  inputReason: 'reading the terminal' | 'at prompt' | undefined,
  now: number,
): Activity {
  if (status !== 'idle' || inputReason === undefined) return activity;
  if (activity.verdict !== 'working' || activity.reason !== 'cpu') return activity;
  // No streak: runnable with no tick yet, or the tail of a burst that stopped.
  const blip = !streak || now - streak.since < CPU_BLIP_MS || streak.looks < CPU_BLIP_LOOKS;
  return blip ? { verdict: 'input', reason: inputReason } : activity;
}
