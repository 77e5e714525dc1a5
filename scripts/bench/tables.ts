/**
 * cli-table3 against amux's own `formatTable` on 100 rows like `amux ps` prints (ADR 0023):
 * each in a fresh node process (what a CLI call pays: loading the code, then one render), against
 * a process that loads neither, and in one process (a warm render). Interleaved runs, medians;
 * NODE_EXTRA_CA_CERTS unset on every side.
 *
 *   npm run build && node dist/scripts/bench/tables.js      (BENCH_RUNS, default 30)
 */
import { benchEnv, envInt, interleaved } from './measure.js';

const ROWS = 100;
const HEAD = ['ID', 'NAME', 'STATUS', 'EXIT', 'AGE', 'COMMAND'];

/** 100 rows shaped as `amux ps` prints them. */
export function psRows(n = ROWS): string[][] {
  return Array.from({ length: n }, (_, i) => [
    (0x3f9a01bc + i * 7919).toString(16).slice(-8),
    i % 3 ? `web-${i}` : '',
    ['working', 'idle', 'completed', 'failed'][i % 4]!,
    i % 4 > 1 ? String(i % 4 === 2 ? 0 : 1) : '',
    `${i}m`,
    `npm run build -- --filter package-${i} && make test`,
  ]);
}

/** Renders once with `which` and writes the text to stdout; `none` loads nothing. */
function renderOnce(which: string): string {
  if (which === 'fast') return (require('../../src/cli/output.js') as typeof import('../../src/cli/output.js')).formatTable(HEAD, psRows());
  if (which === 'cli-table3') return (require('../../src/cli/tables.js') as typeof import('../../src/cli/tables.js')).gridTable(HEAD, psRows());
  return '';
}

async function main(): Promise<void> {
  const child = process.argv[2];
  if (child) {
    process.stdout.write(renderOnce(child));
    return;
  }
  const runs = envInt('BENCH_RUNS', 30);
  const env = benchEnv({ NO_COLOR: '1' });
  const self = [process.execPath, __filename];
  const r = await interleaved({ none: [...self, 'none'], fast: [...self, 'fast'], 'cli-table3': [...self, 'cli-table3'] }, runs, env);
  const line = (name: string, s: { median: number; p90: number }) =>
    `${name.padEnd(34)} median ${s.median.toFixed(1).padStart(6)} ms  p90 ${s.p90.toFixed(1).padStart(6)} ms  (+${(s.median - r.none.median).toFixed(1)} ms)`;
  console.log(`${ROWS} rows, fresh process each, ${runs} interleaved runs:`);
  console.log(line('node, nothing rendered', r.none));
  console.log(line('formatTable (ps, history, jobs)', r.fast));
  console.log(line('cli-table3 (gridTable)', r['cli-table3']));

  // In this process: the first render (cli-table3 loads) and warm renders.
  const t0 = performance.now();
  renderOnce('cli-table3');
  const first = performance.now() - t0;
  const warm = (which: string) => {
    const t = performance.now();
    for (let i = 0; i < 20; i++) renderOnce(which);
    return (performance.now() - t) / 20;
  };
  renderOnce('fast');
  console.log(`in one process: cli-table3 first render ${first.toFixed(1)} ms; warm render cli-table3 ${warm('cli-table3').toFixed(2)} ms, formatTable ${warm('fast').toFixed(2)} ms`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
