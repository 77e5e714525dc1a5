/**
 * `top` groups rows by stack (src/guides/sessions.md "Dashboard", src/guides/stacks.md; issue 23): the sessions of a stack (label
 * `stack=NAME`, ADR 0035) are shown together under a heading line, at the place of the stack's
 * first session in the usual order (what needs a person, live, finished; newest first), in their
 * dependency order within it (label `stack.level`, then oldest first). Other sessions are as they
 * were. Pure, unit-tested with the model.
 */
import { isTerminal } from '../../core/status.js';
import type { SessionView } from '../../protocol/sessions.js';

const stackOf = (s: SessionView): string | null => s.labels?.stack ?? null;
const level = (s: SessionView) => Number(s.labels?.['stack.level'] ?? 0) || 0;

/** `sorted` (the usual order) with the sessions of each stack moved together, where its first one was. */
export function groupByStack(sorted: readonly SessionView[]): SessionView[] {
  const members = new Map<string, SessionView[]>();
  for (const s of sorted) {
    const name = stackOf(s);
    if (name !== null) members.set(name, [...(members.get(name) ?? []), s]);
  }
  if (members.size === 0) return [...sorted];
  const out: SessionView[] = [];
  const placed = new Set<string>();
  for (const s of sorted) {
    const name = stackOf(s);
    if (name === null) {
      out.push(s);
    } else if (!placed.has(name)) {
      placed.add(name);
      out.push(...[...members.get(name)!].sort((a, b) => level(a) - level(b) || (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0)));
    }
  }
  return out;
}

/** A line of the table: a stack's heading, or a session's row. */
export type TableItem = { kind: 'stack'; name: string; text: string } | { kind: 'row'; session: SessionView };

/** The table's lines: each run of one stack's sessions preceded by its heading. */
export function tableItems(rows: readonly SessionView[]): TableItem[] {
  const items: TableItem[] = [];
  let previous: string | null = null;
  for (let i = 0; i < rows.length; i++) {
    const name = stackOf(rows[i]!);
    if (name !== null && name !== previous) {
      let j = i;
      while (j < rows.length && stackOf(rows[j]!) === name) j++;
      items.push({ kind: 'stack', name, text: stackHeading(name, rows.slice(i, j)) });
    }
    previous = name;
    items.push({ kind: 'row', session: rows[i]! });
  }
  return items;
}

/** `stack demo · 5 sessions: 3 working, 1 idle, 1 completed` (finished ones by their status). */
export function stackHeading(name: string, sessions: readonly SessionView[]): string {
  const counts = new Map<string, number>();
  const order = ['working', 'idle', 'paused', 'pending', 'completed', 'failed', 'stopped', 'expired'];
  for (const s of sessions) counts.set(s.status, (counts.get(s.status) ?? 0) + 1);
  const parts = order.filter((k) => counts.get(k)).map((k) => `${counts.get(k)} ${k}`);
  const live = sessions.filter((s) => !isTerminal(s.status)).length;
  return `stack ${name} · ${sessions.length} session${sessions.length === 1 ? '' : 's'} (${live} live): ${parts.join(', ')}`;
}
