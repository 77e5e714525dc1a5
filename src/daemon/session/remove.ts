import { lstatSync, readdirSync, rmdirSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { renderPlain } from '../../core/log-render.js';
import { stripMarkers } from '../../core/markers.js';
import type { SessionRecord } from '../../core/records.js';
import { isTerminal } from '../../core/status.js';
import { AmuxError } from '../../errors.js';
import { sessionPaths } from '../../paths.js';
import type { DaemonContext } from '../context.js';
import { logExtent, readLog } from '../output/log-files.js';
import { forgetLogEnd } from '../output/log-size.js';
import { openSession } from './guards.js';
import { closeTmuxSession, killSession } from './kill.js';
import { withSessionLock } from './lock.js';
import { reapSessions } from './reap.js';

/** The last 2 KiB of a session's output as plain text, kept in its history row on removal. */
function lastOutput(ctx: DaemonContext, s: SessionRecord): string {
  const dir = sessionPaths(ctx.paths, s.id).logDir;
  const { end } = logExtent(dir, s.logChunkBytes);
  const { data } = readLog(dir, s.logChunkBytes, Math.max(0, end - 2048), 2048);
  return renderPlain(stripMarkers(data, s.nonce).toString('utf8'));
}

/**
 * Removes a session's directory: one listing per directory, then each entry once. Half the system
 * calls of `rmSync(…, { recursive: true })`, which first tries `rmdir` on every directory and
 * stats every entry (0.45 against 0.9 ms of CPU per session, ADR 0070). Anything unexpected (an
 * entry gone or added meanwhile, a permission, no directory at all) is left to `rmSync`.
 */
export function removeDir(dir: string): void {
  try {
    // A link where the folder should be is removed, never followed (`readdirSync` would list its
    // target); below, the entries' own types say what each is.
    if (!lstatSync(dir).isDirectory()) throw new Error('not a folder');
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) removeDir(path);
      else unlinkSync(path);
    }
    rmdirSync(dir);
  } catch {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Deletes the files of sessions: their directory (log, jobs, rcfile) and their exit-status files.
 * `keepDir`: the directory stays (a restarted run's log, src/guides/sessions.md "Restart, labels, groups").
 */
export function removeSessionFiles(ctx: DaemonContext, ids: readonly string[], keepDir = false): void {
  const set = new Set(ids);
  for (const id of ids) {
    if (!keepDir) removeDir(sessionPaths(ctx.paths, id).dir);
    // A restart under way (restart.ts removes the ended run, then makes the next) stays cancellable
    // by `kill NAME` until its next session exists (kill.ts).
    const due = ctx.runtime.get(id)?.restartDue;
    forgetLogEnd(ctx, id);
    ctx.runtime.delete(id);
    if (due) ctx.runtime.set(id, { restartDue: due });
  }
  for (const f of readdirSync(ctx.paths.exitsDir)) {
    if (set.has(f.slice(0, f.indexOf('.')))) rmSync(join(ctx.paths.exitsDir, f), { force: true });
  }
}

/** `amux prune`: removes the finished sessions that ended at least `olderThanMs` ago. */
export async function pruneSessions(ctx: DaemonContext, olderThanMs: number, statuses: readonly string[] = []): Promise<SessionRecord[]> {
  const removed: SessionRecord[] = [];
  for (const s of ctx.store.finishedBefore(Date.now() - olderThanMs, { includeRemoved: false })) {
    if (statuses.length && !statuses.includes(s.status)) continue; // `prune --status failed`
    try {
      removed.push(await removeSession(ctx, s.id, false, 0));
    } catch (err) {
      if (!(err instanceof AmuxError && (err.code === 'session_not_found' || err.code === 'session_removed'))) throw err; // removed meanwhile (--rm)
    }
  }
  return removed;
}

/** How many earlier runs of a name keep their log for `logs NAME` (src/guides/sessions.md "Restart, labels, groups"). */
export const RUN_LOGS_KEPT = 10;

/**
 * The logs of a restart chain's earlier runs: a restart keeps the replaced run's log, and the one
 * that falls out of the last RUN_LOGS_KEPT goes; removing the chain's newest run (`rm`, prune)
 * takes them all. A walk of at most RUN_LOGS_KEPT + 1 rows back, since older ones already went.
 */
function trimRunLogs(ctx: DaemonContext, newest: SessionRecord, keep: number): void {
  let cur: SessionRecord | null = newest;
  for (let depth = 0; cur?.restartOf && depth <= RUN_LOGS_KEPT; depth++) {
    cur = ctx.store.getSession(cur.restartOf);
    if (cur && depth >= keep) removeDir(sessionPaths(ctx.paths, cur.id).dir);
  }
}

/**
 * `amux rm` (src/guides/sessions.md): a finished session's tmux session and files go; its row and events stay.
 * `keepLog` (a restart): its log stays for `logs NAME`, with those of the runs before it (src/guides/sessions.md "Restart, labels, groups").
 */
export async function removeSession(ctx: DaemonContext, id: string, force: boolean, graceMs: number, opts: { keepLog?: boolean } = {}): Promise<SessionRecord> {
  const s = openSession(ctx, id);
  if (!isTerminal(s.status)) {
    // A pending session has not run anything: removing it loses nothing, as with `docker rm` of a created container.
    if (!force && s.status !== 'pending') throw new AmuxError('invalid_state', `session ${id} is ${s.status}; stop it first ('amux kill ${id}') or use 'amux rm -f ${id}'`);
    await killSession(ctx, id, 'SIGTERM', graceMs, { status: 'stopped', reason: s.status === 'pending' ? 'removed while pending' : undefined, onlyIfPending: !force });
  }
  return withSessionLock(id, async () => {
    const cur = ctx.store.getSession(id)!;
    if (cur.removedAt) return cur;
    await closeTmuxSession(ctx, id);
    const tail = lastOutput(ctx, cur);
    const now = Date.now();
    ctx.store.tx(() => {
      ctx.store.updateSession(id, { removedAt: now, lastOutput: tail });
      ctx.store.setSpec(id, null); // the environment it kept for `restart` goes with the files (ADR 0033)
      ctx.store.addEvent({ sessionId: id, jobId: null, type: 'session_removed', data: {}, createdAt: now });
    });
    removeSessionFiles(ctx, [id], opts.keepLog === true);
    trimRunLogs(ctx, cur, opts.keepLog ? RUN_LOGS_KEPT - 1 : 0);
    ctx.bus.emit('change', id);
    // Its shell went with the tmux session; whatever was started in it after its end goes too (ADR 0027).
    void reapSessions(ctx, [{ ...cur, removedAt: now }]).catch(() => undefined);
    return { ...cur, removedAt: now, lastOutput: tail };
  });
}
