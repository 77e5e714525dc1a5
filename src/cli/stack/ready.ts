import type { Client } from '../../client/client.js';
import { formatDuration } from '../../core/duration.js';
import { isTerminal } from '../../core/status.js';
import type { SessionView } from '../../protocol/sessions.js';
import { current, nextOfChain } from './chain.js';
import { execProbe, httpProbe } from './probe.js';
import type { ReadySpec } from './spec.js';

export type Readiness = { ok: true; session: SessionView } | { ok: false; reason: string };

/** Where an `exec:` probe runs: this machine, in the session's directory and environment when they are here. */
export interface ProbeHere {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export function describeProbe(r: ReadySpec): string {
  return r.kind === 'until' ? `until ${r.until}` : r.kind === 'http' ? `http ${r.url}` : `exec ${r.command}`;
}

export function describeEnd(s: SessionView): string {
  return s.exitCode === null ? s.status : `${s.status}, exit code ${s.exitCode}`;
}

/**
 * Waits until the session says it is ready (ADR 0035): `until` is a wait of the daemon where the
 * session runs; `http` and `exec` are tried from this machine every interval. A session that ends
 * first is not ready, unless its restart policy starts it again (then its next session is
 * watched, within the same deadline).
 */
export async function awaitReady(client: Client, first: SessionView, ready: ReadySpec, here: ProbeHere, signal?: AbortSignal): Promise<Readiness> {
  const deadline = Date.now() + ready.timeoutMs;
  const late = (): Readiness => ({ ok: false, reason: `not ready within ${formatDuration(ready.timeoutMs)} (ready: ${describeProbe(ready)})` });
  let s = first;
  for (;;) {
    if (signal?.aborted) return { ok: false, reason: 'up was interrupted' };
    const remaining = deadline - Date.now();
    if (remaining <= 0) return late();
    if (ready.kind === 'until') {
      const ans = await client.wait({ ids: [s.id], until: ready.until, timeoutMs: remaining });
      if (ans.results[0]?.reached) return { ok: true, session: s };
      if (ans.timedOut) return late();
    } else {
      const ok = ready.kind === 'http' ? await httpProbe(ready.url, remaining, signal) : await execProbe(ready.command, here.cwd, here.env, remaining, signal);
      if (ok) return { ok: true, session: s };
    }
    const now = await current(client, s.id);
    if (!now) return { ok: false, reason: 'removed before it was ready' };
    if (isTerminal(now.status)) {
      // A restart removes the run it replaces (ADR 0059): its successor carries on.
      const next = await nextOfChain(client, now);
      if (!next && now.removed) return { ok: false, reason: 'removed before it was ready' };
      if (!next) return { ok: false, reason: `ended (${describeEnd(now)}) before it was ready (ready: ${describeProbe(ready)})` };
      s = next;
      continue;
    }
    if (now.removed) return { ok: false, reason: 'removed before it was ready' };
    if (ready.kind !== 'until') await pause(Math.min(ready.intervalMs, Math.max(0, deadline - Date.now())), signal);
  }
}

/** Waits until the service has ended for good (through its restarts): its last session. */
export async function awaitEnd(client: Client, first: SessionView): Promise<SessionView> {
  let s = first;
  for (;;) {
    await client.wait({ ids: [s.id] });
    const now = (await current(client, s.id)) ?? s;
    const next = isTerminal(now.status) ? await nextOfChain(client, now) : null;
    if (!next) return now;
    s = next;
  }
}

/** Sleeps `ms`, or less when `signal` aborts first. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done);
  });
}
