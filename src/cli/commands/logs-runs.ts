import type { Client } from '../../client/client.js';
import { readBody } from '../../client/http.js';
import { renderPlain } from '../../core/log-render.js';
import { plainPieces } from '../follow.js';
import { isTerminal } from '../../core/status.js';
import { toAmuxError } from '../../errors.js';
import { nextOfChain } from '../stack/chain.js';
import type { SessionView } from '../../protocol/sessions.js';
import { writeOut } from '../output.js';

/** How many earlier runs `logs NAME` reads back (the daemon keeps as many; src/guides/sessions.md "Restart, labels, groups"). */
const RUNS_BACK = 10;

/** `--- run 3 of worker, ended failed (exit 42) ---`: one line before each run's output. */
export function runHeader(s: Pick<SessionView, 'name' | 'id' | 'restarts' | 'status' | 'exitCode' | 'signal'>): string {
  const how = s.exitCode !== null ? ` (exit ${s.exitCode})` : s.signal !== null ? ` (${s.signal})` : '';
  const state = isTerminal(s.status) ? `, ended ${s.status}${how}` : '';
  return `--- run ${s.restarts + 1} of ${s.name ?? s.id}${state} ---\n`;
}

/**
 * `logs NAME` of a session that restarted (src/guides/sessions.md "Restart, labels, groups"): the name is the identity a user
 * follows, as a docker container's across restarts. The earlier runs whose logs are kept, oldest
 * first, then the current one, each after its header; `-f` follows into each next run while the
 * restart policy goes on (its next run found as `up` finds it). An id names one run (`logs ID` prints that run alone).
 */
export async function logsOfRuns(client: Client, current: SessionView, follow: boolean): Promise<number> {
  const earlier: SessionView[] = [];
  for (let ref = current.restartOf; ref !== null && earlier.length < RUNS_BACK; ) {
    const { session } = await client.sessions.inspect(ref);
    earlier.unshift(session);
    ref = session.restartOf;
  }
  for (const run of earlier) {
    const text = await runText(client, run.id);
    if (text === null) continue; // its log is no longer kept
    await writeOut(runHeader(run) + text);
  }
  let run = current;
  for (;;) {
    await writeOut(runHeader(run));
    if (!follow) {
      await writeOut((await runText(client, run.id)) ?? '');
      return 0;
    }
    await followRun(client, run.id);
    const ended = (await client.sessions.inspect(run.id)).session;
    const next = await nextOfChain(client, ended);
    if (next === null) return 0;
    run = next;
  }
}

/** A run's whole output as plain text; null when its log is gone. */
async function runText(client: Client, id: string): Promise<string | null> {
  try {
    return renderPlain((await readBody(await client.sessions.logs(id, {}))).toString('utf8'));
  } catch (err) {
    if (toAmuxError(err).code === 'session_removed') return null;
    throw err;
  }
}

async function followRun(client: Client, id: string): Promise<void> {
  const res = await client.sessions.logs(id, { follow: true });
  for await (const text of plainPieces(res)) await writeOut(text);
}
