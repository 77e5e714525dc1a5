/**
 * The benchmarks of scripts/PERFORMANCE.md: prints machine facts, a table of medians/p90 as ratios against floors measured
 * in the same run, and one `BENCH_JSON {…}` line. A benchmark, not a test: slow numbers are
 * reported as "NOT MET", never as a failing exit code. Sizes: BENCH_SESSIONS (100), BENCH_BIG
 * (1000), BENCH_RUNS (15; the daemon job round trip takes twice as many), BENCH_CONCURRENCY (8,
 * parallel session creation), BENCH_BURST (50). BENCH_UP_RUNS (5, `up -d` of the demo
 * stack). BENCH_ONLY=text runs only the phases named so (e.g. `up`).
 */
import { psPhase, rssPhase, runPhase, waitPhase } from './bench/cli-phases.js';
import { agentsPhase } from './bench/agents-phase.js';
import { burstPhase } from './bench/burst-phase.js';
import { evidencePhase } from './bench/evidence-phase.js';
import { idleProgramsPhase } from './bench/idle-programs-phase.js';
import { lookPhase } from './bench/look-phase.js';
import { Homes } from './bench/homes.js';
import { jobPhase } from './bench/job-phase.js';
import { queuePhase } from './bench/queue-phase.js';
import { upPhase } from './bench/up-phase.js';
import { remotePhase } from './bench/remote-phase.js';
import { machineFacts } from './bench/machine.js';
import { envInt, isAborted } from './bench/measure.js';
import { RefreshBench, type RefreshStats } from './bench/refresh-phase.js';
import { errorRow, limitRow, mb, ratioRow, renderTable, valueRow, type Row } from './bench/report.js';

const sizes = {
  sessions: envInt('BENCH_SESSIONS', 100),
  big: envInt('BENCH_BIG', 1000),
  runs: envInt('BENCH_RUNS', 15),
  concurrency: envInt('BENCH_CONCURRENCY', 8),
};
// Timed children get a clean env explicitly (benchEnv); this also covers what the in-process phase spawns.
delete process.env.NODE_EXTRA_CA_CERTS;

const started = performance.now();
const log = (msg: string) => process.stderr.write(`[bench +${((performance.now() - started) / 1000).toFixed(1)}s] ${msg}\n`);
const rows: Row[] = [];
const raw: Record<string, unknown> = {};

/** Runs one measurement group; an error becomes a report row, and the other groups still run. */
/** BENCH_ONLY=text runs only the phases whose name contains it (e.g. `burst`). */
const ONLY = process.env.BENCH_ONLY;

async function phase(name: string, fn: () => Promise<void>): Promise<void> {
  if (isAborted() || (ONLY && !name.includes(ONLY))) return;
  log(name);
  try {
    await fn();
  } catch (err) {
    log(`${name} failed: ${(err as Error).stack ?? err}`);
    rows.push(errorRow(name, err));
    raw[name] = { error: (err as Error).message };
  }
}

/** scripts/PERFORMANCE.md: 25 ms up to 100 sessions, 250 ms up to 1000; beyond, scaled at 0.25 ms/session. */
const refreshLimitMs = (n: number) => (n <= 100 ? 25 : n <= 1000 ? 250 : n * 0.25);

function refreshRows(label: string, r: RefreshStats): Row[] {
  const programs = Object.entries(r.byProgram).map(([p, n]) => `${p} ${n}`).join(', ');
  return [
    limitRow(`refresh ${r.sessions} ${label}: time`, r.ms, refreshLimitMs(r.sessions)),
    valueRow(`refresh ${r.sessions} ${label}: spawns/refresh (max)`, r.spawnsMax, `${r.spawnsMax} (${programs}); ${r.recaptured} panes seen changed`, 3),
  ];
}

const homes = new Homes();
/** How many `amux run` a burst starts at once. */
const BURST = envInt('BENCH_BURST', 50);

async function main(): Promise<void> {
  const facts = machineFacts();
  process.stdout.write(`amux benchmark (scripts/PERFORMANCE.md) — ${facts.date}\n`);
  process.stdout.write(`machine: ${facts.nproc} CPU × ${facts.cpu}, ${facts.memGb} GiB, ${facts.kernel}, load ${facts.loadavg.join(' ')}\n`);
  process.stdout.write(`software: node ${facts.node}, ${facts.tmux}\n`);
  process.stdout.write(`sizes: ${JSON.stringify(sizes)}; children run without NODE_EXTRA_CA_CERTS\n\n`);

  homes.cleanupOnSignal(log);
  try {
    await phase(`amux ps with ${sizes.sessions} live sessions`, async () => {
      const h = homes.home('ps');
      const r = await psPhase(h, sizes.sessions, sizes.runs, sizes.concurrency);
      raw.ps = r;
      rows.push(
        limitRow('floor: node -e 0', r.node),
        limitRow(`floor: tmux list-sessions (${sizes.sessions} sessions)`, r.tmux),
        ratioRow(`amux ps (${sizes.sessions} live, warm daemon)`, r.ps, r.node, 1.4),
        ratioRow('amux ps --json', r.psJson, r.node),
        ratioRow('amux ps -q', r.psQ, r.node),
        ratioRow('  of which CLI start-up: amux --version', r.version, r.node),
        limitRow('  of which daemon: GET /v1/sessions (in-bench client)', r.api),
        valueRow(`daemon RSS, ${sizes.sessions} live sessions`, r.daemonRss.rss, `${mb(r.daemonRss.rss)} (peak ${mb(r.daemonRss.peak)})`),
      );
      await h.cleanup();
    });

    await phase('remote: amux --host ssh://127.0.0.1 ps', async () => {
      const h = homes.home('remote');
      const r = await remotePhase(h, sizes.runs);
      raw.remote = r;
      rows.push(
        limitRow('floor: amux ps (local daemon, no sessions)', r.local),
        ratioRow('  amux --host ssh://127.0.0.1:PORT ps, warm master connection', r.remote, r.local, 2),
        { ...ratioRow('  the same, cold: first call, a new SSH handshake', r.cold, r.local), goal: 'no goal; reported', met: undefined },
      );
      await h.cleanup();
    });

    await phase('amux run / exec / wait', async () => {
      const h = homes.home('run');
      const r = await runPhase(h, sizes.runs);
      rows.push(ratioRow('amux run -- true', r.run, r.node, 1.8));
      rows.push(r.exec ? ratioRow('amux exec ID -- true', r.exec, r.node, 1.8) : valueRow('amux exec ID -- true', NaN, 'n/a: no exec command in the CLI'));
      rows.push(valueRow('daemon RSS, no sessions', r.idleRss.rss, mb(r.idleRss.rss)));
      raw.run = r;
      await h.cleanup();
    });

    await phase(`burst: ${BURST} amux run at once`, async () => {
      const h = homes.home('burst');
      const r = await burstPhase(h, BURST, Math.max(3, Math.floor(sizes.runs / 5)));
      rows.push(
        limitRow(`floor: ${BURST} × (node -e 0 && tmux new-session) at once`, r.floor),
        ratioRow(`${BURST} × amux run -- true at once (warm daemon)`, r.amux, r.floor, 1.5),
      );
      raw.burst = r;
      await h.cleanup();
    });

    await phase('daemon job round trip (in-bench client)', async () => {
      const h = homes.home('job');
      const r = await jobPhase(h, 2 * sizes.runs);
      const noGoal = { goal: 'no goal; floor = one tmux call', met: undefined };
      rows.push(
        limitRow('floor: tmux display-message -p x (one tmux call, execFile)', r.tmux),
        { ...ratioRow('  daemon: POST /v1/sessions/ID/jobs?stream=1 true, to end frame', r.stream, r.tmux), ...noGoal },
        { ...ratioRow('  daemon: POST /v1/sessions/ID/jobs background true, to answer with pid', r.background, r.tmux), ...noGoal },
      );
      raw.job = r;
      await h.cleanup();
    });

    await phase('lifecycle: queue handover, timeout overshoot', async () => {
      const h = homes.home('queue');
      const r = await queuePhase(h, Math.max(5, Math.floor(sizes.runs / 2)));
      const noGoal = { goal: 'no goal; floor = one tmux call', met: undefined };
      rows.push(
        limitRow('floor: tmux display-message -p x (one tmux call, execFile)', r.tmux),
        { ...ratioRow('  maxLive 1: pending run started after the live one ended (daemon clock)', r.handover, r.tmux), ...noGoal },
        limitRow('  run --timeout 1s: ended after start + 1 s, by (daemon clock)', r.timeoutOvershoot),
      );
      raw.queue = r;
      await h.cleanup();
    });

    await phase('up: amux up -d of the five-session demo stack', async () => {
      const h = homes.home('up');
      const r = await upPhase(h, envInt('BENCH_UP_RUNS', 5));
      const noGoal = { goal: 'no goal; reported', met: undefined };
      rows.push(
        { ...ratioRow('amux up -d, demo stack (5 sessions) vs the sum of their readiness times', r.up, r.readinessSum), ...noGoal },
        limitRow(`  sum of readiness (${Object.entries(r.perSession).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')} ms)`, r.readinessSum),
        limitRow("  up's overhead: up -d − the sum", r.overSum),
        { ...ratioRow('  up -d vs the critical path of readiness (db, then api | migrate)', r.up, r.criticalPath), ...noGoal },
        limitRow("  up's overhead: up -d − the critical path", r.overPath),
        limitRow('amux down -p demo (5 sessions, dependents first)', r.down),
      );
      raw.up = r;
      await h.cleanup();
    });

    await phase('amux wait latency', async () => {
      const h = homes.home('wait');
      const w = await waitPhase(h, Math.max(10, sizes.runs));
      rows.push(limitRow(`amux wait: return after command exit (waiter started ≥ ${w.minHeadStartMs.toFixed(0)} ms before)`, w.latency, 150));
      raw.wait = w;
      await h.cleanup();
    });

    await phase('status from evidence: idle latency, busy never idle, no flapping', async () => {
      const h = homes.home('evidence');
      const r = await evidencePhase(h, Math.max(10, sizes.runs), 15_000);
      raw.evidence = r;
      rows.push(
        { ...limitRow(`idle latency: read begins → idle (${r.idleLatency.n} sessions)`, r.idleLatency), goal: '≤ 500 ms p90', met: r.idleLatency.p90 <= 500 },
        valueRow(`busy but silent (CPU loop, sleep, sleeping recipe): idle looks of ${r.busyLooks}`, r.busyIdle, String(r.busyIdle), 0, '0'),
        valueRow('a line every 4.5 s: state changes away from working in 15 s', r.printerChanges, String(r.printerChanges), 0, '0'),
      );
      await h.cleanup();
    });

    await phase('status: time to idle of programs waiting for the terminal', async () => {
      const h = homes.home('idle-programs');
      const r = await idleProgramsPhase(h, 12_000);
      raw.idlePrograms = r;
      log(`time to idle by program (ms): ${JSON.stringify(r.byProgram)}`);
      rows.push(
        { ...limitRow(`time to idle: all threads asleep → idle (${r.latency.n} programs, timed waits too)`, r.latency), goal: '≤ 500 ms p90', met: r.latency.p90 <= 500 },
        valueRow('programs idle while a thread ran, or never idle', r.idleWhileRunning + Object.values(r.byProgram).filter((v) => v === null).length,
          `${r.idleWhileRunning} + ${Object.values(r.byProgram).filter((v) => v === null).length}`, 0, '0'),
      );
      await h.cleanup();
    });

    await phase(`status: one look at ${sizes.sessions} working sessions`, async () => {
      const h = homes.home('look');
      // BENCH_LOOK_BEFORE: another built tree's dist (e.g. the main branch's) to compare with, alternately.
      const r = await lookPhase(h, sizes.sessions, 40, process.env.BENCH_LOOK_BEFORE);
      raw.look = r;
      rows.push({ ...limitRow(`one look at ${r.sessions} working sessions (/proc, judgement, log size)`, r.after), goal: 'no more than before', met: r.before ? r.after.median <= r.before.median * 1.1 : undefined });
      if (r.before) rows.push({ ...limitRow(`  the same with ${process.env.BENCH_LOOK_BEFORE} (before)`, r.before), goal: 'for comparison', met: undefined });
      await h.cleanup();
    });

    await phase('agents: MCP exec round trip, wait --until idle latency', async () => {
      const h = homes.home('agents');
      const r = await agentsPhase(h, sizes.runs, Math.max(10, sizes.runs));
      raw.agents = r;
      rows.push(
        limitRow('floor: amux exec ID -- true (CLI, interleaved)', r.cliExec),
        { ...ratioRow('  MCP tool exec {command: true} on a running amux mcp', r.mcpExec, r.cliExec), goal: 'no goal; floor = the CLI exec', met: undefined },
        { ...limitRow(`wait --until idle: read begins → wait exits (${r.idleWait.n} sessions)`, r.idleWait), goal: '≤ 500 ms p90', met: r.idleWait.p90 <= 500 },
      );
      await h.cleanup();
    });

    await phase(`daemon memory with ${sizes.big} live sessions`, async () => {
      const h = homes.home('big');
      const r = await rssPhase(h, sizes.big, sizes.concurrency);
      raw.big = r;
      rows.push(
        valueRow(`daemon RSS, ${sizes.big} live sessions (CLI-started daemon)`, r.rss.rss, `${mb(r.rss.rss)} (peak ${mb(r.rss.peak)})`, 150, '150 MB'),
        limitRow(`amux ps (${sizes.big} live), 5 runs`, r.psAtBig),
        limitRow(`amux ps -q (${sizes.big} live), 5 runs`, r.psQAtBig),
        limitRow(`GET /v1/sessions (${sizes.big} live, in-bench client), 5 runs`, r.apiAtBig),
        valueRow(`creating ${sizes.big} sessions via amux run ×${sizes.concurrency}`, r.createMs, `${(r.createMs / 1000).toFixed(1)} s`),
      );
      await h.cleanup();
    });

    await phase('status refresh in-process', async () => {
      const h = homes.home('mon');
      const bench = new RefreshBench(h);
      homes.onCleanup(() => bench.close());
      const refresh: Record<string, unknown> = {};
      for (const n of [sizes.sessions, sizes.big]) {
        log(`  creating sessions up to ${n} in-process`);
        refresh[`create${n}Ms`] = await bench.grow(n, sizes.concurrency);
        const floor = await bench.spawnFloor(sizes.runs);
        refresh[`floor${n}`] = floor;
        rows.push({
          ...limitRow(`refresh floor at ${n}: one list-panes via execa, nothing else`, floor.listPanes),
          value: '',
        });
        for (const mode of ['quiet', 'changed', 'redrawn'] as const) {
          const r = await bench.measure(sizes.runs, mode);
          refresh[`${mode}${n}`] = r;
          const label = { quiet: 'quiet', changed: 'all panes changed', redrawn: 'all panes redrawn in place (all captured)' }[mode];
          rows.push(...refreshRows(label, r));
        }
      }
      raw.refresh = refresh;
    });
  } finally {
    log('cleaning up');
    await homes.cleanupAll();
  }

  if (homes.survivors) {
    rows.push(valueRow('cleanup: session processes alive 2 s after tmux kill-server', homes.survivors, `${homes.survivors} (killed by pid)`));
  }
  raw.survivorsAfterKillServer = homes.survivors;
  process.stdout.write(`${renderTable(rows)}\n\n`);
  process.stdout.write([
    'notes: medians and p90 over the runs; ratios are medians over the node -e 0 median timed in the same',
    '  interleaved loop. "spawns/refresh" counts every child process the refresh spawned (tmux list-panes,',
    '  ps, and one tmux source-file chained capture when fingerprints changed), via a child_process.spawn',
    '  wrapper; "all panes changed" types one character into every pane (one tmux call, not counted) 300 ms',
    '  before the timed refresh. wait latency = exit of the already-waiting `amux wait` minus the',
    '  command\'s own `date +%s%N` written as its last act. Job round trips: over the daemon socket with the',
    '  CLI\'s own client (src/client/http.ts), in one warm shell session; each background job is waited for',
    '  (untimed) before the next sample; their ratios are over the tmux display-message median of the same loop.',
    '  Queue handover and timeout overshoot are differences of the daemon\'s own startedAt/endedAt stamps.',
  ].join('\n') + '\n\n');
  const goals = rows.map(({ metric, median, p90, value, goal, met }) => ({ metric, median, p90, value, goal, met }));
  process.stdout.write(`BENCH_JSON ${JSON.stringify({ machine: facts, sizes, goals, raw })}\n`);
}

void main();
