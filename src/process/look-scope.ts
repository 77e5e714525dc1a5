import { readlinkSync } from 'node:fs';
import { onSocket, onTerminal, type ThreadSample } from '../core/activity.js';
import type { Scope } from './descriptors.js';
import type { Foreground, Stat } from './foreground.js';
import { readProc } from './proc-read.js';
import { STAT } from './process-table.js';
import type { RunMarks } from './run-marks.js';

/**
 * What a look knows of the session beyond one process (ADR 0048): its processes and terminal (for
 * a descriptor's other end), the previous look's threads that have not run since, and the traffic
 * of the members that converse. Each is read only when first asked.
 */

/**
 * The session as a look's descriptors see it: its processes (the shell's tree, whose descriptors
 * may hold a socket's other end) and its terminal: the shell's pty, and `/dev/tty` of a process
 * whose controlling terminal is the shell's. A tool on a pty of its own reads that pty, not the
 * session's terminal.
 */
export function scopeOf(shell: number, sh: Stat, members: readonly { pid: number; st: Stat }[]): Scope {
  let tty: string | null | undefined;
  const shellTty = (): string | null => {
    if (tty !== undefined) return tty;
    try {
      tty = readlinkSync(`/proc/${shell}/fd/0`);
    } catch {
      tty = null; // unreadable: every terminal counts as the session's, as before
    }
    return tty;
  };
  const ttyNr = sh.fields[STAT.tty];
  return {
    pids: members.map((m) => m.pid),
    ours: (pid, link) => {
      if (link === '/dev/tty') return (members.find((m) => m.pid === pid)?.st.fields[STAT.tty] ?? ttyNr) === ttyNr;
      if (!link.startsWith('/dev/pts/')) return true;
      const own = shellTty();
      return own === null || !own.startsWith('/dev/pts/') || link === own;
    },
  };
}

/**
 * A thread's sample at the previous look `then`, when its run mark now (`now`, read by this look's
 * tree walk) is the one `then` read: it has not run, so nothing it shows has changed (ADR 0041).
 */
export function unrunThreads(now: RunMarks, then: Foreground | undefined): (pid: number, tid: number) => ThreadSample | undefined {
  let maps: { now: Map<string, string>; then: Map<string, string>; samples: Map<number, ThreadSample> } | undefined;
  return (pid, tid) => {
    if (!then?.marks) return undefined;
    maps ??= {
      now: markMap(now), then: markMap(then.marks),
      samples: new Map(then.procs.flatMap((p) => p.threads.map((t) => [t.tid, t] as const))),
    };
    const path = `/proc/${pid}/task/${tid}/schedstat`;
    const mark = maps.now.get(path);
    return mark !== undefined && mark === maps.then.get(path) ? maps.samples.get(tid) : undefined;
  };
}

/**
 * A member's traffic when it converses (waits on the terminal and a socket, in one thread or in
 * two): the bytes it read with `read()` (rchar) plus the times each of its other threads waiting
 * on a socket has woken (the timeslices of its schedstat: data arriving wakes it, also for
 * `recv()`, which rchar misses). null when it does not converse.
 */
export function trafficOf(pid: number, threads: readonly ThreadSample[], marks: RunMarks): number | null {
  const both = threads.some((t) => t.on?.includes('terminal') && t.on.includes('socket'));
  const receivers = threads.filter((t) => t.tid !== pid && onSocket(t));
  if (!both && !(receivers.length > 0 && threads.some(onTerminal))) return null;
  let total = Number(/^rchar: (\d+)/m.exec(readProc(`/proc/${pid}/io`) ?? '')?.[1] ?? 0);
  for (const t of receivers) {
    const i = marks.paths.indexOf(`/proc/${pid}/task/${t.tid}/schedstat`);
    total += Number(i >= 0 ? marks.marks[i]!.split(' ')[2] : 0);
  }
  return total;
}

function markMap(m: RunMarks | null): Map<string, string> {
  const out = new Map<string, string>();
  if (m) m.paths.forEach((p, i) => out.set(p, m.marks[i]!));
  return out;
}
