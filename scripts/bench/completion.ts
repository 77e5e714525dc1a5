/**
 * How long one Tab takes (ADR 0021): `amux __complete …` as the shell scripts call it, against
 * `node -e 0` in the same interleaved loop, with no daemon and with a daemon holding 20 sessions
 * (ids, names and job ids). Medians; NODE_EXTRA_CA_CERTS unset on both sides.
 *
 *   npm run build && node dist/scripts/bench/completion.js      (BENCH_RUNS, default 30)
 */
import { envInt, interleaved, run } from './measure.js';
import { AMUX_BIN, Homes } from './homes.js';

async function main(): Promise<void> {
  const runs = envInt('BENCH_RUNS', 30);
  const homes = new Homes();
  homes.cleanupOnSignal((m) => process.stderr.write(`${m}\n`));
  try {
    const idle = homes.home('none'); // never started: completion must not start it
    const live = homes.home('live');
    const ids = await live.runMany(20, 'sleep 600');
    const shell = (await live.amuxOk('run', '-n', 'sh')).stdout.trim();
    await live.amuxOk('exec', shell, '--', 'true');
    const amux = [process.execPath, AMUX_BIN, '__complete'];
    const cases = {
      'node -e 0': [process.execPath, '-e', '0'],
      'no daemon: amux <Tab>': [...amux, ''],
      'no daemon: amux logs <Tab>': [...amux, 'logs', ''],
      'no daemon: amux run --<Tab>': [...amux, 'run', '--'],
    };
    const down = await interleaved(cases, runs, idle.env);
    const up = await interleaved({
      'node -e 0': [process.execPath, '-e', '0'],
      'daemon: amux logs <Tab> (21 sessions)': [...amux, 'logs', ''],
      [`daemon: amux logs job-<Tab>`]: [...amux, 'logs', `job-${shell.slice(0, 2)}`],
    }, runs, live.env);
    const print = (r: Record<string, { median: number; p90: number }>) => {
      const base = r['node -e 0']!.median;
      for (const [k, s] of Object.entries(r)) {
        console.log(`${k.padEnd(40)} median ${s.median.toFixed(1).padStart(6)} ms  p90 ${s.p90.toFixed(1).padStart(6)} ms  (+${(s.median - base).toFixed(1)} ms)`);
      }
    };
    console.log(`${runs} interleaved runs each`);
    print(down);
    print(up);
    const started = await run([process.execPath, AMUX_BIN, 'daemon', 'status'], idle.env);
    console.log(`daemon started by completing: ${started.code === 3 ? 'no' : 'YES (a bug)'}; ${ids.length} sessions + shell ${shell}`);
  } finally {
    await homes.cleanupAll();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
