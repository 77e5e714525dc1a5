import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { ResolvedCommand } from '../../core/command.js';
import type { SessionRecord } from '../../core/records.js';
import { AmuxError, toAmuxError } from '../../errors.js';
import { sessionPaths } from '../../paths.js';
import { buildEnvFile, buildRcfile } from '../../shell/rcfile.js';
import { chunkFilter } from '../../tmux/commands.js';
import type { DaemonContext } from '../context.js';
import { chunkBytesFor, JOB_STREAM_CHUNK, JOB_STREAM_KEEP } from '../output/log-files.js';
import type { Queue } from './queue.js';
import { NO_ATTENTION } from '../../core/attention.js';

/** A checked create request (api/validate.ts). */
export interface SessionSpec {
  command: ResolvedCommand | null;
  name: string | null;
  cwd: string;
  env: Record<string, string>;
  umask: number;
  autoRemove: boolean;
  timeoutMs: number | null;
  idleTimeoutMs: number | null;
}

/**
 * Creates a session (README "Commands": run): its files and its `pending` row, then asks the
 * queue to start it. Resolves once it runs, or at once with the `pending` record when maxLive
 * holds it back.
 */
export async function createSession(ctx: DaemonContext, queue: Queue, spec: SessionSpec): Promise<SessionRecord> {
  const { command, name, cwd, env, umask, timeoutMs, idleTimeoutMs, autoRemove } = spec;
  if (name && ctx.store.nameInUse(name)) {
    throw new AmuxError('name_in_use', `name '${name}' is already used by another session; pick another or 'amux rm' the old one`);
  }
  const id = newId(ctx);
  const now = Date.now();
  const sp = sessionPaths(ctx.paths, id);
  const record: SessionRecord = {
    id, name, status: 'pending', command: command?.display ?? null, cwd,
    exitCode: null, signal: null, error: null, reason: null, createdAt: now, startedAt: null, endedAt: null,
    lastActivityAt: null, pid: null, paneId: null, nonce: randomBytes(4).toString('hex'),
    autoRemove, removedAt: null, lastOutput: null, logBytes: 0, logTruncated: false,
    logChunkBytes: chunkBytesFor(ctx.settings.logCapBytes), logCapBytes: ctx.settings.logCapBytes, hasCommand: command !== null,
    timeoutMs, idleTimeoutMs, closedAt: null, ...NO_ATTENTION,
  };
  try {
    mkdirSync(sp.jobsDir, { recursive: true, mode: 0o700 });
    mkdirSync(sp.logDir, { recursive: true, mode: 0o700 });
    // AMUX_SESSION_ID: a program can tell which session it runs in (`amux mcp` will not kill its own; README "Agents").
    writeFileSync(sp.envFile, buildEnvFile({ ...env, AMUX_SESSION_ID: id }), { mode: 0o600 });
    if (command) writeFileSync(sp.jobScript(1), `${command.script}\n`, { mode: 0o600 });
    writeFileSync(sp.rcfile, buildRcfile({
      sessionId: id, nonce: record.nonce, envFile: sp.envFile, cwd, umask, jobsDir: sp.jobsDir,
      exitsDir: ctx.paths.exitsDir, firstJob: command ? 1 : null,
      streamChunkBytes: JOB_STREAM_CHUNK, streamFilter: chunkFilter(JOB_STREAM_KEEP, true),
    }), { mode: 0o600 });
    ctx.store.tx(() => {
      ctx.store.insertSession(record);
      ctx.store.addEvent({
        sessionId: id, jobId: null, type: 'session_created',
        data: { name, command: record.command, cwd, timeoutMs, idleTimeoutMs, autoRemove },
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

function newId(ctx: DaemonContext): string {
  for (;;) {
    const id = randomBytes(4).toString('hex');
    if (!ctx.store.idExists(id)) return id;
  }
}
