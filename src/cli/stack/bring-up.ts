import type { Client } from '../../client/client.js';
import { AmuxError } from '../../errors.js';
import type { SessionView } from '../../protocol/sessions.js';
import type { Desired, Reconcile, Step } from './plan.js';
import { awaitEnd, awaitReady, describeEnd, type ProbeHere } from './ready.js';
import { HASH_LABEL, STACK_LABEL, type Condition } from './spec.js';
import { stopSessions } from './stop.js';
import { recordUnstarted, type Failure } from './unstarted.js';

export type { Failure };

class Failed extends Error {
  constructor(readonly failure: Failure) {
    super(failure.reason);
  }
}

/** What `up` tells as it goes: progress lines, and each session as it starts (foreground up follows it). */
export interface UpListener {
  note(line: string): void;
  started(key: string, session: SessionView): void;
  /** A session passed its `ready` probe (not called for one without a probe: it is ready once started). */
  ready?(key: string, session: SessionView): void;
  /** True once up is being stopped (Ctrl-C): nothing more starts, and a session that started meanwhile is removed. */
  aborted?(): boolean;
  /** Aborted with `aborted`: ends a readiness probe under way at once. */
  signal?: AbortSignal;
}

export interface UpResult {
  /** The first session that failed (to start, to be ready, to complete), or null when all came up. */
  failure: Failure | null;
  /** Sessions left unstarted because a dependency failed. */
  notStarted: string[];
  /** The session of each service that started. */
  sessions: Map<string, SessionView>;
  /** The records of the sessions left unstarted: `failed` without starting, reason `dependency failed` (ADR 0039). */
  unstarted: Map<string, SessionView>;
}

/**
 * Carries out a reconcile (ADR 0036): orphans stopped first, then every session as soon as its
 * dependencies meet their conditions, independent ones at once. A dependency that fails leaves its
 * dependents unstarted, recorded as such (ADR 0039). Resolves when every session is ready (or started, without a probe) or
 * could not be.
 */
export async function bringUp(client: Client, plan: Reconcile, here: (d: Desired) => ProbeHere, listener: UpListener): Promise<UpResult> {
  if (plan.orphans.length) await stopSessions(client, plan.orphans, (s) => listener.note(`${s.labels.service ?? s.name} removed (no longer in the file)`));
  const byKey = new Map(plan.steps.map((s) => [s.want.spec.key, s]));
  const failures: Failure[] = [];
  const fail = (failure: Failure): never => {
    failures.push(failure);
    throw new Failed(failure);
  };
  const memo = <T>(fn: (key: string) => Promise<T>) => {
    const m = new Map<string, Promise<T>>();
    return (key: string): Promise<T> => {
      if (!m.has(key)) m.set(key, fn(key));
      return m.get(key)!;
    };
  };

  const started = memo(async (key) => {
    const step = byKey.get(key)!;
    await Promise.all(Object.entries(step.want.spec.dependsOn).map(([dep, cond]) => reach(dep, cond)));
    const s = await start(client, step, listener).catch((err: Error) => fail({ service: key, reason: `could not start: ${err.message}` }));
    listener.started(key, s);
    return s;
  });
  const ready = memo(async (key) => {
    const s = await started(key);
    const spec = byKey.get(key)!.want.spec;
    if (!spec.ready) return s;
    const t0 = Date.now();
    const r = await awaitReady(client, s, spec.ready, here(byKey.get(key)!.want), listener.signal);
    if (!r.ok) fail({ service: key, reason: r.reason });
    const session = (r as { session: SessionView }).session;
    listener.note(`${key} ready (${Date.now() - t0}ms)`);
    listener.ready?.(key, session);
    return session;
  });
  const ended = memo(async (key) => awaitEnd(client, await started(key)));
  const reach = async (dep: string, cond: Condition): Promise<void> => {
    if (cond === 'started') await started(dep);
    else if (cond === 'ready') await ready(dep);
    else {
      const e = await ended(dep);
      if (cond === 'completed' && e.status !== 'completed') fail({ service: dep, reason: `ended (${describeEnd(e)}), not completed` });
    }
  };

  const keys = [...byKey.keys()];
  const outcomes = await Promise.allSettled(keys.map((k) => ready(k)));
  const sessions = new Map<string, SessionView>();
  const notStarted: string[] = [];
  const unstarted = new Map<string, SessionView>();
  await Promise.all(keys.map(async (k, i) => {
    const st = await Promise.allSettled([started(k)]);
    const step = byKey.get(k)!;
    if (st[0]!.status === 'fulfilled') sessions.set(k, (outcomes[i]!.status === 'fulfilled' ? outcomes[i]!.value : st[0]!.value));
    else if (step.kind === 'keep') sessions.set(k, step.session); // unchanged and there already: not "unstarted"
    else if ((st[0]!.reason as Failed).failure?.service !== k) notStarted.push(k);
  }));
  for (const o of outcomes) if (o.status === 'rejected' && !(o.reason instanceof Failed)) throw o.reason;
  // In the file's order, so that a session's reason can name a dependency left unstarted before it.
  notStarted.sort((a, b) => keys.indexOf(a) - keys.indexOf(b));
  if (notStarted.length && !listener.aborted?.()) {
    for (const [k, s] of await recordUnstarted(client, byKey, failures, notStarted, listener.note)) unstarted.set(k, s);
  }
  return { failure: failures[0] ?? null, notStarted, sessions, unstarted };
}

async function start(client: Client, step: Step, listener: UpListener): Promise<SessionView> {
  const key = step.want.spec.key;
  if (step.kind === 'keep') {
    listener.note(`${key} unchanged (${step.session.name}, ${step.session.status})`);
    return step.session;
  }
  if (listener.aborted?.()) throw new Error('up was interrupted');
  if (step.kind === 'replace') await client.sessions.remove(step.session.id, { force: true }).catch(goneAlready);
  let created: SessionView;
  try {
    created = await client.sessions.create(step.want.request);
  } catch (err) {
    const theirs = await startedMeanwhile(client, step, err);
    if (!theirs) throw err;
    listener.note(`${key} started by another up meanwhile: ${theirs.name} ${theirs.id}`);
    return client.sessions.running(theirs);
  }
  // `started` means running, for its dependents too (ADR 0040).
  const s = await client.sessions.running(created);
  if (listener.aborted?.()) {
    await client.sessions.remove(s.id, { force: true });
    throw new Error('up was interrupted');
  }
  listener.note(`${key} ${step.kind === 'replace' ? `replaced (${step.why})` : 'started'}: ${s.name} ${s.id}`);
  return s;
}

/** A session another `up` removed first is gone already: what this one wanted. */
function goneAlready(err: unknown): void {
  const code = err instanceof AmuxError ? err.code : null;
  if (code !== 'session_removed' && code !== 'session_not_found') throw err;
}

/**
 * Two `up` of one stack at once (ADR 0036): the one that loses the race for a session's name
 * takes the session the other made, when that is the same definition (its hash), as a later `up`
 * would keep it; null when the name is held by anything else.
 */
async function startedMeanwhile(client: Client, step: Step, err: unknown): Promise<SessionView | null> {
  if (!(err instanceof AmuxError && err.code === 'name_in_use') || !step.want.name) return null;
  const [holder] = await client.sessions.list({ name: [step.want.name] });
  const labels = holder?.labels ?? {};
  const same = labels[STACK_LABEL] === step.want.request.labels?.[STACK_LABEL] && labels[HASH_LABEL] === step.want.hash;
  return holder && same ? holder : null;
}
