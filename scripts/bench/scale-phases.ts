import { readFileSync } from 'node:fs';
import type { BenchHome } from './homes.js';
import { run, runOk, sleep, type RunResult } from './measure.js';

/** CPU seconds a process used so far (utime + stime of /proc/PID/stat, clock ticks of 10 ms). */
export function cpuSeconds(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

/** Resident memory of a process, in MB. */
export function rssMb(pid: number): number {
  return Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
}

/** Percentile p (0..1, nearest rank) of samples. */
export function pct(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))] ?? NaN;
}

/** CPU share (of one core) each pid used while `fn` ran. */
export async function cpuWhile<T>(pids: readonly number[], fn: () => Promise<T>): Promise<{ result: T; seconds: number[]; wallS: number }> {
  const before = pids.map(cpuSeconds);
  const t0 = performance.now();
  const result = await fn();
  const wallS = (performance.now() - t0) / 1000;
  return { result, seconds: pids.map((p, i) => cpuSeconds(p) - before[i]!), wallS };
}

/** `loops` loops, each running `one` back to back until `seconds` have passed; every result. */
export async function loopsFor(loops: number, seconds: number, one: (loop: number, i: number) => Promise<RunResult>): Promise<RunResult[]> {
  const end = performance.now() + seconds * 1000;
  const out: RunResult[] = [];
  await Promise.all(Array.from({ length: loops }, async (_, loop) => {
    for (let i = 0; performance.now() < end; i++) out.push(await one(loop, i));
  }));
  return out;
}

/**
 * The floor of one `run -w --rm`: what any tool must do to run the command in tmux and see it end,
 * on a tmux server of its own: start node, create the session, wait for the command (`wait-for`).
 */
export async function floorRun(env: NodeJS.ProcessEnv, socket: string, command: string, channel: string): Promise<RunResult> {
  const t0 = performance.now();
  await runOk([process.execPath, '-e', '0'], env);
  const tmux = ['tmux', '-S', socket, '-f', '/dev/null'];
  await runOk([...tmux, 'new-session', '-d', `(${command}); tmux -S ${socket} wait-for -S ${channel}`], env);
  const res = await runOk([...tmux, 'wait-for', channel], env);
  return { ...res, ms: performance.now() - t0 };
}

/** Samples `amux ps` and `node -e 0` alternately until `stop()` resolves; their latencies (ms). */
export function sampleReaders(h: BenchHome): { stop: () => Promise<{ ps: number[]; node: number[]; failures: number }> } {
  const ps: number[] = [];
  const node: number[] = [];
  let failures = 0;
  let going = true;
  const loop = (async () => {
    while (going) {
      const r = await h.amux('ps', '-q');
      if (r.code === 0) ps.push(r.ms);
      else failures++;
      node.push((await run([process.execPath, '-e', '0'], h.env)).ms);
      await sleep(50);
    }
  })().catch(() => undefined); // interrupted: the bench is cleaning up
  return {
    stop: async () => {
      going = false;
      await loop;
      return { ps, node, failures };
    },
  };
}

/** CPU time the whole machine spent busy so far (all CPUs, /proc/stat, in seconds): what a run costs everything it starts. */
export function machineBusySeconds(): number {
  const f = readFileSync('/proc/stat', 'latin1').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = (f[3] ?? 0) + (f[4] ?? 0); // idle + iowait
  return (f.reduce((a, b) => a + b, 0) - idle) / 100;
}
