import { toAmuxError } from '../errors.js';

/** One line on stderr, and the exit code of the error (ADR 0006). */
export function reportError(err: unknown): number {
  const e = toAmuxError(err);
  process.stderr.write(`amux: ${e.message}\n`);
  if (e.code === 'internal' && process.env.AMUX_DEBUG) process.stderr.write(`${(err as Error).stack}\n`);
  return e.exitCode;
}
