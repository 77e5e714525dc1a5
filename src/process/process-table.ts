import { readdirSync } from 'node:fs';
import { readProc } from './proc-read.js';

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses), by index. */
export const STAT = { state: 0, ppid: 1, pgrp: 2, session: 3, tty: 4, tpgid: 5, utime: 11, stime: 12, cutime: 13, cstime: 14, threads: 17, starttime: 19, rss: 21 } as const;

/** A process's /proc/<pid>/stat: its command name, and the fields from the state on; null when it is gone. */
export function procStat(pid: number | string): { comm: string; fields: string[] } | null {
  const stat = readProc(`/proc/${pid}/stat`);
  if (stat === null) return null;
  const close = stat.lastIndexOf(')');
  return { comm: stat.slice(stat.indexOf('(') + 1, close), fields: stat.slice(close + 2).split(' ') };
}

function statFields(pid: number | string): string[] | null {
  return procStat(pid)?.fields ?? null;
}

/**
 * Process relations read straight from /proc (Linux): `/proc/<pid>/task/<tid>/children` lists a
 * task's children, so a session's children cost one small read, with no process spawned and no
 * scan of every process on the machine (ADR 0003).
 */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out; // gone
  }
  for (const tid of tasks) {
    // null: the task ended meanwhile
    for (const c of readProc(`/proc/${pid}/task/${tid}/children`)?.split(' ') ?? []) {
      if (c) out.push(Number(c));
    }
  }
  return out.filter(isAlive);
}

/**
 * Number of children of a single-threaded process such as a session's bash: one read of its main
 * task's list (the monitor does this for every live session on every refresh).
 */
export function childCount(pid: number): number {
  const list = readProc(`/proc/${pid}/task/${pid}/children`)?.trim() ?? '';
  return list === '' ? 0 : list.split(' ').length;
}

/** All live descendants of `pid`, parents before children. */
export function descendantsOf(pid: number): number[] {
  const out: number[] = [];
  const queue = [pid];
  while (queue.length) {
    for (const c of childrenOf(queue.shift()!)) {
      out.push(c);
      queue.push(c);
    }
  }
  return out;
}

/** The Unix session of `pid` (field 6 of /proc/<pid>/stat); null when it is gone. */
export function sessionOf(pid: number): number | null {
  return Number(statFields(pid)?.[STAT.session]) || null;
}

/**
 * Every process whose Unix session is `sid` (field 6 of /proc/<pid>/stat). The pane's process leads
 * its own session, so this finds what a job left behind even after it was reparented away from
 * the shell (`(sleep 1000 &)`), which a walk of descendants misses. One pass over /proc.
 */
export function sessionMembers(sid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
    const f = statFields(name);
    if (f && Number(f[STAT.session]) === sid && f[STAT.state] !== 'Z') out.push(Number(name));
  }
  return out;
}

/**
 * The process group that owns the terminal of `pid` (field 8 of /proc/<pid>/stat, tpgid). For a
 * session's shell: its own pid while it is at its prompt (or runs a builtin), else the group of
 * the foreground job. null when the process is gone or has no terminal.
 */
export function terminalForeground(pid: number): number | null {
  const tpgid = Number(statFields(pid)?.[STAT.tpgid]);
  return tpgid > 0 ? tpgid : null;
}

/** The process group of `pid` (field 5 of /proc/<pid>/stat); null when it is gone. */
export function processGroup(pid: number): number | null {
  return Number(statFields(pid)?.[STAT.pgrp]) || null;
}

/** Sends `signal` to process group `pgid` (0: only checks that it exists); false when no such group is left. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Whether `pid` is stopped (state T: SIGSTOP, SIGTSTP, …); false when it is gone. */
export function isStopped(pid: number): boolean {
  return statFields(pid)?.[STAT.state] === 'T';
}

/** Whether `pid` still runs (a zombie counts as gone). */
export function isAlive(pid: number): boolean {
  const state = statFields(pid)?.[STAT.state];
  return state !== undefined && state !== 'Z';
}

/** Sends `signal` to each pid, ignoring those already gone. */
export function signalAll(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      /* already gone */
    }
  }
}

/**
 * Every process of an amux session but its shell: the shell's descendants, and the members of the
 * terminal's Unix session (what a job left behind, reparented away), but not the pane's own
 * process (`timeout`, the parent of the shell, which leads that session; ADR 0010).
 */
export function sessionProcesses(shell: number | null): number[] {
  if (!shell) return [];
  const sid = sessionOf(shell);
  const inSession = sid ? sessionMembers(sid).filter((p) => p !== sid) : [];
  return [...new Set([...descendantsOf(shell), ...inSession])].filter((p) => p !== shell);
}
