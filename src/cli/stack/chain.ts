import type { Client } from '../../client/client.js';
import { readBody } from '../../client/http.js';
import { parseRestartPolicy, shouldRestart } from '../../core/restart-policy.js';
import { isTerminal } from '../../core/status.js';
import type { SessionView } from '../../protocol/sessions.js';

/** A policy restart creates its next session once the end's output settled (ADR 0059); look this long. */
const NEXT_WITHIN_MS = 12_000;
const POLL_MS = 200;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The session that carries on a service after `ended` ended: the next one of its restart chain
 * (`restartOf`), when its policy restarted it; null when none came. A service without a policy
 * never has one.
 */
export async function nextOfChain(client: Client, ended: SessionView): Promise<SessionView | null> {
  // An end its policy never restarts (completed under on-failure, stopped) has no next session to look for.
  if (!ended.restartPolicy || !ended.name || !shouldRestart(parseRestartPolicy(ended.restartPolicy), ended.status, 0)) return null;
  const deadline = Date.now() + NEXT_WITHIN_MS;
  while (Date.now() < deadline) {
    const next = (await client.sessions.list({ name: [ended.name] })).find((s) => s.restartOf === ended.id);
    if (next) return next;
    // The policy's limit of restarts in a row ended the chain: it says so (`restarts_exhausted`).
    if ((await readBody(await client.events.read({ session: ended.id }))).includes('"type":"restarts_exhausted"')) return null;
    await sleep(POLL_MS);
  }
  return null;
}

/** The session now, or null when it was removed (by `down`, `rm`). */
export async function current(client: Client, id: string): Promise<SessionView | null> {
  try {
    return (await client.sessions.inspect(id)).session;
  } catch {
    return null;
  }
}

/** Follows a chain to the session that runs (or last ran) the service, from `s`. */
export async function latest(client: Client, s: SessionView): Promise<SessionView> {
  let cur = s;
  while (isTerminal(cur.status)) {
    const next = await nextOfChain(client, cur);
    if (!next) return cur;
    cur = next;
  }
  return cur;
}
