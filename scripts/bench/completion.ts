/**
 * How long one Tab takes (ADR 0021): `amux __complete …` as the shell scripts call it, against
 * `node -e 0` in the same interleaved loop, with no daemon and with a daemon holding 20 sessions
 * (ids, names and job ids). Medians; NODE_EXTRA_CA_CERTS unset on both sides.
 *
 *   npm run build && node dist/scripts/bench/completion.js      (BENCH_RUNS, default 30)
 */
import { join } from 'node:path';
import { envInt, interleaved, run } from './measure.js';
import { AMUX_BIN, Homes } from './homes.js';

/** `--parts WORD…`: in this process, the time to load the CLI's bundle, then to answer; prints both. */
async function parts(words: string[]): Promise<void> {
  let t = performance.now();
  const cli = require(join(AMUX_BIN, '..', '..', 'dist', 'src', 'cli', 'bundle.js')) as typeof import('../../src/cli/main.js');
  const load = performance.now() - t;
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = () => true;
  t = performance.now();
  await cli.main([process.execPath, AMUX_BIN, '__complete', ...words]);
  const answer = performance.now() - t;
  process.stdout.write = write;
  process.stdout.write(`${load.toFixed(2)} ${answer.toFixed(2)}\n`);
}

async function main(): Promise<void> {
  if (process.argv[2] === '--parts') return parts(process.argv.slice(3));
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
    // Where the time goes, in fresh processes (less noisy than the differences above).
    const parts = async (env: NodeJS.ProcessEnv, words: string[]) => {
      const ms: number[][] = [];
      for (let i = 0; i < Math.min(runs, 15); i++) {
        const r = await run([process.execPath, __filename, '--parts', ...words], env);
        ms.push(r.stdout.trim().split(' ').map(Number));
      }
      const median = (k: number) => ms.map((m) => m[k]!).sort((a, b) => a - b)[ms.length >> 1]!.toFixed(1);
      return `loading the CLI bundle ${median(0)} ms, answering ${median(1)} ms`;
    };
    console.log(`in one process, no daemon, amux logs <Tab>: ${await parts(idle.env, ['logs', ''])}`);
    console.log(`in one process, daemon, amux logs <Tab>:    ${await parts(live.env, ['logs', ''])}`);
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
