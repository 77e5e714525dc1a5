import type { SessionView } from '../../src/protocol/sessions.js';
import type { BenchHome } from './homes.js';
import { timeTmuxCall } from './job-phase.js';
import { stats } from './measure.js';

async function session(h: BenchHome, id: string): Promise<SessionView> {
  return (JSON.parse((await h.amuxOk('inspect', id)).stdout) as { session: SessionView }).session;
}

/**
 * The lifecycle's own latencies, read from the daemon's clock (ADR 0010), next to one tmux call:
 * - queue handover, maxLive 1: a pending run starts when the live one is killed —
 *   `startedAt` of the pending one minus `endedAt` of the killed one (the new tmux session, its
 *   shell found, the row written);
 * - `--timeout 1s` overshoot: `endedAt − startedAt − 1000` of `sleep 100` (the 250 ms check, the
 *   TERM, the kill's wait for the process to go, closing the tmux session).
 */
export async function queuePhase(h: BenchHome, runs: number) {
  h.env.AMUX_MAX_LIVE = '1';
  await h.amuxOk('daemon', 'start');
  const handover: number[] = [];
  const overshoot: number[] = [];
  const tmux: number[] = [];
  for (let i = -1; i < runs; i++) {
    const live = (await h.amuxOk('run', '--', 'sleep 1000')).stdout.trim();
    const queued = (await h.amuxOk('run', '--', 'true')).stdout.trim();
    if ((await session(h, queued)).status !== 'pending') throw new Error(`with maxLive 1, ${queued} should be pending`);
    await h.amuxOk('kill', live);
    await h.amuxOk('wait', queued);
    const [a, b] = [await session(h, live), await session(h, queued)];
    const t = await timeTmuxCall(h);
    const limited = (await h.amuxOk('run', '--timeout', '1s', '--', 'sleep 100')).stdout.trim();
    await h.amux('wait', limited);
    const e = await session(h, limited);
    if (e.status !== 'expired') throw new Error(`${limited} should have expired, is ${e.status}`);
    if (i < 0) continue; // warm-up
    handover.push(Date.parse(b.startedAt!) - Date.parse(a.endedAt!));
    overshoot.push(e.durationMs! - 1000);
    tmux.push(t);
  }
  return { handover: stats(handover), timeoutOvershoot: stats(overshoot), tmux: stats(tmux) };
}
