import { setTimeout as sleep } from 'node:timers/promises';
import type { SessionRecord } from '../../core/records.js';
import { formatDuration } from '../../core/duration.js';
import { enterDue, enterTaken, nextMark, shellOwns, SUBMIT, watchText, type InputMark } from '../../core/submit.js';
import { TerminalReads } from '../../process/terminal-reads.js';
import { paneTarget, pasteTextCalls, sendKeysArgs } from '../../tmux/commands.js';
import { TmuxCommandError } from '../../tmux/tmux.js';
import { AmuxError } from '../../errors.js';
import type { DaemonContext } from '../context.js';
import { logBytes } from '../output/log-size.js';
import { clearOnInput } from './attention.js';
import { runningSession } from './guards.js';
import { withSessionLock } from './lock.js';
import { applyDecision } from './transitions.js';
import { waitForTargets } from './waiters.js';

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
  /** The program read from the terminal after amux pressed Enter (ADR 0047). */
  submitted: boolean;
}

let buffers = 0;

/**
 * `amux send` (src/guides/sessions.md): types into the pane, and answers where its reply starts. With
 * `when`, holds the input until the session is idle (or declared ready) first, and again when
 * another send typed meanwhile.
 */
export async function sendInput(ctx: DaemonContext, id: string, input: SendInput, signal?: AbortSignal): Promise<SendDone> {
  runningSession(ctx, id, 'send');
  const held = Date.now();
  for (;;) {
    if (input.when !== 'now') {
      await untilHeld(ctx, id, input, held, signal);
      runningSession(ctx, id, 'send');
    }
    // Under the session's lock: one send types at a time (text and its Enter are two calls), and
    // the monitor does not judge the session on a look taken before the program saw the Enter.
    const done = await withSessionLock(id, async () => {
      // A send that typed while this one waited for its turn made the session busy again: hold again.
      if (input.when !== 'now' && !(await holdsNow(ctx, id, input.when))) return null;
      runningSession(ctx, id, 'send');
      return typeInput(ctx, id, input, input.when === 'now' ? 0 : Date.now() - held, signal);
    });
    if (done) return done;
  }
}

/** Holds until the session is idle (or its program declared `ready`); fails (nothing typed) when it ends first or the time runs out. */
async function untilHeld(ctx: DaemonContext, id: string, input: SendInput, heldAt: number, signal?: AbortSignal): Promise<void> {
  const when = input.when as 'idle' | 'ready';
  const timeoutMs = input.timeoutMs === null ? null : Math.max(0, heldAt + input.timeoutMs - Date.now());
  const spec = { until: { kind: when }, after: null, any: false, sinceOffset: null, timeoutMs };
  const { results, timedOut } = await waitForTargets(ctx, [{ kind: 'session', id }], spec, signal);
  if (signal?.aborted) throw new AmuxError('operation_failed', `the caller left before the session was ${when}; nothing was typed`);
  if (timedOut) throw new AmuxError('timeout', `session ${id} was not ${when} within ${formatDuration(input.timeoutMs!)}; nothing was typed`);
  if (!results[0]!.reached) throw new AmuxError('invalid_state', `session ${id} ended (${results[0]!.status}) before it was ${when}; nothing was typed`);
}

/** Whether the session is idle (or declared ready) at this moment. */
async function holdsNow(ctx: DaemonContext, id: string, when: 'idle' | 'ready'): Promise<boolean> {
  const spec = { until: { kind: when }, after: null, any: false, sinceOffset: null, timeoutMs: 0 };
  const { results, timedOut } = await waitForTargets(ctx, [{ kind: 'session', id }], spec);
  return !timedOut && results[0]!.reached;
}

/**
 * Types the input (ADR 0047): keys as they are; text as a paste, then, once the program has taken
 * it (`enterDue`), Enter as a call of its own (into the session's own shell, in the same call),
 * and then watches for the program to read the Enter (`enterTaken`: `submitted`). The
 * `input_sent` event is written as Enter goes in (as the input goes in, without Enter), so that
 * the reply's state changes come after it.
 */
async function typeInput(ctx: DaemonContext, id: string, input: SendInput, heldMs: number, signal?: AbortSignal): Promise<SendDone> {
  const s = ctx.store.getSession(id)!;
  const offset = logBytes(ctx, s);
  const target = paneTarget(id);
  const pasted = 'text' in input && input.text.includes('\n');
  const reads = s.pid ? new TerminalReads(s.pid) : null;
  const mark = (): InputMark => ({ at: Date.now(), printed: logBytes(ctx, s), ...(reads?.read() ?? { group: null, reads: new Map<number, number>() }) });
  // `staleBefore`: where the program's reports start to count, the log's size as the input was complete (ADR 0060).
  const sent = (staleBefore = offset): SendDone => ({ ...inputSent(ctx, id, input, { offset, pasted, heldMs, staleBefore }), offset, heldMs, pasted, submitted: false });
  if ('keys' in input) {
    await tmuxInput(ctx, id, [sendKeysArgs(target, input.keys)], null);
    return sent();
  }
  const start = mark();
  if (input.text) {
    const buffer = `amux-send-${process.pid}-${++buffers}`;
    const { calls, stdin } = pasteTextCalls(target, buffer, input.text);
    const oneCall = input.enter && s.pid !== null && shellOwns(start, s.pid);
    if (oneCall) calls.at(-1)!.push(';', ...sendKeysArgs(target, ['Enter']));
    await tmuxInput(ctx, id, calls, stdin, buffer);
    if (oneCall) return watchEnter(ctx, id, start, Buffer.byteLength(input.text) + 1, sent(), mark, signal);
    let watch = watchText(start);
    while (!enterDue(watch, Date.now())) {
      await sleep(SUBMIT.pollMs);
      watch = nextMark(watch, mark());
    }
  }
  if (!input.enter) return sent();
  const before = input.text ? mark() : start;
  await tmuxInput(ctx, id, [sendKeysArgs(target, ['Enter'])], null);
  // What the program announced about the text alone (Codex's `idle` once it is in its composer) is
  // stale once the Enter goes in: only its reports after the Enter say what the input started.
  return watchEnter(ctx, id, before, 1, sent(before.printed), mark, signal);
}

/** Watches for the program to read the Enter (at most `enterWaitMs`): the receipt's `submitted`. */
async function watchEnter(ctx: DaemonContext, id: string, before: InputMark, bytes: number, done: SendDone, mark: () => InputMark, signal?: AbortSignal): Promise<SendDone> {
  const until = Date.now() + SUBMIT.enterWaitMs;
  let submitted = false;
  while (!signal?.aborted) {
    submitted = enterTaken(before, mark(), bytes);
    if (submitted || Date.now() >= until) break;
    await sleep(SUBMIT.pollMs);
  }
  return { ...done, session: ctx.store.getSession(id)!, submitted };
}

/** Runs the calls that type; tmux's errors become amux's (a key tmux refused, a session gone). */
async function tmuxInput(ctx: DaemonContext, id: string, calls: string[][], stdin: string | null, buffer?: string): Promise<void> {
  try {
    for (const [i, call] of calls.entries()) await ctx.tmux.run(call, i === 0 && stdin !== null ? { input: stdin } : {});
  } catch (err) {
    if (buffer) await ctx.tmux.run(['delete-buffer', '-b', buffer]).catch(() => undefined);
    if (err instanceof TmuxCommandError && /unknown key|not found/i.test(err.stderr)) {
      throw new AmuxError('invalid_argument', `tmux rejected the keys: ${err.stderr}; use names such as C-c, Enter, Up, F1`);
    }
    if (err instanceof TmuxCommandError && err.notFound) throw new AmuxError('invalid_state', `session ${id}: its tmux session no longer exists`);
    throw err;
  }
}

/** Writes the `input_sent` event; the person answered (ADR 0034); an idle session becomes working at once. */
function inputSent(ctx: DaemonContext, id: string, input: SendInput, at: { offset: number; pasted: boolean; heldMs: number; staleBefore: number }): { session: SessionRecord; eventId: number } {
  const now = Date.now();
  const event = ctx.store.tx(() => {
    ctx.store.updateSession(id, { lastActivityAt: now });
    return ctx.store.addEvent({
      sessionId: id, jobId: null, type: 'input_sent',
      data: {
        ...('keys' in input ? { keys: input.keys } : { bytes: Buffer.byteLength(input.text), ...(at.pasted ? { pasted: true } : {}) }),
        enter: input.enter, offset: at.offset, ...(at.heldMs > 0 && input.when !== 'now' ? { heldMs: at.heldMs } : {}),
      },
      createdAt: now,
    });
  });
  clearOnInput(ctx, id, now, at.staleBefore); // reports of before the input end with it (ADR 0049, ADR 0060)
  const cur = ctx.store.getSession(id)!;
  const session = cur.status === 'idle' ? applyDecision(ctx, cur, { status: 'working', reason: 'input sent' }, now) : cur;
  return { session, eventId: event.id };
}
