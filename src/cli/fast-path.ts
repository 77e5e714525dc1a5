import type { PsOptions } from './commands/ps.js';

/**
 * `amux ps` is run in loops by scripts and agents; loading commander is a third of its time
 * budget (SPEC §8, ADR 0008). A plain `ps` with its own flags is parsed here; anything else
 * (help, unknown flags, other commands) returns null and goes through commander. A unit test
 * checks that both parsers agree.
 */
export function parseFastPs(args: readonly string[]): PsOptions | null {
  if (args[0] !== 'ps') return null;
  const opts: PsOptions = {};
  for (let i = 1; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-q' || a === '--quiet') opts.quiet = true;
    else if (a === '--json') opts.json = true;
    else if (a === '--no-trunc') opts.trunc = false;
    else if (a === '--no-color') continue;
    else if (a === '--status' && i + 1 < args.length && !args[i + 1]!.startsWith('-')) opts.status = args[++i]!;
    else if (a.startsWith('--status=') && a.length > 9) opts.status = a.slice(9);
    else return null;
  }
  return opts;
}
