import { waitExitCode } from '../core/signals.js';

/**
 * The exit code of a finished session or job whose output the CLI streamed (`run -w`, `exec`). One
 * that ended without an exit code of its own (its session vanished, amux ended it) also gets its
 * one `amux:` line on stderr, so that a script sees why.
 */
export function endedCode(what: string, r: { id: string; status: string; exitCode: number | null; signal: string | null; error: string | null }): number {
  if (r.exitCode === null && r.status !== 'completed' && r.error) process.stderr.write(`amux: ${what} ${r.id} ${r.status}: ${r.error}\n`);
  return waitExitCode(r);
}
