import { readdirSync, readlinkSync } from 'node:fs';
import type { ProcessSample } from '../core/activity.js';
import { waitKind } from '../core/activity.js';
import { descendantsOf, procStat, STAT } from './process-table.js';
import { readProc } from './proc-read.js';

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


/** What `hasSocket` found per process, for SOCKET_TTL_MS: listing every descriptor is the dearest read. */
const sockets = new Map<number, { socket: boolean | null; at: number }>();
const SOCKET_TTL_MS = 5000;

/** Looked at only for a wait on read/poll/select: do any of its descriptors name a socket? */
function hasSocket(pid: number): boolean | null {
  const now = Date.now();
  const known = sockets.get(pid);
  if (known && now - known.at < SOCKET_TTL_MS) return known.socket;
  if (sockets.size > 10_000) for (const [p, v] of sockets) if (now - v.at >= SOCKET_TTL_MS) sockets.delete(p);
  const socket = scanForSocket(pid);
  sockets.set(pid, { socket, at: now });
  return socket;
}

function scanForSocket(pid: number): boolean | null {
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
export function readForeground(shell: number, decode: (syscall: string | null) => boolean | null, jobRunning = true): Foreground | null {
  const sh = procStat(shell);
  if (!sh) return null;
  const pgid = Number(sh.fields[STAT.tpgid]);
  const ticksOf = (f: string[]) => Number(f[STAT.utime]) + Number(f[STAT.stime]);
  if (pgid === shell && !jobRunning) {
    // The shell owns the terminal and runs no job of amux's: at its prompt (reading the terminal)
    // unless it computes a builtin. Its state alone tells; nothing more is read.
    const state = sh.fields[STAT.state]!;
    const prompt = { pid: shell, comm: sh.comm, state, wchan: state === 'S' ? 'n_tty_read' : null, indefinite: true, socket: false };
    return { pgid, procs: [prompt], ticks: ticksOf(sh.fields), command: null };
  }
  const candidates = pgid === shell ? [shell] : [shell, ...descendantsOf(shell)];
  const procs: ProcessSample[] = [];
  let ticks = 0;
  let command: string | null = null;
  for (const pid of candidates) {
    const st = pid === shell ? sh : procStat(pid);
    if (!st || Number(st.fields[STAT.pgrp]) !== pgid || st.fields[STAT.state] === 'Z') continue;
    ticks += ticksOf(st.fields);
    const state = st.fields[STAT.state]!;
    const wchan = state === 'S' || state === 'D' ? readProc(`/proc/${pid}/wchan`) : null;
    const terminalWait = state === 'S' && waitKind(wchan) === 'terminal';
    procs.push({
      pid, comm: st.comm, state, wchan,
      indefinite: terminalWait ? decode(readProc(`/proc/${pid}/syscall`)) : null,
      socket: terminalWait ? hasSocket(pid) : null,
    });
    if (pid !== shell && (command === null || (PLUMBING.has(command) && !PLUMBING.has(st.comm)))) command = st.comm;
  }
  return { pgid, procs, ticks, command };
}
