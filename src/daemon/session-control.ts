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
import { descendantsOf, isAlive, sessionMembers, signalAll } from '../process/process-table.js';
import { killSessionArgs, paneTarget, sendInputCalls } from '../tmux/commands.js';
import { TmuxCommandError } from '../tmux/tmux.js';
import type { DaemonContext } from './context.js';
import { withSessionLock } from './session-lock.js';
import { readExitStatus } from './exit-files.js';
import { logExtent, readLog } from './log-files.js';
import { applyDecision } from './transitions.js';

async function closeTmuxSession(ctx: DaemonContext, id: string): Promise<void> {
  try {
    await ctx.tmux.run(killSessionArgs(id));
  } catch (err) {
    if (!(err instanceof TmuxCommandError && err.notFound)) throw err;
  }
}


/**
 * SPEC §4 `kill`: `signal` to every process of the session, SIGKILL to survivors after `graceMs`,
 * then the tmux session is closed and the status is `stopped`. A finished session is a no-op.
 */
export function killSession(ctx: DaemonContext, id: string, signalName: string, graceMs: number): Promise<SessionRecord> {
  const signal = parseSignal(signalName) as NodeJS.Signals;
  return withSessionLock(id, async () => {
    const s = ctx.store.getSession(id);
    if (!s) throw new AmuxError('session_not_found', `no such session: ${id}`);
    if (isTerminal(s.status)) return s;
    // Every process of the session but the shell itself (closing the tmux session hangs it up).
    const members = () => (s.pid ? [...new Set([...descendantsOf(s.pid), ...sessionMembers(s.pid)])].filter((p) => p !== s.pid) : []);
    const pids = members();
    signalAll(pids, signal);
    const deadline = Date.now() + graceMs;
    while (pids.some(isAlive) && Date.now() < deadline) await sleep(20);
    const survivors = [...new Set([...pids, ...members()])].filter(isAlive);
    await closeTmuxSession(ctx, id);
    signalAll(survivors, 'SIGKILL');
    const current = ctx.store.getSession(id)!;
    if (isTerminal(current.status)) return current;
    const exitCode = s.hasCommand ? readExitStatus(ctx, id, 1) : null;
    // What ended it: the signal asked for, or SIGKILL when something outlived the grace.
    const ended = survivors.length > 0 ? 'SIGKILL' : signal;
    return applyDecision(ctx, current, { status: 'stopped', reason: `killed with ${ended}`, exitCode, signal: ended });
  });
}

/** The last 2 KiB of a session's output as plain text, kept in its history row on removal. */
function lastOutput(ctx: DaemonContext, s: SessionRecord): string {
  const dir = sessionPaths(ctx.paths, s.id).logDir;
  const { end } = logExtent(dir, s.logChunkBytes);
  const { data } = readLog(dir, s.logChunkBytes, Math.max(0, end - 2048), 2048);
  return renderPlain(stripMarkers(data, s.nonce).toString('utf8'));
}

/** SPEC §4 `rm`: a finished session's tmux session and files go; its row and events stay. */
export async function removeSession(ctx: DaemonContext, id: string, force: boolean, graceMs: number): Promise<SessionRecord> {
  const s = ctx.store.getSession(id);
  if (!s || s.removedAt) throw new AmuxError('session_not_found', `no such session: ${id}`);
  if (!isTerminal(s.status)) {
    if (!force) throw new AmuxError('invalid_state', `session ${id} is ${s.status}; stop it first ('amux kill ${id}') or use 'amux rm -f ${id}'`);
    await killSession(ctx, id, 'TERM', graceMs);
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
    rmSync(sessionPaths(ctx.paths, id).dir, { recursive: true, force: true });
    for (const f of readdirSync(ctx.paths.exitsDir)) {
      if (f.startsWith(`${id}.`)) rmSync(join(ctx.paths.exitsDir, f), { force: true });
    }
    ctx.runtime.delete(id);
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
