import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '../../src/client/client.js';
import { amuxPaths } from '../../src/paths.js';
import type { BenchHome } from './homes.js';
import { run, sleep, stats, type Stats } from './measure.js';

export interface LookResult {
  sessions: number;
  /** One look at every session with this tree's code: its /proc reads, the judgement, the log size the quick look reads. */
  after: Stats;
  /** The same with another built tree's code (BENCH_LOOK_BEFORE=/path/to/dist), looked at alternately. */
  before: Stats | null;
}

/** What the working sessions run, ten at a time: timers, a pipeline, a follower, servers, a node event loop. */
const MIX = [
  'sleep 600', 'sleep 600', 'sleep 600', 'sleep 600 | cat', 'tail -f followed.log',
  'python3 -m http.server 0 --bind 127.0.0.1', `node -e 'setInterval(() => {}, 5000)'`,
  `python3 -c 'import time; time.sleep(600)'`, 'while :; do sleep 1; done', 'make',
];

type LookFn = (shell: number, id: string) => void;

/** This tree's look, as the daemon's quick look does it (src/daemon/monitor/evidence.ts). */
async function afterLook(dist: string, home: string): Promise<LookFn> {
  const fg = await import(join(dist, 'src/process/foreground.js'));
  const act = await import(join(dist, 'src/core/activity.js'));
  const logs = await import(join(dist, 'src/daemon/output/log-files.js'));
  const paths = await import(join(dist, 'src/paths.js'));
  const memory = new Map<number, { pgid: number; procs: Map<number, number>; threads: Map<number, number>; fg: unknown }>();
  return (shell, id) => {
    const f = fg.readForeground(shell, true, memory.get(shell));
    if (!f) return;
    const j = act.judgeForeground(f.procs, { ticks: memory.get(shell) ?? null, elapsedMs: 250, quietMs: 0 }, null);
    // The look itself is kept, as the daemon keeps it: it stands for the next while nothing ran (ADR 0041).
    memory.set(shell, {
      pgid: f.pgid, fg: f,
      procs: new Map(f.procs.map((p: any) => [p.pid, p.ticks])),
      threads: new Map(f.procs.flatMap((p: any) => p.threads.map((t: any) => [t.tid, t.ticks]))),
    });
    act.foregroundName(f.procs, j, shell);
    if (j.activity.verdict === 'unknown') logs.logSize(paths.sessionPaths(paths.amuxPaths(home), id).logDir, 256 * 1024, 0);
  };
}

/**
 * The look of another build: before issue 19 (one process-level sample per member;
 * `waitsIndefinitely`), else the same calls as this tree's (a build before ADR 0041 ignores the
 * kept look).
 */
async function beforeLook(dist: string, home: string): Promise<LookFn> {
  const fg = await import(join(dist, 'src/process/foreground.js'));
  const act = await import(join(dist, 'src/core/activity.js'));
  if (!act.waitsIndefinitely) return afterLook(dist, home);
  const decode = (line: string | null) => act.waitsIndefinitely(process.arch, line);
  return (shell) => {
    const f = fg.readForeground(shell, decode, true);
    if (f) act.judgeForeground(f.procs, false, null);
  };
}

/**
 * The cost of one look at `n` working sessions (scripts/PERFORMANCE.md; ADR 0015): the daemon's
 * quick look does this every 250 ms. Measured in this process on the sessions of `h`, `rounds`
 * times, alternating with the code of `beforeDist` when given, so that both see the same load.
 */
export async function lookPhase(h: BenchHome, n: number, rounds: number, beforeDist?: string): Promise<LookResult> {
  await h.amuxOk('daemon', 'start');
  const client = new Client(amuxPaths(h.dir), false);
  writeFileSync(join(h.dir, 'followed.log'), 'x\n');
  writeFileSync(join(h.dir, 'Makefile'), 'all:\n\tsleep 600\n');
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: h.dir };
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await client.sessions.create({ command: MIX[i % MIX.length]!, cwd: h.dir, env })).id);
  await sleep(3000); // every program has started and waits
  // The shells: the children of the panes' processes (`timeout`, ADR 0010).
  const panes = (await run(['tmux', '-S', h.tmuxSocket, 'list-panes', '-a', '-F', '#{session_name} #{pane_pid}'], h.env)).stdout;
  const { childrenOf } = await import(join(__dirname, '..', '..', 'src/process/process-table.js'));
  const shells = new Map<string, number>();
  for (const line of panes.split('\n').filter(Boolean)) {
    const [name, pid] = line.split(' ');
    const shell = childrenOf(Number(pid))[0];
    const id = ids.find((x) => name!.endsWith(x));
    if (shell && id) shells.set(id, shell);
  }
  const dist = join(__dirname, '..', '..');
  const looks: [string, LookFn][] = [['after', await afterLook(dist, h.dir)]];
  if (beforeDist) looks.push(['before', await beforeLook(beforeDist, h.dir)]);
  const samples = new Map<string, number[]>(looks.map(([k]) => [k, []]));
  for (const [, look] of looks) for (const [id, shell] of shells) look(shell, id); // the first look of each has no previous one
  for (let r = 0; r < rounds; r++) {
    for (const [name, look] of r % 2 ? [...looks].reverse() : looks) {
      const t0 = performance.now();
      for (const [id, shell] of shells) look(shell, id);
      samples.get(name)!.push(performance.now() - t0);
    }
    await sleep(250);
  }
  return { sessions: shells.size, after: stats(samples.get('after')!), before: beforeDist ? stats(samples.get('before')!) : null };
}
