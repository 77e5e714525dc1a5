/**
 * Where a run's CPU goes (issue 33; ADR 0066), counted two ways that other load on a shared machine
 * barely inflates, both needing root:
 *  - cgroup v1 cpuacct (ns-exact): one cgroup for the loop that runs the CLI (or the floor's node and
 *    tmux clients), one for the daemon and everything it spawns, one for the tmux server and
 *    everything it forks (panes, pipe-pane, utempter). The daemon and the server are moved into
 *    theirs for the measure and back afterwards.
 *  - BSD process accounting (`accton`, package acct): every process that ended, by program name,
 *    restricted to the process trees of the loop, the daemon and the tmux server. Exact counts; its
 *    CPU is in 10 ms ticks truncated per process, so short programs show as 0.
 * Process accounting is one switch for the whole machine: another `accton` meanwhile ends ours.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const CG = '/sys/fs/cgroup/cpuacct';

export interface Breakdown {
  n: number;
  /** CPU ms per iteration: the loop (the CLI), the daemon with its children, the tmux server with its children. */
  loopMs: number;
  daemonMs: number;
  serverMs: number;
  /** Program name → [processes per iteration, acct ms per iteration]. */
  programs: Map<string, [number, number]>;
}

/** Why a breakdown cannot be taken here, or null. */
export function breakdownUnavailable(): string | null {
  if (process.getuid?.() !== 0) return 'needs root (cgroup cpuacct, accton)';
  if (!existsSync(join(CG, 'cgroup.procs'))) return 'needs cgroup v1 cpuacct';
  if (spawnSync('sh', ['-c', 'command -v accton && command -v dump-acct']).status !== 0) return 'needs accton and dump-acct (apt-get install acct)';
  return null;
}

const usage = (dir: string) => Number(readFileSync(join(dir, 'cpuacct.usage'), 'latin1')) / 1e6;

function moveTo(dir: string, pid: number): void {
  try {
    writeFileSync(join(dir, 'cgroup.procs'), `${pid}\n`);
  } catch {
    /* gone */
  }
}

/** Empties and removes a cgroup (what is left in it goes back to the root). */
function dropCgroup(dir: string): void {
  try {
    for (const p of readFileSync(join(dir, 'cgroup.procs'), 'latin1').split('\n').filter(Boolean)) moveTo(CG, Number(p));
    rmdirSync(dir);
  } catch {
    /* already gone */
  }
}

/**
 * Runs `script` (bash, with "$@" = args) `n` times in a loop of its own, with the daemon and tmux
 * server given, and returns where the CPU went, per iteration. `settleMs` after the loop lets the
 * ends of the last runs (reaps, removals) be counted.
 */
export async function cpuBreakdown(opts: { n: number; script: string; args: readonly string[]; env: NodeJS.ProcessEnv; daemon: number | null; server: number; settleMs?: number; tmp: string }): Promise<Breakdown> {
  const base = join(CG, `amux-bench-${process.pid}-${Date.now()}`);
  const dirs = { loop: join(base, 'loop'), daemon: join(base, 'daemon'), server: join(base, 'server') };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  const acct = join(opts.tmp, `acct-${Date.now()}`);
  writeFileSync(acct, '');
  try {
    if (opts.daemon) moveTo(dirs.daemon, opts.daemon);
    moveTo(dirs.server, opts.server);
    spawnSync('accton', [acct], { stdio: 'ignore' });
    const d0 = usage(dirs.daemon);
    const s0 = usage(dirs.server);
    const loop = `echo $$ > ${dirs.loop}/cgroup.procs; for ((i = 0; i < ${opts.n}; i++)); do ${opts.script}; done`;
    const child = spawn('bash', ['-c', loop, 'loop', ...opts.args], { env: opts.env, stdio: 'ignore' });
    const loopPid = child.pid!;
    const code = await new Promise<number | null>((r) => child.on('close', r));
    if (code !== 0) throw new Error(`breakdown loop exited ${code}`);
    await new Promise((r) => setTimeout(r, opts.settleMs ?? 2000));
    const loopMs = usage(dirs.loop);
    const daemonMs = usage(dirs.daemon) - d0;
    const serverMs = usage(dirs.server) - s0;
    spawnSync('accton', ['off'], { stdio: 'ignore' });
    const programs = programsOf(spawnSync('dump-acct', [acct], { encoding: 'latin1', maxBuffer: 1 << 28 }).stdout, [loopPid, opts.daemon ?? -1, opts.server], opts.n);
    return { n: opts.n, loopMs: loopMs / opts.n, daemonMs: daemonMs / opts.n, serverMs: serverMs / opts.n, programs };
  } finally {
    spawnSync('accton', ['off'], { stdio: 'ignore' });
    rmSync(acct, { force: true });
    for (const d of Object.values(dirs)) dropCgroup(d);
    dropCgroup(base);
  }
}

/** dump-acct's lines → program → [processes, ms] per iteration, for the descendants of `roots`. */
function programsOf(dump: string, roots: readonly number[], n: number): Map<string, [number, number]> {
  const rows: { comm: string; pid: number; ppid: number; ticks: number }[] = [];
  for (const line of dump.split('\n')) {
    const p = line.split('|').map((x) => x.trim());
    const [comm, , ut, st] = p;
    const pid = Number(p[9]);
    const ppid = Number(p[10]);
    if (!comm || !Number.isInteger(pid) || !Number.isInteger(ppid)) continue;
    rows.push({ comm, pid, ppid, ticks: Number(ut) + Number(st) });
  }
  const parent = new Map(rows.map((r) => [r.pid, r.ppid]));
  const rootSet = new Set(roots);
  const ours = (pid: number | undefined) => {
    for (let i = 0; i < 64 && pid !== undefined; i++) {
      if (rootSet.has(pid)) return true;
      pid = parent.get(pid);
    }
    return false;
  };
  const out = new Map<string, [number, number]>();
  for (const r of rows) {
    if (!ours(r.ppid)) continue;
    const cur = out.get(r.comm) ?? [0, 0];
    out.set(r.comm, [cur[0] + 1 / n, cur[1] + (10 * r.ticks) / n]);
  }
  return out;
}

/** "bash 3.00 (20 ms), tmux: client 2.00 (0 ms), …", most processes first; the total count first. */
export function formatPrograms(p: Map<string, [number, number]>): string {
  const all = [...p].sort((a, b) => b[1][0] - a[1][0] || b[1][1] - a[1][1]);
  const total = all.reduce((s, [, [c]]) => s + c, 0);
  return `${total.toFixed(1)} processes: ${all.map(([k, [c, ms]]) => `${k} ${c.toFixed(2)} (${ms.toFixed(1)} ms)`).join(', ')}`;
}
