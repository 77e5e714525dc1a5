import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import type { ProcSample } from '../core/usage.js';
import { procStat, STAT } from './process-table.js';

/**
 * Every process on the machine, read once from /proc/PID/stat: one pass for all sessions, however
 * many ask (README "API": `usage=1`; ADR 0020). A process that ends during the pass is left out.
 */
export function scanProcesses(): Map<number, ProcSample> {
  const out = new Map<number, ProcSample>();
  for (const name of readdirSync('/proc')) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
    const st = procStat(name);
    if (!st) continue;
    const f = st.fields;
    const pid = Number(name);
    out.set(pid, {
      pid,
      ppid: Number(f[STAT.ppid]),
      sid: Number(f[STAT.session]),
      ticks: Number(f[STAT.utime]) + Number(f[STAT.stime]) + Number(f[STAT.cutime]) + Number(f[STAT.cstime]),
      rssPages: f[STAT.state] === 'Z' ? 0 : Number(f[STAT.rss]) || 0,
    });
  }
  return out;
}

let pageBytes: number | null = null;

/**
 * The size of a memory page (the unit of `rss` in /proc/PID/stat): 4 KiB on x64, 4–64 KiB on
 * arm64. Read once from the first mapping in /proc/self/smaps; 4096 when that cannot be read.
 */
export function pageSize(): number {
  if (pageBytes !== null) return pageBytes;
  pageBytes = 4096;
  try {
    const fd = openSync('/proc/self/smaps', 'r');
    try {
      const buf = Buffer.alloc(4096);
      const n = readSync(fd, buf, 0, buf.length, 0);
      const m = /KernelPageSize:\s+(\d+) kB/.exec(buf.subarray(0, n).toString('latin1'));
      if (m) pageBytes = Number(m[1]) * 1024;
    } finally {
      closeSync(fd);
    }
  } catch {
    /* keep 4096 */
  }
  return pageBytes;
}
