/**
 * CPU and memory of a session's process tree (src/guides/api.md: `GET /v1/sessions?usage=1`; ADR 0020).
 * Pure: the daemon reads the processes from /proc (`src/process/usage.ts`) and keeps the previous
 * sample per session; these functions do the arithmetic.
 */

/** One process as /proc/PID/stat tells it. */
export interface ProcSample {
  pid: number;
  ppid: number;
  /** Its Unix session (the pane's process leads the session of a whole amux session). */
  sid: number;
  /**
   * CPU time in clock ticks: its own (utime + stime) and that of its children it has waited for
   * (cutime + cstime), so that a process which ended between two looks still counts once its
   * parent has reaped it.
   */
  ticks: number;
  rssPages: number;
}

/** Linux reports CPU time in ticks of 1/100 s (USER_HZ) whatever the kernel's own HZ. */
export const MS_PER_TICK = 10;

/** Children of each pid, from one scan. */
export function childrenIndex(procs: Iterable<ProcSample>): Map<number, number[]> {
  const index = new Map<number, number[]>();
  for (const p of procs) {
    const list = index.get(p.ppid);
    if (list) list.push(p.pid);
    else index.set(p.ppid, [p.pid]);
  }
  return index;
}

/**
 * The processes of a session whose shell is `shell`: the shell, its descendants, and the other
 * members of its Unix session (what a job left behind, reparented away), but not the session's
 * leader (the pane's `timeout`, the shell's parent; ADR 0010). The same set as `kill` signals.
 */
export function sessionTree(procs: ReadonlyMap<number, ProcSample>, children: ReadonlyMap<number, number[]>, shell: number): number[] {
  const root = procs.get(shell);
  if (!root) return [];
  const seen = new Set<number>([shell]);
  const queue = [shell];
  while (queue.length) {
    for (const c of children.get(queue.shift()!) ?? []) {
      if (!seen.has(c)) {
        seen.add(c);
        queue.push(c);
      }
    }
  }
  for (const p of procs.values()) if (p.sid === root.sid && p.pid !== root.sid) seen.add(p.pid);
  return [...seen];
}

/** CPU ticks and resident bytes of a set of processes. */
export function treeTotals(procs: ReadonlyMap<number, ProcSample>, pids: readonly number[], pageBytes: number): { ticks: number; rssBytes: number } {
  let ticks = 0;
  let pages = 0;
  for (const pid of pids) {
    const p = procs.get(pid);
    if (!p) continue;
    ticks += p.ticks;
    pages += p.rssPages;
  }
  return { ticks, rssBytes: pages * pageBytes };
}

/**
 * CPU use between two samples as a percentage of one core (100 = one core busy all the time, as
 * in top and htop; a tree on four busy cores shows 400). Null without an earlier sample or over
 * no time. Fewer ticks than before (a process that ended without being waited for by a member of
 * the tree took its ticks along) count as none.
 */
export function cpuPercent(prev: { ticks: number; at: number } | undefined, ticks: number, at: number, msPerTick = MS_PER_TICK): number | null {
  if (!prev || at <= prev.at) return null;
  const used = Math.max(0, ticks - prev.ticks) * msPerTick;
  return Math.round((used / (at - prev.at)) * 1000) / 10;
}
