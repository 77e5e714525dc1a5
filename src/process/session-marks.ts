import { readdirSync, readFileSync } from 'node:fs';
import { descendantsOf, isAlive, sessionOf } from './process-table.js';

/** The variable every process of an amux session inherits (README "How it works": ends). */
export const SESSION_MARK = 'AMUX_SESSION_ID';

/**
 * The processes marked as an amux session's, by session id, from one pass over /proc: those whose
 * environment holds AMUX_SESSION_ID and, when it holds TMUX, names this home's tmux socket (a
 * session of another AMUX_HOME with the same id is not ours). It finds them wherever they went:
 * reparented to init, in a Unix session of their own (`setsid`), after the tmux server died.
 */
export function markedProcesses(tmuxSocket: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const name of readdirSync('/proc')) {
    const c = name.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    let env: string;
    try {
      env = readFileSync(`/proc/${name}/environ`, 'latin1');
    } catch {
      continue; // gone, or not ours to read
    }
    const id = markOf(env, tmuxSocket);
    if (id === null) continue;
    const list = out.get(id) ?? [];
    list.push(Number(name));
    out.set(id, list);
  }
  return out;
}

/** The session id a process's environment (NUL-separated `NAME=value`) marks it with, for this tmux socket; null: none. */
export function markOf(environ: string, tmuxSocket: string): string | null {
  let id: string | null = null;
  let tmux: string | null = null;
  for (const entry of environ.split('\0')) {
    if (entry.startsWith(`${SESSION_MARK}=`)) id = entry.slice(SESSION_MARK.length + 1);
    else if (entry.startsWith('TMUX=')) tmux = entry.slice(5);
  }
  if (!id || (tmux !== null && tmux !== '' && !tmux.startsWith(`${tmuxSocket},`))) return null;
  return id;
}

/**
 * Every process of one session, given its marked processes (and its shell, while it runs): them,
 * their descendants, and the other members of the Unix sessions they are in (a program that
 * cleared its environment still shares the session's) where that Unix session is the pane's
 * (`paneSid`), led by a marked process (`setsid` in the session), or left without its leader (the
 * pane's, once its process is gone). A Unix session led by anything else (a terminal where someone
 * exported the mark by hand) is not the session's. `spare`: never counted (the daemon).
 */
export function sessionTree(
  roots: readonly number[], paneSid: number | null, spare: readonly number[], members: (sid: number) => number[],
): number[] {
  const found = new Set<number>(roots);
  const sids = new Set<number>();
  for (const pid of roots) {
    const sid = sessionOf(pid);
    if (sid && sid > 1 && (sid === paneSid || roots.includes(sid) || !isAlive(sid))) sids.add(sid);
  }
  for (const sid of sids) for (const pid of members(sid)) found.add(pid);
  for (const pid of [...found]) for (const d of descendantsOf(pid)) found.add(d);
  return [...found].filter((p) => p > 1 && !spare.includes(p) && isAlive(p));
}
