import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { ProcessSample } from '../core/activity.js';
import { waitKind } from '../core/activity.js';
import { descendantsOf, procStat, STAT } from './process-table.js';

/** The terminal's foreground process group of a session, as the kernel shows it (ADR 0015). */
export interface Foreground {
  /** The group that owns the terminal (`tpgid`). */
  pgid: number;
  /** Its processes that descend from the session's shell (the shell itself when it owns the terminal). */
  procs: ProcessSample[];
  /** CPU time of those processes, in clock ticks (utime + stime). */
  ticks: number;
  /** The command name a person would give it; null when the shell itself is in the foreground. */
  command: string | null;
}

function read(path: string): string | null {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return null;
  }
}

/** Looked at only for a wait on read/poll/select: do any of its descriptors name a socket? */
function hasSocket(pid: number): boolean | null {
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) return true;
      } catch {
        /* closed meanwhile */
      }
    }
    return false;
  } catch {
    return null; // not ours to read
  }
}

/** Names of the plumbing a job runs through, never what a person would call the foreground command. */
const PLUMBING = new Set(['bash', 'sh', 'tee', 'split', 'timeout']);

/**
 * The foreground group of the terminal of `shell` (a session's bash): found from the shell's
 * `tpgid`, among the shell and its descendants, with no scan of /proc and no process spawned.
 * null when the shell is gone. `decode` tells, from `/proc/PID/syscall`, a wait with a time limit
 * from one without (`waitsIndefinitely` for this architecture; the caller passes it in).
 */
export function readForeground(shell: number, decode: (syscall: string | null) => boolean | null): Foreground | null {
  const sh = procStat(shell);
  if (!sh) return null;
  const pgid = Number(sh.fields[STAT.tpgid]);
  const candidates = pgid === shell ? [shell] : [shell, ...descendantsOf(shell)];
  const procs: ProcessSample[] = [];
  let ticks = 0;
  let command: string | null = null;
  for (const pid of candidates) {
    const st = pid === shell ? sh : procStat(pid);
    if (!st || Number(st.fields[STAT.pgrp]) !== pgid || st.fields[STAT.state] === 'Z') continue;
    ticks += Number(st.fields[STAT.utime]) + Number(st.fields[STAT.stime]);
    const state = st.fields[STAT.state]!;
    const wchan = state === 'S' || state === 'D' ? read(`/proc/${pid}/wchan`) : null;
    const terminalWait = state === 'S' && waitKind(wchan) === 'terminal';
    procs.push({
      pid, comm: st.comm, state, wchan,
      indefinite: terminalWait ? decode(read(`/proc/${pid}/syscall`)) : null,
      socket: terminalWait ? hasSocket(pid) : null,
    });
    if (pid !== shell && (command === null || (PLUMBING.has(command) && !PLUMBING.has(st.comm)))) command = st.comm;
  }
  return { pgid, procs, ticks, command };
}
