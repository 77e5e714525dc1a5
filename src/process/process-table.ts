import { readFileSync } from 'node:fs';
import { execa } from 'execa';

/** One row of the process table. */
export interface Proc {
  pid: number;
  ppid: number;
  state: string;
}

/** A snapshot of all processes, indexed by parent (one `ps` spawn for all sessions). */
export class ProcessTable {
  private readonly children = new Map<number, Proc[]>();

  constructor(readonly procs: readonly Proc[]) {
    for (const p of procs) {
      const list = this.children.get(p.ppid);
      if (list) list.push(p);
      else this.children.set(p.ppid, [p]);
    }
  }

  /** Direct, non-zombie children of `pid`. */
  childrenOf(pid: number): Proc[] {
    return (this.children.get(pid) ?? []).filter((p) => !p.state.startsWith('Z'));
  }

  /** All live descendants of `pid`, parents before children. */
  descendantsOf(pid: number): number[] {
    const out: number[] = [];
    const queue = [pid];
    while (queue.length) {
      for (const c of this.childrenOf(queue.shift()!)) {
        out.push(c.pid);
        queue.push(c.pid);
      }
    }
    return out;
  }
}

export function parsePs(stdout: string): Proc[] {
  const procs: Proc[] = [];
  for (const line of stdout.split('\n')) {
    const m = /^\s*(\d+)\s+(\d+)\s+(\S+)/.exec(line);
    if (m) procs.push({ pid: Number(m[1]), ppid: Number(m[2]), state: m[3]! });
  }
  return procs;
}

export async function scanProcesses(): Promise<ProcessTable> {
  const res = await execa('ps', ['-A', '-o', 'pid=,ppid=,stat='], { reject: false });
  return new ProcessTable(parsePs(String(res.stdout)));
}

/** Whether `pid` still runs (a zombie counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
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
