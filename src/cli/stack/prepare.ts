import { basename } from 'node:path';
import type { Client } from '../../client/client.js';
import { AmuxError } from '../../errors.js';
import { select } from './graph.js';
import { findStackFile, loadStack, stackName } from './load.js';
import { desired, reconcile, type Desired, type Reconcile } from './plan.js';
import type { ProbeHere } from './ready.js';
import { STACK_LABEL, type ServiceSpec, type StackFile } from './spec.js';

export interface StackRequest {
  /** Where the file is looked for, and relative paths start. */
  cwd: string;
  file?: string;
  project?: string;
  services: readonly string[];
  /** The caller's environment and umask (a local stack's sessions get them). */
  env: Record<string, string>;
  umask: number;
}

export interface Prepared {
  stack: StackFile;
  name: string;
  plan: Reconcile;
  /** Where an exec probe of a session runs (ADR 0035). */
  here: (d: Desired) => ProbeHere;
  /** The keys of the sessions being brought up, in the file's order. */
  keys: string[];
}

/**
 * Everything `up` decides before it starts anything (ADR 0035, 0036): the file found and checked,
 * the stack named, the selection, the requests, and the reconcile against the stack's sessions.
 * Shared by `amux up` and the MCP tool `up`.
 */
export async function prepareStack(client: Client, req: StackRequest): Promise<Prepared> {
  const path = findStackFile(req.cwd, req.file);
  const stack = loadStack(path, req.file ?? basename(path));
  const name = stackName(stack.dir, req.project);
  const chosen = select(stack, req.services);
  await checkGroups(client, stack, chosen);
  const remote = client.remote !== undefined;
  const want = desired(stack, name, chosen, { remote, env: req.env, umask: req.umask });
  const existing = await client.sessions.list({ label: [`${STACK_LABEL}=${name}`] });
  const plan = reconcile(want, existing, stack.services.map((s) => s.key), req.services.length === 0);
  const here = (d: Desired): ProbeHere => (remote ? { cwd: stack.dir, env: { ...req.env, ...d.request.env } } : { cwd: d.request.cwd!, env: d.request.env! });
  return { stack, name, plan, here, keys: chosen.map((s) => s.key) };
}

/**
 * `group: NAME` names a group that must exist, as `run -g NAME` does (ADR 0033: groups are not
 * created by a typo). Checked with the file, so an unknown group starts nothing (exit 2, ADR 0035).
 */
async function checkGroups(client: Client, stack: StackFile, chosen: readonly ServiceSpec[]): Promise<void> {
  const wanted = chosen.filter((s) => s.group);
  if (!wanted.length) return;
  const have = new Set((await client.groups()).map((g) => g.name));
  for (const s of wanted) {
    const g = s.group!;
    if (!have.has(g.name)) {
      throw new AmuxError('usage', `${stack.file}:${g.line}: sessions.${s.key}.group: no such group '${g.name}'; create it first: amux group add ${g.name} --parallel N`);
    }
  }
}
