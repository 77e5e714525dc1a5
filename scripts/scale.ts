/**
 * Scale bench (issue "a fleet of workers on one host"; scripts/PERFORMANCE.md; run on demand):
 * SCALE_LIVE live sessions (half `sleep 3000`, half idle shells), then, each beside its floor
 * measured in the same run: the daemon's CPU with nobody calling (in the first seconds, and once
 * its still sessions rest: ADR 0071), its RSS, a churn of
 * SCALE_LOOPS loops of `amux run -w --rm` for SCALE_CHURN_S seconds against the same loops doing
 * `node -e 0` + `tmux new-session` + waiting for the command, the daemon's CPU per run, and `ps`
 * latency during the churn. SCALE_PROFILE=DIR starts the daemon under `node --cpu-prof` into DIR;
 * SCALE_DAEMON_FLAGS adds node flags to the daemon's.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { REST_AFTER_MS } from '../src/core/look-pace.js';
import { daemonEnv, DAEMON_NODE_FLAGS } from '../src/daemon-options.js';
import { Homes } from './bench/homes.js';
import { envInt, pool, runOk, sleep } from './bench/measure.js';
import { cpuSeconds, cpuWhile, floorRun, loopsFor, machineBusySeconds, pct, rssMb, sampleReaders } from './bench/scale-phases.js';
import { breakdownUnavailable, cpuBreakdown, formatPrograms, type Breakdown } from './bench/breakdown.js';

const live = envInt('SCALE_LIVE', 200);
const idleS = envInt('SCALE_IDLE_S', 20);
/** SCALE_REST_S: the second idle window, once nobody has called for the rest time (ADR 0071). */
const restS = envInt('SCALE_REST_S', 30);
const churnS = envInt('SCALE_CHURN_S', 30);
const loops = envInt('SCALE_LOOPS', 4);
const profileDir = process.env.SCALE_PROFILE;
const cpuRuns = envInt('SCALE_CPU_RUNS', 40);
/** SCALE_BREAKDOWN_ONLY=1: only the breakdown of where a run's CPU goes (the first table). */
const breakdownOnly = process.env.SCALE_BREAKDOWN_ONLY === '1';
const COMMAND = 'seq 1 200 >/dev/null; exit 3';
const t0 = performance.now();
const log = (msg: string) => process.stderr.write(`[scale +${((performance.now() - t0) / 1000).toFixed(0)}s] ${msg}\n`);
const rows: string[][] = [];
const row = (...cells: string[]) => rows.push(cells);
const f1 = (n: number) => n.toFixed(1);

async function main(): Promise<void> {
  const homes = new Homes();
  homes.cleanupOnSignal(log);
  try {
    await breakdown(homes);
    if (!breakdownOnly) await fleet(homes);
  } finally {
    await homes.cleanupAll();
  }
  process.stdout.write(`| measure | amux | floor / notes |\n|---|---|---|\n${rows.map((c) => `| ${c.join(' | ')} |`).join('\n')}\n`);
  process.stdout.write(`load average at the end: ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')}\n`);
}

/** The fleet: SCALE_LIVE live sessions, idle and under churn, each beside its floor. */
async function fleet(homes: Homes): Promise<void> {
  const h = homes.home('a');
  // The daemon started by hand (as the launcher does, without its code cache: ADR 0069), so that it
  // can run under --cpu-prof.
  const prof = [...DAEMON_NODE_FLAGS, ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []), ...(process.env.SCALE_DAEMON_FLAGS?.split(' ').filter(Boolean) ?? [])];
  const entry = join(__dirname, '..', 'src', 'daemon', 'amuxd.js');
  spawn(process.execPath, [...prof, entry], { env: daemonEnv(h.env), detached: true, stdio: 'ignore' }).unref();
  let daemon = 0;
  for (let i = 0; i < 100 && !daemon; i++) daemon = await h.daemonPid().catch(() => sleep(100).then(() => 0));
  if (!daemon) throw new Error('the daemon did not start');
  log(`daemon ${daemon}; starting ${live} sessions`);
  await h.runMany(live >> 1, 'sleep 3000');
  await pool(live - (live >> 1), 8, () => h.amuxOk('run'));
  const server = Number((await runOk(['tmux', '-S', h.tmuxSocket, '-f', '/dev/null', 'display-message', '-p', '#{pid}'], h.env)).stdout.trim());
  const quietFrom = performance.now(); // the last call to the daemon
  await sleep(5000); // the shells reach their prompt and go idle
  const rss200 = rssMb(daemon);

  log(`idle: ${idleS} s with nobody calling`);
  const idle = await cpuWhile([daemon, server], () => sleep(idleS * 1000));
  const share = (s: number) => `${f1((100 * s) / idle.wallS)} %`;
  row('daemon CPU, ' + live + ' live, nobody calling', share(idle.seconds[0]!), `tmux server ${share(idle.seconds[1]!)}`);
  // Then on, nobody having called for the rest time: still sessions rest (ADR 0071).
  const quietS = (performance.now() - quietFrom) / 1000;
  await sleep(Math.max(0, REST_AFTER_MS / 1000 + 2 - quietS) * 1000);
  log(`resting: ${restS} s, nobody having called for ${(REST_AFTER_MS / 1000).toFixed(0)} s and more`);
  const rested = await cpuWhile([daemon, server], () => sleep(restS * 1000));
  row(`daemon CPU, ${live} live, nobody calling for ${(REST_AFTER_MS / 1000).toFixed(0)} s and more (looks rest)`, `${f1((100 * rested.seconds[0]!) / rested.wallS)} %`, `tmux server ${f1((100 * rested.seconds[1]!) / rested.wallS)} %`);
  row(`daemon RSS, ${live} live`, `${f1(rss200)} MB`, '');
  // Statuses right: every `sleep 3000` working (sleeping), every shell idle at its prompt.
  const seen = JSON.parse((await h.amuxOk('ps', '--json')).stdout) as { status: string; command: string | null; reason: string | null }[];
  const right = seen.filter((x) => (x.command === 'sleep 3000' ? x.status === 'working' : x.status === 'idle')).length;
  row(`statuses right, ${live} live`, `${right} of ${seen.length}`, `working ${seen.filter((x) => x.status === 'working').length}, idle ${seen.filter((x) => x.status === 'idle').length}`);

  log(`floor churn: ${loops} loops × ${churnS} s of node -e 0 + tmux new-session + wait-for`);
  const floorSock = join(homes.root, 'floor.sock');
  await runOk(['tmux', '-S', floorSock, '-f', '/dev/null', 'new-session', '-d', '-s', 'keep', 'sleep 3000'], h.env);
  homes.onCleanup(() => runOk(['tmux', '-S', floorSock, 'kill-server'], h.env).then(() => undefined));
  const floorReaders = sampleReaders(h);
  const floorBusy0 = machineBusySeconds();
  const floor = await loopsFor(loops, churnS, (l, i) => floorRun(h.env, floorSock, COMMAND, `c${l}-${i}`));
  const floorBusy = machineBusySeconds() - floorBusy0;
  const floorR = await floorReaders.stop();

  log(`amux churn: ${loops} loops × ${churnS} s of run -w --rm`);
  const spawned = async () => (JSON.parse((await h.amuxOk('daemon', 'status', '--json')).stdout) as { tmuxCalls?: { spawned: number } }).tmuxCalls?.spawned ?? NaN;
  const spawnedBefore = await spawned();
  const readers = sampleReaders(h);
  const busy0 = machineBusySeconds();
  const churn = await cpuWhile([daemon, server], () => loopsFor(loops, churnS, () => h.amux('run', '-w', '--rm', '--', COMMAND)));
  const busy = machineBusySeconds() - busy0;
  const r = await readers.stop();
  const runs = churn.result;
  const wrong = runs.filter((x) => x.code !== 3).length;
  const floorRate = floor.length / churnS;
  const rate = runs.length / churn.wallS;
  row(`${loops}-loop run -w --rm churn beside ${live} live`, `${f1(rate)} runs/s = ${(rate / floorRate).toFixed(2)}× floor`, `floor ${f1(floorRate)}/s; wrong exit codes: ${wrong}`);
  // What the runs cost beyond the looks the daemon makes anyway (the idle rate over the same wall time).
  const aboveIdle = churn.seconds[0]! - (idle.seconds[0]! / idle.wallS) * churn.wallS;
  const forks = ((await spawned()) - spawnedBefore) / runs.length;
  row('daemon CPU per run -w --rm', `${f1((1000 * churn.seconds[0]!) / runs.length)} ms`, `${f1((1000 * aboveIdle) / runs.length)} ms above the idle rate; daemon at ${f1((100 * churn.seconds[0]!) / churn.wallS)} % of a core; tmux server ${f1((1000 * churn.seconds[1]!) / runs.length)} ms/run; ${f1(forks)} tmux processes/run`);
  row('machine CPU per run (all processes)', `${f1((1000 * busy) / runs.length)} ms`, `floor ${f1((1000 * floorBusy) / floor.length)} ms per run (node -e 0 + tmux new-session + wait-for); both include the readers sampling ps`);
  const p = (xs: number[]) => `p50 ${xs.length ? pct(xs, 0.5).toFixed(0) : '-'} / p90 ${pct(xs, 0.9).toFixed(0)} / p99 ${pct(xs, 0.99).toFixed(0)} ms (n=${xs.length})`;
  row('ps during the churn', p(r.ps), `node -e 0: ${p(r.node)}; ps failures ${r.failures}`);
  row('ps during the floor churn', p(floorR.ps), `node -e 0: ${p(floorR.node)}`);
  row(`daemon RSS after the churn`, `${f1(rssMb(daemon))} MB`, `${runs.length} runs`);
  log(`daemon CPU total ${f1(cpuSeconds(daemon))} s; stopping`);
  await h.amux('daemon', 'stop');
}

/**
 * Where one run's CPU goes, beside the floor's (issue 33; ADR 0066): cgroups for the CLI, the daemon
 * and the tmux server, and the processes started by program name (scripts/bench/breakdown.ts); then
 * each verb's CLI process against `node -e 0`. A home of its own, with one live session.
 */
async function breakdown(homes: Homes): Promise<void> {
  const why = breakdownUnavailable();
  if (why) {
    row('CPU breakdown per run', `skipped: ${why}`, '');
    return;
  }
  // SCALE_BIN: another built tree's bin/amux (an A/B of the breakdown against that tree, same floor).
  const h = homes.home('cpu', process.env.SCALE_BIN || undefined);
  const tmp = join(homes.root, 'acct');
  await runOk(['mkdir', '-p', tmp], h.env);
  await h.amuxOk('run', '--', 'sleep 3000'); // keeps the daemon and the tmux server up
  const shell = (await h.amuxOk('run')).stdout.trim();
  const daemon = await h.daemonPid();
  const server = Number((await runOk(['tmux', '-S', h.tmuxSocket, '-f', '/dev/null', 'display-message', '-p', '#{pid}'], h.env)).stdout.trim());
  const floorSock = join(homes.root, 'floor-cpu.sock');
  await runOk(['tmux', '-S', floorSock, '-f', '/dev/null', 'new-session', '-d', '-s', 'keep', 'sleep 3000'], h.env);
  homes.onCleanup(() => runOk(['tmux', '-S', floorSock, 'kill-server'], h.env).then(() => undefined));
  const floorServer = Number((await runOk(['tmux', '-S', floorSock, '-f', '/dev/null', 'display-message', '-p', '#{pid}'], h.env)).stdout.trim());
  const n = cpuRuns;
  const bd = (script: string, args: string[], d: number | null, s: number) => cpuBreakdown({ n, script, args, env: h.env, daemon: d, server: s, tmp });
  log(`breakdown: ${n} × run -w --rm, then the floor, then ps / run / exec against node -e 0`);
  const load = () => loadavg()[0]!.toFixed(1);
  const amux = await bd('"$1" run -w --rm -- "$2" >/dev/null; (( $? == 3 ))', [h.bin, COMMAND], daemon, server);
  const la1 = load();
  const floor = await bd('node -e 0; tmux -S "$1" -f /dev/null new-session -d "($2); tmux -S $1 wait-for -S c$i"; tmux -S "$1" -f /dev/null wait-for c$i', [floorSock, COMMAND], null, floorServer);
  const total = (b: Breakdown) => b.loopMs + b.daemonMs + b.serverMs;
  row(`CPU per run -w --rm (cgroups, n=${n})`, `${f1(total(amux))} ms = ${(total(amux) / total(floor)).toFixed(2)}× floor, +${f1(total(amux) - total(floor))} ms`,
    `CLI ${f1(amux.loopMs)} + daemon ${f1(amux.daemonMs)} + tmux server and panes ${f1(amux.serverMs)}; floor ${f1(total(floor))} ms = loop ${f1(floor.loopMs)} + tmux ${f1(floor.serverMs)}; load ${la1}`);
  row('processes per run -w --rm (acct; ms in 10 ms ticks)', formatPrograms(amux.programs), `floor: ${formatPrograms(floor.programs)}`);
  row('daemon CPU per run -w --rm (cgroup, its tmux clients included)', `${f1(amux.daemonMs)} ms`, `goal ≤ 8 ms`);
  const node = await bd('node -e 0', [], null, floorServer);
  const verbs: [string, string, string[], number][] = [
    ['ps', '"$1" ps -q >/dev/null', [h.bin], 10],
    ['run', '"$1" run -- true >/dev/null', [h.bin], 20],
    ['exec', '"$1" exec "$2" -- true >/dev/null', [h.bin, shell], 10],
  ];
  for (const [verb, script, args, goal] of verbs) {
    const b = await bd(script, args, daemon, server);
    row(`amux ${verb}: CLI process CPU (cgroup, n=${n})`, `${f1(b.loopMs)} ms = node -e 0 + ${f1(b.loopMs - node.loopMs)} ms (${(b.loopMs / node.loopMs).toFixed(2)}×)`,
      `node -e 0 ${f1(node.loopMs)} ms; daemon ${f1(b.daemonMs)} ms, tmux ${f1(b.serverMs)} ms per call; issue 33 goal: CLI + daemon ≤ node + ${goal} ms, CLI ≤ node + 5 ms; load ${load()}`);
  }
  await h.amux('daemon', 'stop');
}

main().catch((err) => {
  process.stderr.write(`scale: ${(err as Error).stack}\n`);
  process.exit(1);
});
