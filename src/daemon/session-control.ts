import { setTimeout as sleep } from 'node:timers/promises';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { renderPlain } from '../core/log-render.js';
import { stripMarkers } from '../core/markers.js';
import type { SessionRecord } from '../core/records.js';
import { parseSignal } from '../core/signals.js';
import { isTerminal } from '../core/types.js';
import { AmuxError } from '../errors.js';
import { sessionPaths } from '../paths.js';
import { descendantsOf, isAlive, isStopped, sessionMembers, sessionOf, signalAll } from '../process/process-table.js';
import { killSessionArgs, paneTarget, sendInputCalls } from '../tmux/commands.js';
import { TmuxCommandError } from '../tmux/tmux.js';
import type { DaemonContext } from './context.js';
import { withSessionLock } from './session-lock.js';
import { mainExit } from './exit-files.js';
import { logExtent, readLog } from './log-files.js';
import { applyDecision, applyMainExit } from './transitions.js';

export async function closeTmuxSession(ctx: DaemonContext, id: string): Promise<void> {
  try {
    await ctx.tmux.run(killSessionArgs(id));
  } catch (err) {
    if (!(err instanceof TmuxCommandError && err.notFound)) throw err;
  }
}


/** How long `kill` (and an expiry) waits before SIGKILL, unless told otherwise. */
export const KILL_GRACE_MS = 5000;

/**
 * Every process of a session but its shell: the shell's descendants, and the members of the
 * terminal's Unix session (what a job left behind, reparented away), but not the pane's own
 * process (`timeout`, the parent of the shell, which leads that session).
 */
function members(shell: number | null): number[] {
  if (!shell) return [];
  const sid = sessionOf(shell);
  const inSession = sid ? sessionMembers(sid).filter((p) => p !== sid) : [];
  return [...new Set([...descendantsOf(shell), ...inSession])].filter((p) => p !== shell);
}

/** How a kill ends a session: `amux kill` stops it; a timeout expires it (ADR 0010). */
export interface KillOutcome {
  status: 'stopped' | 'expired';
  /** The state_changed reason; `killed with SIGNAL` when absent. */
  reason?: string;
  error?: string;
  /** Refuse (invalid_state) unless the session is still pending when the lock is held (`rm` without -f). */
  onlyIfPending?: boolean;
}

/**
 * SPEC §4 `kill`: `signal` to every process of the session, SIGKILL to survivors after `graceMs`,
 * then the tmux session is closed and the status is `stopped` (or `expired`, for a timeout). A
 * finished session is a no-op; a pending one ends without having run.
 */
export function killSession(
  ctx: DaemonContext, id: string, signalName: string, graceMs: number, outcome: KillOutcome = { status: 'stopped' },
): Promise<SessionRecord> {
  const signal = parseSignal(signalName) as NodeJS.Signals;
  return withSessionLock(id, async () => {
    const s = ctx.store.getSession(id);
    if (!s) throw new AmuxError('session_not_found', `no such session: ${id}`);
    if (isTerminal(s.status)) return s;
    if (outcome.onlyIfPending && s.status !== 'pending') {
      throw new AmuxError('invalid_state', `session ${id} started meanwhile (${s.status}); stop it first ('amux kill ${id}') or use 'amux rm -f ${id}'`);
    }
    if (s.status === 'pending') {
      return applyDecision(ctx, s, { status: outcome.status, reason: outcome.reason ?? 'killed while pending', error: outcome.error ?? 'stopped before it started' });
    }
    // Every process of the session but the shell itself (closing the tmux session hangs it up).
    const pids = members(s.pid);
    signalAll(pids, signal);
    // Stopped processes act on the signal only once continued; the shell last (see pauseSession).
    if (s.status === 'paused') signalAll([...pids, ...(s.pid ? [s.pid] : [])], 'SIGCONT');
    const deadline = Date.now() + graceMs;
    while (pids.some(isAlive) && Date.now() < deadline) await sleep(20);
    const survivors = [...new Set([...pids, ...members(s.pid)])].filter(isAlive);
    await closeTmuxSession(ctx, id);
    signalAll(survivors, 'SIGKILL');
    const current = ctx.store.getSession(id)!;
    if (isTerminal(current.status)) return current;
    const exitCode = mainExit(ctx, s);
    // What ended it: the signal asked for, or SIGKILL when something outlived the grace.
    const ended = survivors.length > 0 ? 'SIGKILL' : signal;
    return applyDecision(ctx, current, {
      status: outcome.status, reason: outcome.reason ?? `killed with ${ended}`, exitCode, signal: ended, ...(outcome.error ? { error: outcome.error } : {}),
    });
  });
}

function liveSession(ctx: DaemonContext, id: string, verb: string): SessionRecord {
  const s = ctx.store.getSession(id);
  if (!s || s.removedAt) throw new AmuxError('session_not_found', `no such session: ${id}`);
  if (isTerminal(s.status)) throw new AmuxError('invalid_state', `session ${id} has finished (${s.status}); only a running session can be ${verb}`);
  if (s.status === 'pending') throw new AmuxError('invalid_state', `session ${id} is pending (waiting for a slot, see maxLive); only a running session can be ${verb}`);
  if (!s.pid) throw new AmuxError('operation_failed', `session ${id}: the pid of its shell is unknown, so it cannot be ${verb}; 'amux kill ${id}' still works`);
  return s;
}

/** Waits (briefly) until the kernel has stopped `pid`, so that it cannot act on what comes next. */
async function untilStopped(pid: number): Promise<void> {
  for (let i = 0; i < 250 && isAlive(pid) && !isStopped(pid); i++) await sleep(2);
}

/**
 * SPEC §4 `pause`: SIGSTOP to every process of the session (ADR 0010). The shell first, and
 * once it is stopped the rest: a shell that saw its job stop would take the terminal back as
 * after Ctrl-Z. (The shell is not the pane's process, which tmux would continue at once.) Processes
 * forked while the list was taken are caught by a second look. The capture of the pane (pipe-pane,
 * outside the session) goes on. Pausing a paused session is a no-op.
 */
export function pauseSession(ctx: DaemonContext, id: string): Promise<SessionRecord> {
  return withSessionLock(id, async () => {
    const s = liveSession(ctx, id, 'paused');
    if (s.status === 'paused') return s;
    signalAll([s.pid!], 'SIGSTOP');
    await untilStopped(s.pid!);
    // The main command finished just before (its exit notice waits for this lock): it is done, not paused.
    const done = applyMainExit(ctx, s);
    if (done !== s) {
      signalAll([s.pid!], 'SIGCONT');
      return done;
    }
    const stopped = new Set<number>();
    for (let round = 0; round < 3; round++) {
      const fresh = members(s.pid).filter((p) => !stopped.has(p));
      if (fresh.length === 0) break;
      signalAll(fresh, 'SIGSTOP');
      for (const p of fresh) stopped.add(p);
    }
    return applyDecision(ctx, ctx.store.getSession(id)!, { status: 'paused', reason: 'paused by amux pause' });
  });
}

/**
 * SPEC §4 `resume`: SIGCONT to every process, the shell last (when it runs again its job runs
 * too, and it sees nothing to report). The idle clock starts again from the resume (paused time
 * never counts toward `--idle-timeout`); a main command that finished just before the pause is
 * seen now. Resuming a running session is a no-op.
 */
export function resumeSession(ctx: DaemonContext, id: string): Promise<SessionRecord> {
  return withSessionLock(id, async () => {
    const s = liveSession(ctx, id, 'resumed');
    if (s.status !== 'paused') return s;
    signalAll(members(s.pid), 'SIGCONT');
    signalAll([s.pid!], 'SIGCONT');
    const now = Date.now();
    ctx.store.updateSession(id, { lastActivityAt: now });
    return applyMainExit(ctx, applyDecision(ctx, { ...s, lastActivityAt: now }, { status: 'working', reason: 'resumed by amux resume' }, now));
  });
}

/** The last 2 KiB of a session's output as plain text, kept in its history row on removal. */
function lastOutput(ctx: DaemonContext, s: SessionRecord): string {
  const dir = sessionPaths(ctx.paths, s.id).logDir;
  const { end } = logExtent(dir, s.logChunkBytes);
  const { data } = readLog(dir, s.logChunkBytes, Math.max(0, end - 2048), 2048);
  return renderPlain(stripMarkers(data, s.nonce).toString('utf8'));
}

/** Deletes the files of sessions: their directory (log, jobs, rcfile) and their exit-status files. */
export function removeSessionFiles(ctx: DaemonContext, ids: readonly string[]): void {
  const set = new Set(ids);
  for (const id of ids) {
    rmSync(sessionPaths(ctx.paths, id).dir, { recursive: true, force: true });
    ctx.runtime.delete(id);
  }
  for (const f of readdirSync(ctx.paths.exitsDir)) {
    if (set.has(f.slice(0, f.indexOf('.')))) rmSync(join(ctx.paths.exitsDir, f), { force: true });
  }
}

/** SPEC §4 `prune`: removes the finished sessions that ended at least `olderThanMs` ago. */
export async function pruneSessions(ctx: DaemonContext, olderThanMs: number): Promise<SessionRecord[]> {
  const removed: SessionRecord[] = [];
  for (const s of ctx.store.finishedBefore(Date.now() - olderThanMs, { includeRemoved: false })) {
    try {
      removed.push(await removeSession(ctx, s.id, false, 0));
    } catch (err) {
      if (!(err instanceof AmuxError && err.code === 'session_not_found')) throw err; // removed meanwhile (--rm)
    }
  }
  return removed;
}

/** SPEC §4 `rm`: a finished session's tmux session and files go; its row and events stay. */
export async function removeSession(ctx: DaemonContext, id: string, force: boolean, graceMs: number): Promise<SessionRecord> {
  const s = ctx.store.getSession(id);
  if (!s || s.removedAt) throw new AmuxError('session_not_found', `no such session: ${id}`);
  if (!isTerminal(s.status)) {
    // A pending session has not run anything: removing it loses nothing, as with `docker rm` of a created container.
    if (!force && s.status !== 'pending') throw new AmuxError('invalid_state', `session ${id} is ${s.status}; stop it first ('amux kill ${id}') or use 'amux rm -f ${id}'`);
    await killSession(ctx, id, 'TERM', graceMs, { status: 'stopped', reason: s.status === 'pending' ? 'removed while pending' : undefined, onlyIfPending: !force });
  }
  return withSessionLock(id, async () => {
    const cur = ctx.store.getSession(id)!;
    if (cur.removedAt) return cur;
    await closeTmuxSession(ctx, id);
    const tail = lastOutput(ctx, cur);
    const now = Date.now();
    ctx.store.tx(() => {
      ctx.store.updateSession(id, { removedAt: now, lastOutput: tail });
      ctx.store.addEvent({ sessionId: id, jobId: null, type: 'session_removed', data: {}, createdAt: now });
    });
    removeSessionFiles(ctx, [id]);
    ctx.bus.emit('change', id);
    return { ...cur, removedAt: now, lastOutput: tail };
  });
}

export interface SendInput {
  text?: string;
  keys?: string[];
  enter?: boolean;
}

/** SPEC §4 `send`: types into the pane; an idle session becomes working at once. */
export async function sendInput(ctx: DaemonContext, id: string, input: SendInput): Promise<SessionRecord> {
  const s = ctx.store.getSession(id);
  if (!s || s.removedAt) throw new AmuxError('session_not_found', `no such session: ${id}`);
  if (isTerminal(s.status) || s.status === 'pending' || !s.paneId) {
    throw new AmuxError('invalid_state', `session ${id} is ${s.status}; input can only be sent to a running session`);
  }
  const enter = input.enter !== false;
  if (input.keys) {
    if (!Array.isArray(input.keys) || input.keys.length === 0 || input.keys.some((k) => typeof k !== 'string' || !/^[!-~]{1,32}$/.test(k))) {
      throw new AmuxError('invalid_argument', 'keys must be tmux key names such as C-c, Enter, Up, F1');
    }
  } else if (typeof input.text !== 'string') {
    throw new AmuxError('invalid_argument', 'text must be a string');
  }
  try {
    for (const call of sendInputCalls(paneTarget(id), input.keys ? { keys: input.keys } : { text: input.text! }, enter)) {
      await ctx.tmux.run(call);
    }
  } catch (err) {
    if (err instanceof TmuxCommandError && /unknown key|not found/i.test(err.stderr)) {
      throw new AmuxError('invalid_argument', `tmux rejected the keys: ${err.stderr}; use names such as C-c, Enter, Up, F1`);
    }
    if (err instanceof TmuxCommandError && err.notFound) throw new AmuxError('invalid_state', `session ${id}: its tmux session no longer exists`);
    throw err;
  }
  const now = Date.now();
  ctx.store.tx(() => {
    ctx.store.updateSession(id, { lastActivityAt: now });
    ctx.store.addEvent({
      sessionId: id, jobId: null, type: 'input_sent',
      data: input.keys ? { keys: input.keys, enter } : { bytes: Buffer.byteLength(input.text ?? ''), enter },
      createdAt: now,
    });
  });
  const cur = ctx.store.getSession(id)!;
  return cur.status === 'idle' ? applyDecision(ctx, cur, { status: 'working', reason: 'input sent' }, now) : cur;
}
