import { setTimeout as sleep } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionRecord } from '../../core/records.js';
import { AmuxError, toAmuxError } from '../../errors.js';
import { sessionPaths } from '../../paths.js';
import { childrenOf, isAlive } from '../../process/process-table.js';
import { listPanesArgs, newSessionArgs, parsePanes, tmuxSessionName, type PaneInfo } from '../../tmux/commands.js';
import type { DaemonContext } from '../context.js';
import { startMainJob } from '../job/main-job.js';
import { readExitStatus } from '../output/exit-files.js';
import { chunkBytesFor, LOG_PREFIX, sessionLogKeep } from '../output/log-files.js';
import { withSessionLock } from './lock.js';
import { applyDecision, applyMainExit } from './transitions.js';
import { logLine } from '../log.js';
import { NO_ATTENTION } from '../../core/attention.js';

/**
 * Starts a `pending` session (the queue calls it): the tmux session, job 1, `pending → working`.
 * Under the session lock, so a kill or rm arriving meanwhile waits for the tmux session to exist;
 * a session killed or removed while it waited is left as it is.
 */
export function startPending(ctx: DaemonContext, id: string): Promise<SessionRecord> {
  return withSessionLock(id, async () => {
    const record = ctx.store.getSession(id);
    if (!record || record.status !== 'pending' || record.removedAt) return record!;
    return startSession(ctx, record);
  });
}

async function startSession(ctx: DaemonContext, record: SessionRecord): Promise<SessionRecord> {
  const { id } = record;
  const sp = sessionPaths(ctx.paths, id);
  try {
    const out = await ctx.tmux.run(newSessionArgs({
      id, ...ctx.programs, rcfile: sp.rcfile, logPrefix: join(sp.logDir, LOG_PREFIX), chunkBytes: record.logChunkBytes,
      keepChunks: sessionLogKeep(record),
    }));
    const [paneId, panePid] = out.trim().split('\t');
    return begin(ctx, record, paneId ?? null, await shellOf(Number(panePid) || null));
  } catch (err) {
    const e = toAmuxError(err);
    const message = `could not start tmux session: ${e.message}`;
    ctx.store.addEvent({ sessionId: id, jobId: null, type: 'error', data: { message }, createdAt: Date.now() });
    applyDecision(ctx, record, { status: 'stopped', reason: 'start failed', error: message });
    throw e.code === 'internal' ? new AmuxError('operation_failed', `could not start session ${id}: ${e.message}`, { cause: err }) : e;
  }
}

/**
 * At daemon start: pending sessions wait in the queue across a restart. One whose tmux session
 * exists was being started when the last daemon died: it runs, so it is adopted rather than
 * started twice.
 */
export async function adoptPending(ctx: DaemonContext): Promise<void> {
  const panes = new Map(parsePanes(await ctx.tmux.runIfServer(listPanesArgs())).map((p) => [p.sessionName, p]));
  for (const s of ctx.store.listSessions({ statuses: ['pending'] })) {
    const pane = panes.get(tmuxSessionName(s.id));
    if (pane) begin(ctx, s, pane.paneId, await shellOf(pane.panePid));
  }
  await adoptOrphans(ctx, panes);
}

/**
 * Sessions on amux's tmux server that the database does not know (it was deleted or replaced
 * under a running daemon) are adopted rather than left running unseen: a row with what tmux and
 * /proc still tell (the id, the shell, its working directory; the command is unknown, so it is
 * a shell session), an `error` event that says so, then the usual status rules. One whose main
 * command had ended (its exit file is there), or whose shell had exited (a dead pane), is recorded
 * ended, never live again.
 */
async function adoptOrphans(ctx: DaemonContext, panes: Map<string, PaneInfo>): Promise<void> {
  for (const [name, pane] of panes) {
    const id = /^amux-([0-9a-f]{8})$/.exec(name)?.[1];
    if (!id || ctx.store.idExists(id)) continue;
    // A dead pane (its shell had exited) is adopted too: the status rules record its end at the
    // first refresh, and finishedTtl or `rm` closes it, instead of a tmux session left for ever.
    const shell = pane.dead ? null : await shellOf(pane.panePid);
    const now = Date.now();
    // Its main command wrote its exit: it ended, and ends again at once below, never live (its shell
    // still sat in the tmux session, kept for finishedTtl).
    const ended = readExitStatus(ctx, id, 1) !== null;
    const record: SessionRecord = {
      id, name: null, status: 'pending', command: ended ? '(unknown command)' : null, cwd: cwdOf(shell) ?? '/', exitCode: null, signal: null, error: null, reason: null,
      createdAt: now, startedAt: null, endedAt: null, lastActivityAt: null, pid: null, paneId: null, nonce: randomBytes(4).toString('hex'),
      autoRemove: false, removedAt: null, lastOutput: null, logBytes: 0, logTruncated: false,
      logChunkBytes: chunkBytesFor(ctx.settings.logCapBytes), logCapBytes: ctx.settings.logCapBytes, hasCommand: ended,
      timeoutMs: null, idleTimeoutMs: null, closedAt: null, ...NO_ATTENTION,
      labels: {}, restartOf: null, restarts: 0, previousEnd: null, restartPolicy: null, startAfter: null, group: null, after: [], onEnd: null,
    };
    const message = 'adopted: its tmux session was running but the database did not know it (amux.db deleted or replaced?); its command and history are unknown';
    ctx.store.tx(() => {
      ctx.store.insertSession(record);
      ctx.store.addEvent({ sessionId: id, jobId: null, type: 'session_created', data: { adopted: true }, createdAt: now });
      ctx.store.addEvent({ sessionId: id, jobId: null, type: 'error', data: { message }, createdAt: now });
    });
    logLine(`${id}: ${message}`);
    begin(ctx, record, pane.paneId, shell);
  }
}

function cwdOf(pid: number | null): string | null {
  try {
    return pid ? readlinkSync(`/proc/${pid}/cwd`) : null;
  } catch {
    return null;
  }
}

/** The session's bash: the child of the pane's process (`timeout`, ADR 0010), forked a moment after tmux answered. */
async function shellOf(panePid: number | null): Promise<number | null> {
  if (!panePid) return null;
  for (let i = 0; i < 1000; i++) {
    const [child] = childrenOf(panePid);
    if (child) return child;
    if (!isAlive(panePid)) return null;
    await sleep(1);
  }
  return null;
}

/** Records that a session's tmux session exists (started now, or adopted after a daemon restart). */
function begin(ctx: DaemonContext, record: SessionRecord, paneId: string | null, pid: number | null): SessionRecord {
  // pid: the session's bash (not the pane's process).
  const started = Date.now();
  const patch = { paneId, pid, startedAt: started, lastActivityAt: started };
  // One transaction: a daemon killed here leaves the session pending (adopted later) or wholly started.
  const working = ctx.store.tx(() => {
    ctx.store.updateSession(record.id, patch);
    const next = applyDecision(ctx, { ...record, ...patch }, { status: 'working', reason: 'started' }, started);
    startMainJob(ctx, record, started);
    return next;
  });
  // A very short command can finish before the row left `pending`, when the exit watcher ignored it.
  return applyMainExit(ctx, working);
}
