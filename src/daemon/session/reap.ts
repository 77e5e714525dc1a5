import { readFileSync } from 'node:fs';
import type { SessionRecord } from '../../core/records.js';
import { isTerminal } from '../../core/status.js';
import { childCount, descendantsOf, isAlive, procStat, sessionOf, signalAll, STAT } from '../../process/process-table.js';
import { ProcessIndex } from '../../process/process-index.js';
import { sessionTree, type MarkScan } from '../../process/session-marks.js';
import { DEFAULT_GRACE_MS, terminate } from '../../process/terminate.js';
import { amuxPaths, resolveHome, sessionPaths } from '../../paths.js';
import { readProc } from '../../process/proc-read.js';
import type { DaemonContext } from '../context.js';

/** Sessions being reaped now: a second end of the same session waits for nothing. */
const reaping = new Set<string>();

/** Each daemon's index of the machine's processes (ADR 0045), kept from one reap to the next. */
const indexes = new WeakMap<DaemonContext, ProcessIndex>();

function indexOf(ctx: DaemonContext): ProcessIndex {
  let index = indexes.get(ctx);
  if (!index) indexes.set(ctx, (index = new ProcessIndex(ctx.paths.tmuxSocket)));
  return index;
}

/**
 * Ends whatever still runs of finished sessions (src/guides/internals.md: ends; ADR 0027): every
 * process marked with the session's id, the rest of their Unix sessions and their descendants,
 * found from /proc wherever they went (reparented to init after the tmux server died, `setsid`).
 * TERM and CONT (a stopped process acts on it only once continued), the grace, then SIGKILL.
 * Spared: the daemon and its Unix session, and the shell at its prompt (with the pane's process)
 * of a finished command session whose tmux session is still open, so that it stays attachable
 * until `rm` or `finishedTtl` closes it.
 */
export async function reapSessions(ctx: DaemonContext, sessions: readonly SessionRecord[], graceMs = DEFAULT_GRACE_MS): Promise<void> {
  const todo = sessions.filter((s) => isTerminal(s.status) && !reaping.has(s.id));
  if (todo.length === 0) return;
  for (const s of todo) reaping.add(s.id);
  try {
    // Only processes started since the oldest of these sessions began can carry their marks.
    const since = Math.min(...todo.map((s) => s.createdAt));
    const find = () => {
      const scan = indexOf(ctx).scan(since);
      return todo.flatMap((s) => processesOf(s, shellOf(ctx, s), scan));
    };
    let pids = find();
    if (pids.length === 0) return;
    await terminate({
      signal: (sig) => {
        signalAll(pids, sig);
        if (sig !== 'SIGKILL') signalAll(pids, 'SIGCONT');
      },
      ended: () => !pids.some(isAlive),
      afterGrace: () => {
        // What they forked meanwhile: the second pass reads only the processes forked since the first.
        pids = [...new Set([...pids.filter(isAlive), ...find()])];
      },
      mustKill: () => pids.length > 0,
    }, { signal: 'SIGTERM', graceMs });
  } finally {
    for (const s of todo) reaping.delete(s.id);
  }
}

/** The session's shell if it still runs: its recorded pid, if that process runs the session's rcfile (not a reused pid). */
function shellOf(ctx: DaemonContext, s: SessionRecord): number | null {
  if (!s.pid || !isAlive(s.pid)) return null;
  try {
    return readFileSync(`/proc/${s.pid}/cmdline`, 'utf8').split('\0').includes(sessionPaths(ctx.paths, s.id).rcfile) ? s.pid : null;
  } catch {
    return null;
  }
}

/** The processes of finished session `s` that `scan` shows. */
function processesOf(s: SessionRecord, shell: number | null, scan: MarkScan): number[] {
  const marked = scan.marked.get(s.id) ?? [];
  const paneSid = shell ? sessionOf(shell) : null;
  // The shell itself was started before its rcfile exported the mark: its Unix session finds it.
  const roots = [...marked, ...(shell ? [shell] : [])];
  const keep = shell && !s.closedAt && !s.removedAt && paneOpen(shell) ? [shell, ...(paneSid ? [paneSid] : [])] : [];
  // The common case, a finished command's shell alone at its prompt: no pass over /proc for it.
  if (keep.length && marked.length === 0 && childCount(shell!) === 0) return [];
  // Never the daemon, nor what shares its Unix session (a daemon run by hand inside the session's terminal).
  const own = sessionOf(process.pid);
  const tree = sessionTree(roots, paneSid === own ? null : paneSid, [process.pid], scan.members);
  // Nor another home's daemon started by hand inside the session, with what it runs (src/guides/internals.md: ends).
  const daemons = tree.filter(isAmuxDaemon);
  const spared = new Set([...daemons, ...daemons.flatMap(descendantsOf)]);
  return tree.filter((p) => !keep.includes(p) && !spared.has(p) && (own === null || sessionOf(p) !== own));
}

/** Whether `pid` is an amux daemon: the daemon.pid of the home its environment names says so. */
function isAmuxDaemon(pid: number): boolean {
  const environ = readProc(`/proc/${pid}/environ`);
  if (!environ) return false;
  const env: NodeJS.ProcessEnv = {};
  for (const entry of environ.split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  try {
    return readFileSync(amuxPaths(resolveHome(env)).pidFile, 'utf8').trim() === String(pid);
  } catch {
    return false;
  }
}

/**
 * Whether the shell's pane is still open: the shell still has its terminal (tmux hangs up a pane's
 * terminal as it closes the pane, and the kernel then takes it from the processes of its session:
 * `tty_nr` 0), and its parent (the pane's process) is a child of a tmux server (once the server is
 * gone the pane's process is reparented, or gone). No tmux call to ask: a `list-sessions` process
 * per end was a quarter of the daemon's forks under churn. The parent alone is not enough: a pane
 * closed while the server runs on keeps its process as the server's child until it exits, which a
 * stopped (paused) shell never does.
 */
function paneOpen(shell: number): boolean {
  const st = procStat(shell)?.fields;
  if (!st || st[STAT.tty] === '0') return false;
  const server = procStat(st[STAT.ppid]!)?.fields[STAT.ppid];
  return server !== undefined && procStat(server)?.comm === 'tmux: server';
}

/**
 * At daemon start: the finished sessions of this home that still have processes running (their
 * tmux server died while no daemon ran, or a daemon stopped before it could end them): those with
 * marked processes, and those not yet closed, whose shell may run unmarked (a paused one).
 */
export async function reapLeftovers(ctx: DaemonContext, graceMs = DEFAULT_GRACE_MS): Promise<void> {
  const ids = new Set([...indexOf(ctx).scan().marked.keys(), ...ctx.store.unclosedFinished(Date.now()).map((s) => s.id)]);
  const finished = [...ids].map((id) => ctx.store.getSession(id)).filter((s): s is SessionRecord => !!s && isTerminal(s.status));
  await reapSessions(ctx, finished, graceMs);
}
