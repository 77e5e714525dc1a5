import type { SessionRecord } from '../../core/records.js';
import { isLive } from '../../core/status.js';
import { childrenIndex, cpuPercent, sessionTree, treeTotals } from '../../core/usage.js';
import { pageSize, scanProcesses } from '../../process/usage.js';
import type { SessionUsage } from '../../protocol/sessions.js';
import { runtimeOf, type DaemonContext } from '../context.js';

/**
 * The shortest window a CPU % is measured over. A look sooner than this after the previous one
 * (a second client, a refresh right after an event) gets the previous figure: a window of a few
 * milliseconds would be all noise, since the kernel counts in 10 ms ticks.
 */
export const MIN_WINDOW_MS = 400;

/**
 * CPU % and resident memory of each live session's process tree (README "API": `usage=1`;
 * ADR 0020): one pass over /proc for all of them, never one per session. CPU % is over the time
 * since the previous look at that session (kept in its runtime), so the first look has none.
 */
export function sessionUsage(ctx: DaemonContext, sessions: readonly SessionRecord[], now = Date.now()): Map<string, SessionUsage> {
  const out = new Map<string, SessionUsage>();
  const live = sessions.filter((s) => isLive(s.status) && s.pid);
  if (live.length === 0) return out;
  const procs = scanProcesses();
  const children = childrenIndex(procs.values());
  const page = pageSize();
  for (const s of live) {
    const tree = sessionTree(procs, children, s.pid!);
    if (tree.length === 0) {
      out.set(s.id, { cpuPercent: null, rssBytes: null });
      continue;
    }
    const { ticks, rssBytes } = treeTotals(procs, tree, page);
    const rt = runtimeOf(ctx, s.id);
    const prev = rt.usage;
    if (prev && now - prev.at < MIN_WINDOW_MS && ticks >= prev.ticks) {
      out.set(s.id, { cpuPercent: prev.cpuPercent, rssBytes });
      continue;
    }
    const pct = cpuPercent(prev, ticks, now);
    rt.usage = { ticks, at: now, cpuPercent: pct };
    out.set(s.id, { cpuPercent: pct, rssBytes });
  }
  return out;
}
