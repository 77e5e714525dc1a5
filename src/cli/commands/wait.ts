import { waitExitCode } from '../../core/signals.js';
import { parseUntil } from '../../core/until.js';
import type { WaitResult } from '../../protocol/wait.js';
import type { Client } from '../../client/client.js';
import { printJson } from '../output.js';

/**
 * README "Commands" (wait): 124 when the timeout ran out. Until `exited`: the exit code of the first
 * non-zero in argument order (with `any`, of the first that ended). Until a state: 0 when reached
 * (by all, or with `any` by one), 1 when a target ended without reaching it.
 */
export function waitCommandExit(results: readonly WaitResult[], timedOut: boolean, opts: { exited?: boolean; any?: boolean } = {}): number {
  if (timedOut) return 124;
  const exited = opts.exited !== false;
  if (opts.any) {
    const first = results.find((r) => r.reached);
    if (!first) return 1;
    return exited ? waitExitCode(first) : 0;
  }
  if (!exited) return results.every((r) => r.reached) ? 0 : 1;
  for (const r of results) {
    const code = waitExitCode(r);
    if (code !== 0) return code;
  }
  return 0;
}

export interface WaitFlags {
  timeout?: number;
  json?: boolean;
  until?: string;
  after?: number;
  any?: boolean;
  sinceOffset?: number;
}

/** `amux wait`: block until the targets ended, or got to the `--until` state. */
export async function waitCommand(client: Client, refs: string[], opts: WaitFlags): Promise<number> {
  const until = parseUntil(opts.until); // a bad one fails here, before a daemon is started
  const answer = await client.wait({
    ids: refs, timeoutMs: opts.timeout, until: opts.until, after: opts.after, any: opts.any === true, sinceOffset: opts.sinceOffset,
  });
  // The whole story of each end (README "Commands": wait), the same as the record's, and what decided it.
  if (opts.json) {
    printJson(answer.results.map(({ id, status, exitCode, signal, reason, error, reached, event, match, logOffset }) => ({
      id, status, exitCode, signal, reason, error, reached, event, match, logOffset, cursor: answer.cursor,
    })));
  }
  return waitCommandExit(answer.results, answer.timedOut, { exited: until.kind === 'exited', any: opts.any === true });
}
