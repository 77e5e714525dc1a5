import { waitExitCode } from '../../core/signals.js';
import type { WaitResult } from '../../protocol/wait.js';
import type { Client } from '../../client/client.js';
import { printJson } from '../output.js';

/** README "Commands" (wait): the exit code of the first non-zero in argument order; 124 when the timeout ran out. */
export function waitCommandExit(results: readonly WaitResult[], timedOut: boolean): number {
  if (timedOut) return 124;
  for (const r of results) {
    const code = waitExitCode(r);
    if (code !== 0) return code;
  }
  return 0;
}

/** `amux wait`: block until all sessions are terminal. */
export async function waitCommand(client: Client, refs: string[], opts: { timeout?: number; json?: boolean }): Promise<number> {
  const { results, timedOut } = await client.wait({ ids: refs, timeoutMs: opts.timeout });
  // The whole story of each end (README "Commands": wait), the same as the record's.
  if (opts.json) printJson(results.map(({ id, status, exitCode, signal, reason, error }) => ({ id, status, exitCode, signal, reason, error })));
  return waitCommandExit(results, timedOut);
}
