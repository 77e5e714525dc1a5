/**
 * A/B benchmark (scripts/PERFORMANCE.md): two built amux trees in one run, interleaved. A is
 * `--baseline DIR`, B this tree (or `--candidate DIR`); every round samples A, a second copy of A
 * (A') and B, so a refactor can show that no row got worse beyond the noise of A against A'.
 * Both trees are driven only through their bin/amux and their daemon's socket, never through
 * their src/. Sizes: BENCH_SESSIONS (100), BENCH_RUNS (15), BENCH_CONCURRENCY (8), BENCH_EPOCHS (3:
 * each epoch in fresh homes), BENCH_WARMUP (2 untimed rounds per epoch).
 */
import { join } from 'node:path';
import type { MetricSamples } from './bench/ab-loop.js';
import { listPhase, runsPhase, type AbPhaseResult, type AbSizes } from './bench/ab-phases.js';
import { compare, renderAbTable, rowJson, type Comparison } from './bench/ab-report.js';
import { parseTreeArgs, type Tree } from './bench/ab-trees.js';
import { Homes } from './bench/homes.js';
import { machineFacts } from './bench/machine.js';
import { envInt, isAborted } from './bench/measure.js';

const sizes: AbSizes = {
  sessions: envInt('BENCH_SESSIONS', 100),
  runs: envInt('BENCH_RUNS', 15),
  concurrency: envInt('BENCH_CONCURRENCY', 8),
  warmup: process.env.BENCH_WARMUP === '0' ? 0 : envInt('BENCH_WARMUP', 2),
  epochs: envInt('BENCH_EPOCHS', 3),
};
// Timed children get a clean env explicitly (benchEnv); this covers the rest of what we spawn.
delete process.env.NODE_EXTRA_CA_CERTS;

const started = performance.now();
const elapsedS = () => (performance.now() - started) / 1000;
const log = (msg: string) => process.stderr.write(`[bench:ab +${elapsedS().toFixed(1)}s] ${msg}\n`);

/** The tree this script was built in: dist/scripts/bench-ab.js → two levels up. */
const OWN_ROOT = join(__dirname, '..', '..');

function trees(): { baseline: Tree; candidate: Tree } {
  try {
    return parseTreeArgs(process.argv.slice(2), OWN_ROOT);
  } catch (err) {
    process.stderr.write(`bench:ab: ${(err as Error).message}\n`);
    process.exit(2);
  }
}

const NOTES = [
  'notes: A and A\' are two homes (daemon, tmux server) running the baseline tree, B one running the',
  '  candidate; each round samples every row from A, A\' and B in turn, the order rotated per round;',
  '  the runs are cut into epochs, each in fresh homes (new daemons and tmux servers), warmed up first.',
  '  Values are medians. noise = the larger of |A\'/A - 1| and the half-width of the 95% bootstrap',
  '  interval of A\'/A (rounds resampled, 2000 times): how far two copies of one tree drift apart in',
  '  this run. WORSE/better: B/A further from 1 than the noise. RSS: VmRSS of each daemon, read every',
  '  round; it barely moves within one daemon, so its noise comes from the epochs\' new daemons. Timed',
  '  children run without NODE_EXTRA_CA_CERTS. GET and the job round trip are timed in this process',
  '  over the daemon socket (node:http, no CLI start-up). wait latency = exit of the already-waiting',
  '  `amux wait` minus the command\'s last `date +%s%N`.',
];

async function main(): Promise<void> {
  const { baseline, candidate } = trees();
  const facts = machineFacts();
  const homes = new Homes();
  process.stdout.write(`amux A/B benchmark — ${facts.date}\n`);
  process.stdout.write(`A, A': ${baseline.root} (${baseline.rev})\nB:     ${candidate.root} (${candidate.rev})\n`);
  process.stdout.write(`machine: ${facts.nproc} CPU × ${facts.cpu}, ${facts.memGb} GiB, ${facts.kernel}, load ${facts.loadavg.join(' ')}\n`);
  process.stdout.write(`software: node ${facts.node}, ${facts.tmux}\nsizes: ${JSON.stringify(sizes)}\n\n`);

  homes.cleanupOnSignal(log);

  const slots = { A: baseline, "A'": baseline, B: candidate };
  const measured: MetricSamples[] = [];
  const phaseFacts: Record<string, unknown> = {};
  const phaseErrors: Record<string, string> = {};
  const phases: [string, () => Promise<AbPhaseResult>][] = [
    [`list: ${sizes.sessions} live sessions per home`, () => listPhase(homes, slots, sizes, log)],
    ['run / exec / job / wait: empty homes', () => runsPhase(homes, slots, sizes, log)],
  ];
  try {
    for (const [name, fn] of phases) {
      if (isAborted()) break;
      log(name);
      try {
        const r = await fn();
        measured.push(...r.metrics);
        phaseFacts[name] = r.facts;
      } catch (err) {
        log(`${name} failed: ${(err as Error).stack ?? err}`);
        phaseErrors[name] = (err as Error).message;
      }
    }
  } finally {
    log('cleaning up');
    await homes.cleanupAll();
  }
  if (isAborted()) return;

  const rows: Comparison[] = measured.map(compare);
  process.stdout.write(`${renderAbTable(rows)}\n\n`);
  for (const [name, msg] of Object.entries(phaseErrors)) process.stdout.write(`ERROR in phase "${name}": ${msg}\n`);
  if (homes.survivors) process.stdout.write(`cleanup: ${homes.survivors} session processes alive 2 s after tmux kill-server (killed by pid)\n`);
  const worse = rows.filter((r) => r.verdict === 'WORSE' || r.verdict === 'ERROR').map((r) => r.name);
  process.stdout.write(worse.length ? `B worse than A beyond the noise (or failed): ${worse.join('; ')}\n` : 'no row of B worse than A beyond the noise\n');
  // The load at both ends: on a shared machine it is what the noise column mostly reflects.
  const loadEnd = machineFacts().loadavg;
  process.stdout.write(`run time ${elapsedS().toFixed(1)} s; load at the end ${loadEnd.join(' ')}\n\n${NOTES.join('\n')}\n\n`);
  const json = {
    machine: facts, loadEnd, sizes, trees: { A: baseline, B: candidate }, runTimeS: +elapsedS().toFixed(1),
    rows: rows.map((r, i) => rowJson(r, measured[i]!)), phases: phaseFacts, errors: phaseErrors, survivors: homes.survivors,
  };
  process.stdout.write(`BENCH_AB_JSON ${JSON.stringify(json)}\n`);
}

void main();
