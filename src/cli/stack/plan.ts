import { createHash } from 'node:crypto';
import { isAbsolute, resolve } from 'node:path';
import { AmuxError } from '../../errors.js';
import type { CreateSessionRequest, SessionView } from '../../protocol/sessions.js';
import { isTerminal } from '../../core/status.js';
import { readEnvFile } from './env-file.js';
import { levels } from './graph.js';
import { HASH_LABEL, LEVEL_LABEL, SERVICE_LABEL, STACK_LABEL, type ServiceSpec, type StackFile } from './spec.js';

/** One session of the stack as it should be: the request that starts it and the hash of its definition. */
export interface Desired {
  spec: ServiceSpec;
  name: string;
  hash: string;
  request: CreateSessionRequest;
}

/** Where the stack runs: here (then this machine's environment and umask go along) or on a remote host. */
export interface Target {
  remote: boolean;
  /** This process's environment (local stacks). */
  env: Record<string, string>;
  umask: number;
}

export const sessionName = (stack: string, key: string) => `${stack}-${key}`;

/**
 * Turns the file's sessions into create requests (ADR 0035): cwd and env_file resolved against the
 * file's directory on this machine, env_file then env over the caller's environment (a remote
 * host: over the host's own). The hash covers what the file says (env_file contents included), not
 * the caller's environment, so that `up` again replaces only what was edited (ADR 0036).
 */
export function desired(stack: StackFile, name: string, services: readonly ServiceSpec[], target: Target): Desired[] {
  const depth = levels(stack.services);
  return services.map((spec) => {
    const fileEnv: Record<string, string> = {};
    for (const f of spec.envFiles) {
      try {
        Object.assign(fileEnv, readEnvFile(resolve(stack.dir, f), f));
      } catch (err) {
        throw new AmuxError('usage', `${stack.file}:${spec.line}: sessions.${spec.key}.env_file: ${(err as Error).message}`);
      }
    }
    Object.assign(fileEnv, spec.env);
    let cwd: string | undefined;
    if (target.remote) {
      if (spec.cwd !== undefined && !isAbsolute(spec.cwd)) {
        throw new AmuxError('usage', `${stack.file}:${spec.line}: sessions.${spec.key}.cwd: on a remote host cwd must be an absolute path there, not '${spec.cwd}'`);
      }
      cwd = spec.cwd;
    } else {
      cwd = resolve(stack.dir, spec.cwd ?? '.');
    }
    const definition = {
      command: spec.command ?? null, argv: spec.argv ?? null, cwd: cwd ?? null, env: sorted(fileEnv), restart: spec.restart ?? 'no',
      timeoutMs: spec.timeoutMs ?? null, idleTimeoutMs: spec.idleTimeoutMs ?? null, labels: sorted(spec.labels),
      // In the hash only when set, so that the sessions of stacks without groups keep their hash.
      ...(spec.group ? { group: spec.group.name } : {}),
    };
    const hash = createHash('sha256').update(JSON.stringify(definition)).digest('hex').slice(0, 12);
    const request: CreateSessionRequest = {
      ...(spec.argv ? { argv: spec.argv } : { command: spec.command }),
      name: sessionName(name, spec.key),
      cwd,
      ...(target.remote ? { env: fileEnv, hostEnv: true } : { env: { ...target.env, ...fileEnv }, umask: target.umask }),
      timeoutMs: spec.timeoutMs,
      idleTimeoutMs: spec.idleTimeoutMs,
      restart: spec.restart,
      group: spec.group?.name,
      labels: { ...spec.labels, [STACK_LABEL]: name, [SERVICE_LABEL]: spec.key, [HASH_LABEL]: hash, [LEVEL_LABEL]: String(depth.get(spec.key) ?? 0) },
    };
    return { spec, name: sessionName(name, spec.key), hash, request };
  });
}

function sorted(o: Record<string, string>): [string, string][] {
  return Object.keys(o).sort().map((k) => [k, o[k]!]);
}

/** What `up` does with one session of the file: keep the running one, replace it, or start it. */
export type Step =
  | { kind: 'keep'; want: Desired; session: SessionView }
  | { kind: 'replace'; want: Desired; session: SessionView; why: string }
  | { kind: 'create'; want: Desired };

export interface Reconcile {
  steps: Step[];
  /** Sessions of the stack that the file no longer has: stopped and removed. */
  orphans: SessionView[];
}

/**
 * The reconcile rules of ADR 0036: a session whose definition hash is unchanged stays when it is
 * live or completed; one that changed, or that ended failed, stopped or expired, is replaced; one
 * the file no longer names is stopped and removed (only by an `up` of the whole file).
 */
export function reconcile(want: readonly Desired[], existing: readonly SessionView[], fileKeys: readonly string[], whole: boolean): Reconcile {
  const ofService = (key: string) => existing.filter((s) => s.labels[SERVICE_LABEL] === key);
  const steps: Step[] = want.map((w) => {
    const [session] = ofService(w.spec.key);
    if (!session) return { kind: 'create', want: w };
    if (session.labels[HASH_LABEL] !== w.hash) return { kind: 'replace', want: w, session, why: 'changed' };
    if (isTerminal(session.status) && session.status !== 'completed') return { kind: 'replace', want: w, session, why: session.status };
    return { kind: 'keep', want: w, session };
  });
  const stepIds = new Set(steps.flatMap((s) => (s.kind === 'create' ? [] : [s.session.id])));
  const orphans = existing.filter((s) => {
    if (stepIds.has(s.id)) return false;
    const key = s.labels[SERVICE_LABEL];
    // A second session of one service (left by an interrupted up) goes too.
    return whole ? true : key !== undefined && want.some((w) => w.spec.key === key) && fileKeys.includes(key);
  });
  return { steps, orphans };
}
