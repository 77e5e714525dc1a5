import type { SessionRecord } from '../../core/records.js';
import { isLive } from '../../core/status.js';
import { childrenIndex, cpuPercent, sessionTree, treeTotals } from '../../core/usage.js';
import { pageSize, scanProcesses } from '../../process/usage.js';
import type { SessionUsage } from '../../protocol/sessions.js';
import { runtimeOf, type DaemonContext } from '../context.js';

/**
 * How long one pass over /proc answers for: a look sooner than this after the previous pass (a
 * second `top`, a refresh right after an event) gets that pass's figures. So CPU % is measured
 * over at least a second, which the kernel's 10 ms ticks make precise to about 1 %, and the
 * daemon reads every process's stat at most once a second however many clients ask.
 */
export const USAGE_REUSE_MS = 1000;

const lastPass = new WeakMap<DaemonContext, { at: number; usage: Map<string, SessionUsage> }>();

/**
 * CPU % and resident memory of each live session's process tree (src/guides/api.md: `usage=1`;
 * ADR 0020): one pass over /proc for all of them, never one per session. CPU % is over the time
 * since the previous pass that saw the session (kept in its runtime), so its first look has none.
 */
export function sessionUsage(ctx: DaemonContext, sessions: readonly SessionRecord[], now = Date.now()): Map<string, SessionUsage> {
  const live = sessions.filter((s) => isLive(s.status) && s.pid);
  const last = lastPass.get(ctx);
  if (last && now - last.at < USAGE_REUSE_MS && live.every((s) => last.usage.has(s.id))) return last.usage;
  const out = new Map<string, SessionUsage>();
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
    const pct = cpuPercent(rt.usage, ticks, now);
    rt.usage = { ticks, at: now };
    out.set(s.id, { cpuPercent: pct, rssBytes });
  }
  lastPass.set(ctx, { at: now, usage: out });
  return out;
}
