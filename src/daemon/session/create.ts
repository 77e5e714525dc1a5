import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { ResolvedCommand } from '../../core/command.js';
import type { PreviousEnd, SessionRecord } from '../../core/records.js';
import { AmuxError, toAmuxError } from '../../errors.js';
import { sessionPaths } from '../../paths.js';
import { buildEnvFile, buildRcfile } from '../../shell/rcfile.js';
import { chunkFilter } from '../../tmux/commands.js';
import type { DaemonContext } from '../context.js';
import { chunkBytesFor, JOB_STREAM_CHUNK, JOB_STREAM_KEEP } from '../output/log-files.js';
import { resolveSession } from './refs.js';
import { applyDecision } from './transitions.js';
import type { Queue } from './queue.js';
import { START_BACKLOG } from '../../protocol/sessions.js';
import { NO_ATTENTION } from '../../core/attention.js';
import { setLongTimeout } from '../../core/long-timeout.js';

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
  labels: Record<string, string>;
  restartPolicy: string | null;
  /** `run -g NAME`: an existing group (src/guides/sessions.md "Restart, labels, groups"). */
  group: string | null;
  /** `run --after`: references of sessions that must complete first (resolved here to full ids). */
  after: string[];
  onEnd: string | null;
  /** Start no earlier than this long after creation (`run --delay`, a restart's backoff). */
  delayMs: number | null;
  /** The session this one restarts, and how many restarts came before it (ADR 0033). */
  restartOf?: string | null;
  restarts?: number;
  /** How the run it restarts ended. */
  previousEnd?: PreviousEnd | null;
  /** Restarts in a row and the last backoff, carried along a restart policy's chain. */
  streak?: number;
  backoffMs?: number | null;
  /** A dependency did not come up: recorded, never started (`dependencyFailed` of the request; ADR 0039). */
  dependencyFailed?: string;
}

/** What `restart` keeps of a session to start it again (the `spec` column; ADR 0033). */
export interface StoredSpec {
  command: ResolvedCommand | null;
  env: Record<string, string>;
  umask: number;
  delayMs: number | null;
  streak: number;
  backoffMs: number | null;
}

/** The least time a create needs between its commit and its answer (ADR 0055). */
const START_ROOM_MS = 250;

/**
 * Creates a session (src/guides/sessions.md: run): its files and its `pending` row, then asks the
 * queue to start it. Resolves once it runs, or at once with the `pending` record when maxLive
 * holds it back. `answerBy`: the client's deadline (ADR 0055); a start still under way then is
 * answered `pending`, `waits for tmux` (ADR 0040), so that a client never reports failed a create
 * that was carried out.
 */
export async function createSession(ctx: DaemonContext, queue: Queue, spec: SessionSpec, answerBy: number | null = null): Promise<SessionRecord> {
  const { command, name, cwd, env, umask, timeoutMs, idleTimeoutMs, autoRemove, labels, restartPolicy, delayMs } = spec;
  if (spec.group !== null && !ctx.store.getGroup(spec.group)) {
    throw new AmuxError('invalid_argument', `no such group '${spec.group}'; create it first: amux group add ${spec.group} --parallel N`);
  }
  const after = [...new Set(spec.after.map((ref) => resolveSession(ctx, ref, true).id))];
  if (name && ctx.store.nameInUse(name)) {
    throw new AmuxError('name_in_use', `name '${name}' is already used by another session; pick another or 'amux rm' the old one`);
  }
  const id = newId(ctx);
  const now = Date.now();
  const sp = sessionPaths(ctx.paths, id);
  const record: SessionRecord = {
    id, name, status: 'pending', command: command?.display ?? null, cwd,
    exitCode: null, signal: null, error: null, createdAt: now, startedAt: null, endedAt: null,
    lastActivityAt: null, pid: null, paneId: null, nonce: randomBytes(4).toString('hex'),
    autoRemove, removedAt: null, lastOutput: null, logBytes: 0, logTruncated: false,
    logChunkBytes: chunkBytesFor(ctx.settings.logCapBytes), logCapBytes: ctx.settings.logCapBytes, hasCommand: command !== null,
    timeoutMs, idleTimeoutMs, closedAt: null, ...NO_ATTENTION,
    labels, group: spec.group, after, onEnd: spec.onEnd, restartOf: spec.restartOf ?? null, restarts: spec.restarts ?? 0, previousEnd: spec.previousEnd ?? null, restartPolicy,
    startAfter: delayMs ? now + delayMs : null, reason: delayMs ? (spec.restartOf ? 'restart backoff' : 'delayed') : null,
  };
  const stored: StoredSpec = { command, env, umask, delayMs, streak: spec.streak ?? 0, backoffMs: spec.backoffMs ?? null };
  try {
    mkdirSync(sp.jobsDir, { recursive: true, mode: 0o700 });
    mkdirSync(sp.logDir, { recursive: true, mode: 0o700 });
    // AMUX_SESSION_ID: a program can tell which session it runs in (`amux mcp` will not kill its own; src/guides/agents.md).
    writeFileSync(sp.envFile, buildEnvFile({ ...env, AMUX_SESSION_ID: id }), { mode: 0o600 });
    if (command) writeFileSync(sp.jobScript(1), `${command.script}\n`, { mode: 0o600 });
    writeFileSync(sp.rcfile, buildRcfile({
      sessionId: id, nonce: record.nonce, envFile: sp.envFile, cwd, umask, jobsDir: sp.jobsDir,
      exitsDir: ctx.paths.exitsDir, firstJob: command ? 1 : null,
      streamChunkBytes: JOB_STREAM_CHUNK, streamFilter: chunkFilter(JOB_STREAM_KEEP, true),
    }), { mode: 0o600 });
    // The last moment to give up doing nothing (ADR 0055): with less time left, the answer would
    // come after the client gave up, and a start's own work can take that long.
    if (answerBy !== null && answerBy - Date.now() < START_ROOM_MS) {
      throw new AmuxError('timeout', `too little time left before the client gives up (AMUX_CLIENT_TIMEOUT) to create a session and answer; nothing was done`);
    }
    ctx.store.tx(() => {
      ctx.store.insertSession(record);
      ctx.store.setSpec(id, stored as unknown as Record<string, unknown>);
      ctx.store.addEvent({
        sessionId: id, jobId: null, type: 'session_created',
        data: {
          name, command: record.command, cwd, timeoutMs, idleTimeoutMs, autoRemove,
          ...(Object.keys(labels).length ? { labels } : {}), ...(restartPolicy ? { restartPolicy } : {}), ...(spec.group ? { group: spec.group } : {}), ...(after.length ? { after } : {}),
          ...(delayMs ? { delayMs } : {}), ...(record.restartOf ? { restartOf: record.restartOf } : {}),
        },
        createdAt: now,
      });
    });
  } catch (err) {
    rmSync(sp.dir, { recursive: true, force: true });
    throw toAmuxError(err);
  }
  if (spec.dependencyFailed !== undefined) {
    // The queue's own decision for a `--after` dependency that failed (ADR 0033), made at once.
    return applyDecision(ctx, record, { status: 'failed', reason: 'dependency failed', error: spec.dependencyFailed });
  }
  queue.pump();
  const starting = queue.started(id);
  const started = starting && (await within(starting, answerBy));
  if (started) return started;
  // Not started now: it waits for a slot (maxLive, its group, `--after`, `--delay`) or, when every
  // start slot is taken or its start outlasts the client's deadline, for tmux (ADR 0040): answered
  // at once, pending, and started in order.
  const cur = ctx.store.getSession(id) ?? record;
  if (cur.status !== 'pending' || cur.reason !== null || (!starting && !queue.backlogged())) return cur;
  ctx.store.updateSession(id, { reason: START_BACKLOG });
  return { ...cur, reason: START_BACKLOG };
}

/** What `work` resolves with by `by` (ms since the epoch; null: no limit), else null; its failure, if it fails first. */
async function within<T>(work: Promise<T>, by: number | null): Promise<T | null> {
  if (by === null) return work;
  let cancel = () => {};
  const late = new Promise<null>((r) => (cancel = setLongTimeout(() => r(null), Math.max(0, by - Date.now()))));
  try {
    return await Promise.race([work, late]);
  } finally {
    cancel();
  }
}

/** The spec a session was created with, to create it again (`restart`); null once it was removed. */
export function storedSpec(ctx: DaemonContext, id: string): StoredSpec | null {
  return ctx.store.getSpec(id) as StoredSpec | null;
}

function newId(ctx: DaemonContext): string {
  for (;;) {
    const id = randomBytes(4).toString('hex');
    if (!ctx.store.idExists(id)) return id;
  }
}
