import type { Client } from '../../client/client.js';
import { AmuxError, EXIT } from '../../errors.js';
import type { SessionView } from '../../protocol/sessions.js';
import { useColor, writeOut } from '../output.js';
import { bringUp, type UpListener, type UpResult } from '../stack/bring-up.js';
import { followService } from '../stack/follow.js';
import { prefixes } from '../stack/prefix.js';
import { killProbes } from '../stack/probe.js';
import { prepareStack } from '../stack/prepare.js';
import { STACK_LABEL } from '../stack/spec.js';
import { stopSessions } from '../stack/stop.js';

export interface UpOptions {
  file?: string;
  detach?: boolean;
  project?: string;
}

const DYING: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

const note = (line: string) => process.stderr.write(`up: ${line}\n`);

/**
 * `amux up` (src/guides/stacks.md): checks the file (exit 2, nothing started), reconciles the stack's
 * sessions with it (ADR 0036), starts what is missing in dependency order, and then either returns
 * (-d, once all are ready) or streams every session's output prefixed until Ctrl-C, which brings
 * the stack down.
 */
export async function upCommand(client: Client, services: string[], opts: UpOptions): Promise<number> {
  const { name, plan, here, keys } = await prepareStack(client, {
    cwd: process.cwd(), file: opts.file, project: opts.project, services, env: process.env as Record<string, string>, umask: process.umask(),
  });

  if (opts.detach) {
    // Ctrl-C or TERM of `up -d` leaves the stack as it is, as before; only the probe under way (in
    // a process group of its own, which the terminal's signal does not reach) goes with up.
    const die = (signal: NodeJS.Signals) => {
      killProbes();
      process.kill(process.pid, signal);
    };
    for (const sig of DYING) process.once(sig, die);
    try {
      const result = await bringUp(client, plan, here, { note, started: () => {} });
      const failed = failureLine(result, name);
      if (failed) throw new AmuxError('operation_failed', failed);
      note(`stack ${name}: ${result.sessions.size} session(s) up`);
      return EXIT.ok;
    } finally {
      for (const sig of DYING) process.off(sig, die);
    }
  }

  const pre = prefixes(keys, useColor(process.stdout));
  const sink = (text: string) => writeOut(text);
  let interrupted = false;
  let onInterrupt: () => void = () => {};
  const interruptedP = new Promise<void>((resolve) => (onInterrupt = resolve));
  const abort = new AbortController();
  const sigint = () => {
    if (interrupted) return;
    interrupted = true;
    note('stopping the stack (Ctrl-C)');
    abort.abort();
    onInterrupt();
  };
  process.on('SIGINT', sigint);
  process.on('SIGTERM', sigint);
  const followers: Promise<SessionView>[] = [];
  const following = new Map<string, Promise<SessionView>>();
  const listener: UpListener = {
    note,
    started: (key, s) => {
      const f = followService(client, s, pre.get(key)!, sink, () => interrupted);
      followers.push(f);
      following.set(s.id, f);
    },
    aborted: () => interrupted,
    signal: abort.signal,
  };
  try {
    const upP = bringUp(client, plan, here, listener);
    const first = await Promise.race([upP, interruptedP.then(() => null)]);
    const failed = first && failureLine(first, name);
    if (failed) process.stderr.write(`amux: ${failed}\n`);
    else if (!interrupted) await Promise.race([Promise.all(followers), interruptedP]);
    if (failed || interrupted) {
      // Ctrl-C, or a session that failed to come up: the foreground stack goes down with up. After
      // a failure the streams of the sessions that ended first run to their end (their output may
      // reach the log after the exit status does), so the failing output shows; the others run on
      // until their sessions are removed.
      if (failed) await endedFollowers(client, name, following);
      await stopSessions(client, await client.sessions.list({ label: [`${STACK_LABEL}=${name}`] }), (s) => note(`${s.labels.service ?? s.name} stopped`));
      await upP.catch(() => undefined);
      await Promise.allSettled(followers);
      return failed ? EXIT.failed : 130;
    }
    const ends = await Promise.all(followers);
    return ends.some((s) => s.status !== 'completed') ? EXIT.failed : EXIT.ok;
  } finally {
    process.off('SIGINT', sigint);
    process.off('SIGTERM', sigint);
  }
}

/** One line naming the session that did not come up and why, and what it left unstarted; null when all came up. */
function failureLine(result: UpResult, name: string): string | null {
  if (!result.failure) return null;
  const { service, reason } = result.failure;
  const left = result.notStarted.length ? `; not started: ${result.notStarted.join(', ')}` : '';
  return `up: session '${service}' of stack ${name}: ${reason}${left}`;
}

/** The longest up waits for the output of the sessions that ended before it brings the stack down. */
const ENDED_OUTPUT_WAIT_MS = 12_000;

/** Waits (bounded) for the followers of the stack's sessions that have ended: each stops at its log's end. */
async function endedFollowers(client: Client, name: string, following: Map<string, Promise<SessionView>>): Promise<void> {
  const ended = (await client.sessions.list({ label: [`${STACK_LABEL}=${name}`] })).filter((s) => s.endedAt !== null);
  const waits = ended.map((s) => following.get(s.id)).filter((f) => f !== undefined);
  if (waits.length === 0) return;
  await Promise.race([Promise.allSettled(waits), new Promise((r) => setTimeout(r, ENDED_OUTPUT_WAIT_MS).unref())]);
}
