import { AmuxError } from '../../errors.js';
import type { ServiceSpec, StackFile } from './spec.js';
import { fileError } from './tree.js';

/**
 * The dependency graph of a stack (ADR 0036): every depends_on names a session of the file, and
 * there is no cycle. Checked before anything starts.
 */
export function checkGraph(stack: StackFile): void {
  const byKey = new Map(stack.services.map((s) => [s.key, s]));
  for (const s of stack.services) {
    for (const dep of Object.keys(s.dependsOn)) {
      if (!byKey.has(dep)) throw fileError(stack.file, s.line, `sessions.${s.key}.depends_on`, `unknown session '${dep}'`);
    }
  }
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const visit = (key: string): void => {
    if (state.get(key) === 'done') return;
    if (state.get(key) === 'visiting') {
      const cycle = [...path.slice(path.indexOf(key)), key];
      throw fileError(stack.file, byKey.get(key)!.line, `sessions.${key}.depends_on`, `dependency cycle: ${cycle.join(' -> ')}`);
    }
    state.set(key, 'visiting');
    path.push(key);
    for (const dep of Object.keys(byKey.get(key)!.dependsOn)) visit(dep);
    path.pop();
    state.set(key, 'done');
  };
  for (const s of stack.services) visit(s.key);
}

/** How deep a session sits: 0 without dependencies, else one more than its deepest dependency. `down` stops the deepest first. */
export function levels(services: readonly ServiceSpec[]): Map<string, number> {
  const byKey = new Map(services.map((s) => [s.key, s]));
  const out = new Map<string, number>();
  const level = (key: string): number => {
    const known = out.get(key);
    if (known !== undefined) return known;
    const deps = Object.keys(byKey.get(key)?.dependsOn ?? {});
    const l = deps.length === 0 ? 0 : 1 + Math.max(...deps.map(level));
    out.set(key, l);
    return l;
  };
  for (const s of services) level(s.key);
  return out;
}

/** The sessions `up SERVICE…` brings up: those named and, transitively, what they depend on; all when none is named. */
export function select(stack: StackFile, names: readonly string[]): ServiceSpec[] {
  if (names.length === 0) return stack.services;
  const byKey = new Map(stack.services.map((s) => [s.key, s]));
  const chosen = new Set<string>();
  const add = (key: string) => {
    if (chosen.has(key)) return;
    chosen.add(key);
    for (const dep of Object.keys(byKey.get(key)!.dependsOn)) add(dep);
  };
  for (const n of names) {
    if (!byKey.has(n)) throw new AmuxError('usage', `no session '${n}' in ${stack.file} (it has: ${[...byKey.keys()].join(', ')})`);
    add(n);
  }
  return stack.services.filter((s) => chosen.has(s.key));
}
