import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveCommand } from '../core/command.js';
import { jobId, validateName } from '../core/ids.js';
import type { SessionRecord } from '../core/records.js';
import type { CreateSessionRequest } from '../core/types.js';
import { AmuxError, toAmuxError } from '../errors.js';
import { sessionPaths } from '../paths.js';
import { buildEnvFile, buildRcfile } from '../shell/rcfile.js';
import { chunkFilter, newSessionArgs } from '../tmux/commands.js';
import type { DaemonContext } from './context.js';
import { chunkBytesFor, chunksToKeep, JOB_STREAM_CHUNK, JOB_STREAM_KEEP, LOG_PREFIX } from './log-files.js';
import { applyDecision, applyMainExit } from './transitions.js';
import { withSessionLock } from './session-lock.js';
import { durationField } from '../core/duration.js';
import type { Queue } from './queue.js';
import { childrenOf, isAlive } from '../process/process-table.js';
import { setTimeout as sleep } from 'node:timers/promises';

/** Checks a create request before anything is written; every problem is one clear line. */
export function validateCreate(ctx: DaemonContext, req: CreateSessionRequest) {
  if (!req || typeof req !== 'object') throw new AmuxError('invalid_argument', 'request body must be a JSON object');
  const command = resolveCommand(req);
  const name = req.name == null ? null : validateName(String(req.name));
  if (name && ctx.store.nameInUse(name)) {
    throw new AmuxError('name_in_use', `name '${name}' is already used by another session; pick another or 'amux rm' the old one`);
  }
  if (typeof req.cwd !== 'string' || !req.cwd.startsWith('/')) throw new AmuxError('invalid_argument', 'cwd must be an absolute path');
  let isDir = false;
  try {
    isDir = statSync(req.cwd).isDirectory();
  } catch {
    /* reported below */
  }
  if (!isDir) throw new AmuxError('invalid_argument', `working directory ${req.cwd} does not exist or is not a directory`);
  const env = req.env ?? {};
  if (typeof env !== 'object' || Array.isArray(env) || Object.values(env).some((v) => typeof v !== 'string' || v.includes('\0'))) {
    throw new AmuxError('invalid_argument', 'env must be an object of string values without NUL bytes');
  }
  const umask = req.umask ?? 0o022;
  if (!Number.isInteger(umask) || umask < 0 || umask > 0o777) throw new AmuxError('invalid_argument', 'umask must be an integer from 0 to 0o777');
  return { command, name, env, umask, timeoutMs: limit(req.timeoutMs, 'timeout'), idleTimeoutMs: limit(req.idleTimeoutMs, 'idle timeout') };
}

/** A session time limit: null when absent, else longer than 0. */
function limit(v: unknown, what: string): number | null {
  const ms = durationField(v, what, -1);
  if (ms === -1) return null;
  if (ms <= 0) throw new AmuxError('invalid_argument', `the ${what} must be longer than 0`);
  return ms;
}

function newId(ctx: DaemonContext): string {
  for (;;) {
    const id = randomBytes(4).toString('hex');
    if (!ctx.store.idExists(id)) return id;
  }
}

/**
 * Creates a session (SPEC §4 `run`): its files and its `pending` row, then asks the queue to
 * start it. Resolves once it runs, or at once with the `pending` record when maxLive holds it back.
 */
export async function createSession(ctx: DaemonContext, queue: Queue, req: CreateSessionRequest): Promise<SessionRecord> {
  const { command, name, env, umask, timeoutMs, idleTimeoutMs } = validateCreate(ctx, req);
  const id = newId(ctx);
  const now = Date.now();
  const sp = sessionPaths(ctx.paths, id);
  const chunkBytes = chunkBytesFor(ctx.settings.logCapBytes);
  const record: SessionRecord = {
    id, name, status: 'pending', command: command?.display ?? null, cwd: req.cwd,
    exitCode: null, signal: null, error: null, createdAt: now, startedAt: null, endedAt: null,
    lastActivityAt: null, pid: null, paneId: null, nonce: randomBytes(4).toString('hex'),
    autoRemove: req.autoRemove === true, removedAt: null, lastOutput: null, logBytes: 0, logTruncated: false,
    logChunkBytes: chunkBytes, logCapBytes: ctx.settings.logCapBytes, hasCommand: command !== null,
    timeoutMs, idleTimeoutMs, closedAt: null,
  };
  try {
    mkdirSync(sp.jobsDir, { recursive: true, mode: 0o700 });
    mkdirSync(sp.logDir, { recursive: true, mode: 0o700 });
    writeFileSync(sp.envFile, buildEnvFile(env), { mode: 0o600 });
    if (command) writeFileSync(sp.jobScript(1), `${command.script}\n`, { mode: 0o600 });
    writeFileSync(sp.rcfile, buildRcfile({
      sessionId: id, nonce: record.nonce, envFile: sp.envFile, cwd: req.cwd, umask, jobsDir: sp.jobsDir,
      exitsDir: ctx.paths.exitsDir, firstJob: command ? 1 : null,
      streamChunkBytes: JOB_STREAM_CHUNK, streamFilter: chunkFilter(JOB_STREAM_KEEP, true),
    }), { mode: 0o600 });
    ctx.store.tx(() => {
      ctx.store.insertSession(record);
      ctx.store.addEvent({
        sessionId: id, jobId: null, type: 'session_created',
        data: { name, command: record.command, cwd: req.cwd, timeoutMs, idleTimeoutMs, autoRemove: record.autoRemove },
        createdAt: now,
      });
    });
  } catch (err) {
    rmSync(sp.dir, { recursive: true, force: true });
    throw toAmuxError(err);
  }
  queue.pump();
  return (await queue.started(id)) ?? ctx.store.getSession(id) ?? record;
}

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
      keepChunks: chunksToKeep(record.logCapBytes, record.logChunkBytes),
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

/** The session's bash: the child of the pane's process (`paneCommand`), forked a moment after tmux answered. */
export async function shellOf(panePid: number | null): Promise<number | null> {
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
export function begin(ctx: DaemonContext, record: SessionRecord, paneId: string | null, pid: number | null): SessionRecord {
  // pid: the session's bash (not the pane's process).
  const { id } = record;
  const started = Date.now();
  const patch = { paneId, pid, startedAt: started, lastActivityAt: started };
  // One transaction: a daemon killed here leaves the session pending (adopted later) or wholly started.
  const working = ctx.store.tx(() => {
    ctx.store.updateSession(id, patch);
    const next = applyDecision(ctx, { ...record, ...patch }, { status: 'working', reason: 'started' }, started);
    if (!record.hasCommand) return next;
    ctx.store.insertJob({
      id: jobId(id, 1), sessionId: id, seq: 1, command: record.command!, background: false, status: 'running',
      exitCode: null, signal: null, pid: null, startedAt: started, endedAt: null, tty: true, timeoutMs: null,
      error: null, stdoutBytes: null, stderrBytes: null, stdoutTruncated: false, stderrTruncated: false,
    });
    ctx.store.addEvent({ sessionId: id, jobId: jobId(id, 1), type: 'job_started', data: { seq: 1, command: record.command, background: false, tty: true }, createdAt: started });
    return next;
  });
  // A very short command can finish before the row left `pending`, when the exit watcher ignored it.
  return applyMainExit(ctx, working);
}
