import { waitExitCode } from '../../core/signals.js';
import { parseUntil } from '../../core/until.js';
import type { WaitResult } from '../../protocol/wait.js';
import { AmuxError } from '../../errors.js';
import type { WaitAnswer } from '../../protocol/wait.js';
import { printJson } from '../output.js';
import { Router } from '../refs.js';
import { MAX_WAIT_IDS } from '../../protocol/wait.js';

/**
 * src/guides/sessions.md (wait): 124 when the timeout ran out. Until `exited`: the exit code of the first
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
export async function waitCommand(router: Router, refs: string[], opts: WaitFlags): Promise<number> {
  const until = parseUntil(opts.until); // a bad one fails here, before a daemon is started
  if (refs.length > MAX_WAIT_IDS) throw new AmuxError('usage', `amux wait takes at most ${MAX_WAIT_IDS} sessions or jobs at once (got ${refs.length}); wait for the others in a second call`);
  // Targets on several hosts (HOST:ID, src/guides/remote.md): one wait per host, at once, and
  // the results put back in argument order.
  const routed = refs.map((r) => router.route(r));
  const hosts = [...new Set(routed.map((r) => r.host))];
  if (hosts.length > 1 && (opts.any || opts.after !== undefined)) {
    throw new AmuxError('usage', `--${opts.any ? 'any' : 'after'} waits on one daemon: give targets of one host (they are on ${hosts.map((h) => h ?? 'the default').join(', ')})`);
  }
  const answers = new Map<string | null, WaitAnswer>();
  await Promise.all(hosts.map(async (host) => {
    const mine = routed.filter((r) => r.host === host);
    answers.set(host, await mine[0]!.client.wait({
      ids: mine.map((r) => r.ref), timeoutMs: opts.timeout, until: opts.until, after: opts.after, any: opts.any === true, sinceOffset: opts.sinceOffset,
    }));
  }));
  const taken = new Map<string | null, number>();
  const one = hosts.length === 1 ? answers.get(hosts[0]!)! : null;
  const results = one ? one.results.map((result) => ({ host: hosts[0]!, result, cursor: one.cursor })) : routed.map((r) => {
    const i = taken.get(r.host) ?? 0;
    taken.set(r.host, i + 1);
    const answer = answers.get(r.host)!;
    return { host: r.host, result: answer.results[i]!, cursor: answer.cursor };
  });
  const timedOut = [...answers.values()].some((a) => a.timedOut);
  // The whole story of each end (src/guides/sessions.md: wait), the same as the record's, and what decided it.
  if (opts.json) {
    printJson(results.map(({ host, cursor, result: { id, status, exitCode, signal, reason, error, reached, event, match, logOffset } }) => ({
      ...(host === null ? {} : { host }), id, status, exitCode, signal, reason, error, reached, event, match, logOffset, cursor,
    })));
  }
  return waitCommandExit(results.map((r) => r.result), timedOut, { exited: until.kind === 'exited', any: opts.any === true });
}
