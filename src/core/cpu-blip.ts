import type { Activity } from './activity.js';

/**
 * A blip of CPU at an idle prompt (ADR 0048): a program waiting for you that computes for a moment
 * on its own (Claude Code's timer: 0.08–0.8 s every 40–80 s) stays `idle`; CPU that lasts
 * CPU_BLIP_MS, over at least CPU_BLIP_LOOKS looks in a row that each found CPU used, is work, and
 * the session turns `working (cpu)`. Input typed through amux makes a session `working` at once, so
 * this never delays the answer to a command; output while the program waits on the terminal is
 * its prompt's redraw, `idle` anyway.
 */
export const CPU_BLIP_MS = 1000;
/** Looks in a row that must find CPU used: a daemon that stalled cannot make one long look of two blips. */
export const CPU_BLIP_LOOKS = 3;

/** Consecutive looks at an idle session that found CPU used: since when, and how many. */
export interface CpuStreak {
  since: number;
  looks: number;
}

/** The streak after a look that judged `activity` at `now`: started or extended by `cpu`, ended by anything else. */
export function nextStreak(prev: CpuStreak | undefined, activity: Activity, now: number): CpuStreak | undefined {
  if (activity.verdict !== 'working' || activity.reason !== 'cpu') return undefined;
  return prev ? { since: prev.since, looks: prev.looks + 1 } : { since: now, looks: 1 };
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
  if (status !== 'idle' || inputReason === undefined || !streak) return activity;
  if (activity.verdict !== 'working' || activity.reason !== 'cpu') return activity;
  const blip = now - streak.since < CPU_BLIP_MS || streak.looks < CPU_BLIP_LOOKS;
  return blip ? { verdict: 'input', reason: inputReason } : activity;
}
