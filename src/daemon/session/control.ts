import { setTimeout as sleep } from 'node:timers/promises';
import type { SessionRecord } from '../../core/records.js';
import { isAlive, isStopped, sessionProcesses, signalAll } from '../../process/process-table.js';
import { formatDuration } from '../../core/duration.js';
import { paneTarget, pasteCalls, sendInputCalls } from '../../tmux/commands.js';
import { TmuxCommandError } from '../../tmux/tmux.js';
import { AmuxError } from '../../errors.js';
import type { DaemonContext } from '../context.js';
import { runningSession } from './guards.js';
import { clearOnInput } from './attention.js';
import { withSessionLock } from './lock.js';
import { logBytes } from '../output/log-size.js';
import { applyDecision, applyMainExit } from './transitions.js';
import { waitForTargets } from './waiters.js';

/** Waits (briefly) until the kernel has stopped `pid`, so that it cannot act on what comes next. */
async function untilStopped(pid: number): Promise<void> {
  for (let i = 0; i < 250 && isAlive(pid) && !isStopped(pid); i++) await sleep(2);
}

/**
 * `amux pause` (README "Commands"): SIGSTOP to every process of the session (ADR 0010). The shell first, and
 * once it is stopped the rest: a shell that saw its job stop would take the terminal back as
 * after Ctrl-Z. (The shell is not the pane's process, which tmux would continue at once.) Processes
 * forked while the list was taken are caught by a second look. The capture of the pane (pipe-pane,
 * outside the session) goes on. Pausing a paused session is a no-op.
 */
export function pauseSession(ctx: DaemonContext, id: string): Promise<SessionRecord> {
  return withSessionLock(id, async () => {
    const s = runningSession(ctx, id, 'pause');
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
      const fresh = sessionProcesses(s.pid).filter((p) => !stopped.has(p));
      if (fresh.length === 0) break;
      signalAll(fresh, 'SIGSTOP');
      for (const p of fresh) stopped.add(p);
    }
    return applyDecision(ctx, ctx.store.getSession(id)!, { status: 'paused', reason: 'paused by amux pause' });
  });
}

/**
 * `amux resume`: SIGCONT to every process, the shell last (when it runs again its job runs
 * too, and it sees nothing to report). The idle clock starts again from the resume (paused time
 * never counts toward `--idle-timeout`); a main command that finished just before the pause is
 * seen now. Resuming a running session is a no-op.
 */
export function resumeSession(ctx: DaemonContext, id: string): Promise<SessionRecord> {
  return withSessionLock(id, async () => {
    const s = runningSession(ctx, id, 'resume');
    if (s.status !== 'paused') return s;
    signalAll(sessionProcesses(s.pid), 'SIGCONT');
    signalAll([s.pid!], 'SIGCONT');
    const now = Date.now();
    ctx.store.updateSession(id, { lastActivityAt: now });
    return applyMainExit(ctx, applyDecision(ctx, { ...s, lastActivityAt: now }, { status: 'working', reason: 'resumed by amux resume' }, now));
  });
}

/** A checked `amux send` request (api/validate.ts): text or tmux key names, and when to type them. */
export type SendInput = ({ text: string } | { keys: string[] }) & {
  enter: boolean;
  /** `idle`: hold the input until the session is idle; `ready`: until its program declared ready (then at most `timeoutMs`). */
  when: 'now' | 'idle' | 'ready';
  timeoutMs: number | null;
};

/** What a send did (the API answers it as a receipt). */
export interface SendDone {
  session: SessionRecord;
  /** The session log's size just before the input went in: its reply is read from here. */
  offset: number;
  /** The `input_sent` event: `wait --after` it for the reply. */
  eventId: number;
  /** How long the input was held for `when: idle`. */
  heldMs: number;
  /** Multi-line text went in as one paste. */
  pasted: boolean;
}

let buffers = 0;

/** Holds until the session is idle (or its program declared `ready`); fails (nothing typed) when it ends first or the time runs out. */
async function untilHeld(ctx: DaemonContext, id: string, when: 'idle' | 'ready', timeoutMs: number | null, signal?: AbortSignal): Promise<void> {
  const spec = { until: { kind: when }, after: null, any: false, sinceOffset: null, timeoutMs };
  const { results, timedOut } = await waitForTargets(ctx, [{ kind: 'session', id }], spec, signal);
  if (signal?.aborted) throw new AmuxError('operation_failed', `the caller left before the session was ${when}; nothing was typed`);
  if (timedOut) throw new AmuxError('timeout', `session ${id} was not ${when} within ${formatDuration(timeoutMs!)}; nothing was typed`);
  if (!results[0]!.reached) throw new AmuxError('invalid_state', `session ${id} ended (${results[0]!.status}) before it was ${when}; nothing was typed`);
}

/**
 * `amux send` (README "Commands"): types into the pane, and answers where its reply starts. One
 * line of text is typed; text with newlines goes in as one paste (bracketed when the program asked
 * for it, see `pasteCalls`); keys are keys. An idle session becomes working at once.
 */
export async function sendInput(ctx: DaemonContext, id: string, input: SendInput, signal?: AbortSignal): Promise<SendDone> {
  runningSession(ctx, id, 'send');
  const held = Date.now();
  if (input.when !== 'now') {
    await untilHeld(ctx, id, input.when, input.timeoutMs, signal);
    runningSession(ctx, id, 'send');
  }
  const heldMs = Date.now() - held;
  const offset = logBytes(ctx, ctx.store.getSession(id)!);
  const target = paneTarget(id);
  const pasted = 'text' in input && input.text.includes('\n');
  const buffer = `amux-send-${process.pid}-${++buffers}`;
  try {
    if (pasted) {
      const [load, paste] = pasteCalls(target, buffer, input.enter);
      await ctx.tmux.run(load!, { input: input.text });
      await ctx.tmux.run(paste!);
    } else {
      for (const call of sendInputCalls(target, 'keys' in input ? { keys: input.keys } : { text: input.text }, input.enter)) {
        await ctx.tmux.run(call);
      }
    }
  } catch (err) {
    if (pasted) await ctx.tmux.run(['delete-buffer', '-b', buffer]).catch(() => undefined);
    if (err instanceof TmuxCommandError && /unknown key|not found/i.test(err.stderr)) {
      throw new AmuxError('invalid_argument', `tmux rejected the keys: ${err.stderr}; use names such as C-c, Enter, Up, F1`);
    }
    if (err instanceof TmuxCommandError && err.notFound) throw new AmuxError('invalid_state', `session ${id}: its tmux session no longer exists`);
    throw err;
  }
  const now = Date.now();
  const event = ctx.store.tx(() => {
    ctx.store.updateSession(id, { lastActivityAt: now });
    return ctx.store.addEvent({
      sessionId: id, jobId: null, type: 'input_sent',
      data: {
        ...('keys' in input ? { keys: input.keys } : { bytes: Buffer.byteLength(input.text), ...(pasted ? { pasted } : {}) }),
        enter: input.enter, offset, ...(heldMs > 0 && input.when !== 'now' ? { heldMs } : {}),
      },
      createdAt: now,
    });
  });
  clearOnInput(ctx, id, now, offset); // the person answered (ADR 0034)
  const cur = ctx.store.getSession(id)!;
  const session = cur.status === 'idle' ? applyDecision(ctx, cur, { status: 'working', reason: 'input sent' }, now) : cur;
  return { session, offset, eventId: event.id, heldMs, pasted };
}
