import type { EventRecord, JobRecord, SessionRecord } from '../../core/records.js';
import { isTerminal, TERMINAL_STATUSES } from '../../core/status.js';
import { isoTime } from '../../core/iso-time.js';
import { setLongTimeout } from '../../core/long-timeout.js';
import { untilDeclared, untilStatus, type Until } from '../../core/until.js';
import { activeDeclaration } from '../../core/attention.js';
import type { WaitAnswer, WaitEvent, WaitResult } from '../../protocol/wait.js';
import { AmuxError } from '../../errors.js';
import { findEvent, lastEventId } from '../../store/history.js';
import type { DaemonContext } from '../context.js';
import { logBytes } from '../output/log-size.js';
import { settleLog } from '../output/log-stream.js';
import { viewReason } from '../api/views.js';
import { OutputWatch } from './output-watch.js';
import type { Target } from './refs.js';

/** A checked wait request (api/validate.ts). */
export interface WaitSpec {
  until: Until;
  /** Only changes after this event count. */
  after: number | null;
  any: boolean;
  sinceOffset: number | null;
  timeoutMs: number | null;
}

/** How often output waits look at the logs (a stat each): the log has no change event. */
const OUTPUT_POLL_MS = 100;
const TERMINAL = [...TERMINAL_STATUSES];

function eventOf(e: EventRecord | null): WaitEvent | null {
  if (!e) return null;
  const data = e.data as { to?: unknown; reason?: unknown; status?: unknown; error?: unknown };
  const to = typeof data.to === 'string' ? data.to : typeof data.status === 'string' ? data.status : null;
  const reason = typeof data.reason === 'string' ? data.reason : typeof data.error === 'string' ? data.error : null;
  return { id: e.id, type: e.type, to, reason, createdAt: isoTime(e.createdAt)! };
}

interface Look {
  r: WaitResult;
  /** Reached, or it can no longer be (ended without): nothing more to wait for. */
  done: boolean;
}

/** One target of a wait: looks at its record (and output) and says where it stands. */
class TargetWatch {
  private readonly output: OutputWatch | null;

  constructor(
    private readonly ctx: DaemonContext,
    readonly target: Target,
    private readonly spec: WaitSpec,
  ) {
    const session = ctx.store.getSession(target.kind === 'job' ? target.sessionId : target.id) as SessionRecord;
    if (target.kind === 'job' && spec.until.kind !== 'exited') {
      throw new AmuxError('invalid_argument', `--until ${spec.until.kind} is for sessions; job ${target.id} can only be waited for until it exited`);
    }
    this.output = spec.until.kind === 'output' ? new OutputWatch(ctx, session, spec.until.source, spec.sinceOffset, spec) : null;
  }

  get sessionId(): string {
    return this.target.kind === 'job' ? this.target.sessionId : this.target.id;
  }

  get watchesOutput(): boolean {
    return this.output !== null;
  }

  async look(): Promise<Look> {
    const { ctx, target, spec } = this;
    if (target.kind === 'job') {
      const j = ctx.store.getJob(target.id) as JobRecord;
      const done = j.status !== 'running';
      const event = done ? eventOf(findEvent(ctx.store, j.sessionId, { type: 'job_finished', jobId: j.id })) : null;
      return {
        r: { id: j.id, status: j.status, exitCode: j.exitCode, signal: j.signal, error: j.error, reason: null, reached: done, event, match: null, logOffset: null },
        done,
      };
    }
    let s = ctx.store.getSession(target.id) as SessionRecord;
    let reached = false;
    let event: EventRecord | null = null;
    let match: string | null = null;
    const status = untilStatus(spec.until);
    if (spec.until.kind === 'started') {
      reached = s.status !== 'pending'; // running, or ended without running (then `error` says why)
    } else if (spec.until.kind === 'exited') {
      reached = isTerminal(s.status);
      if (reached) event = findEvent(ctx.store, s.id, { type: 'state_changed', to: TERMINAL });
    } else if (status) {
      // With a cursor, the first change to the status after it counts, even if the session has moved on since.
      event = findEvent(ctx.store, s.id, { type: 'state_changed', to: [status], ...(spec.after !== null ? { after: spec.after } : {}) });
      reached = spec.after !== null ? event !== null : s.status === status;
      if (!reached) event = null;
    } else if (spec.until.kind === 'attention' || untilDeclared(spec.until)) {
      event = needsYou(ctx, s, spec);
      reached = event !== null;
    } else if (this.output) {
      // A session that ended: its last bytes may still be on their way to the log.
      if (isTerminal(s.status)) await settleLog(ctx, s);
      match = await this.output.look(s);
      reached = match !== null;
      s = ctx.store.getSession(target.id) as SessionRecord;
    }
    const r: WaitResult = {
      id: s.id, status: s.status, exitCode: s.exitCode, signal: s.signal, error: s.error, reason: viewReason(s, Date.now(), ctx.runtime.get(s.id)),
      reached, event: eventOf(event), match, logOffset: s.removedAt ? s.logBytes : logBytes(ctx, s),
    };
    return { r, done: reached || isTerminal(s.status) };
  }
}

/**
 * `--until attention|waiting|ready` (ADR 0034): the event that got the session there. With a
 * cursor, the first such event after it (an attention that came and went between two calls
 * counts); without, the one in force now (live sessions only), or null.
 */
function needsYou(ctx: DaemonContext, s: SessionRecord, spec: WaitSpec): EventRecord | null {
  const declared = untilDeclared(spec.until);
  const q = declared ? { type: 'state_declared', to: [declared] } : { type: 'attention' };
  if (spec.after !== null) return findEvent(ctx.store, s.id, { ...q, after: spec.after });
  if (isTerminal(s.status)) return null;
  const holds = declared ? activeDeclaration(s, Date.now()) === declared : s.attentionAt !== null;
  return holds ? findEvent(ctx.store, s.id, q) : null;
}

/**
 * Resolves when the targets got where `spec.until` asks (every one, or with `any` the first; a
 * target that ended without getting there counts as done), or when `timeoutMs` runs out (then
 * `timedOut`). Status waits wake on the daemon's `change` events (jobs emit them for their
 * session); output waits also look at the logs every OUTPUT_POLL_MS. The answer's `cursor` is
 * the newest event id before the last look, so `after: cursor` misses nothing (ADR 0018).
 */
export async function waitForTargets(ctx: DaemonContext, targets: readonly Target[], spec: WaitSpec, signal?: AbortSignal): Promise<WaitAnswer> {
  // One watch per distinct target, however often it was named; the answer has one entry per name.
  const byId = new Map<string, TargetWatch>();
  for (const t of targets) if (!byId.has(t.id)) byId.set(t.id, new TargetWatch(ctx, t, spec));
  const watches = [...byId.values()];
  const sessions = new Set(watches.map((w) => w.sessionId));
  const lookAll = async (timedOut: boolean): Promise<{ answer: WaitAnswer; finished: boolean }> => {
    const cursor = lastEventId(ctx.store);
    const looks = new Map<string, Look>();
    for (const [id, w] of byId) looks.set(id, await w.look());
    const all = [...looks.values()];
    const finished = spec.any ? all.some((l) => l.r.reached) || all.every((l) => l.done) : all.every((l) => l.done);
    return { answer: { results: targets.map((t) => looks.get(t.id)!.r), timedOut: timedOut && !finished, cursor }, finished };
  };
  const first = await lookAll(false);
  if (first.finished || signal?.aborted) return first.answer;
  return new Promise<WaitAnswer>((resolve, reject) => {
    let settled = false;
    let looking = false;
    let again = false;
    let expired = false;
    let cancelTimer: (() => void) | null = null;
    let poll: NodeJS.Timeout | null = null;
    const stop = () => {
      settled = true;
      ctx.bus.off('change', onChange);
      cancelTimer?.();
      if (poll) clearInterval(poll);
    };
    // One look at a time (an output watch reads on from where it was); a wake-up during a look is one more look after it.
    const relook = async () => {
      if (settled) return;
      if (looking) {
        again = true;
        return;
      }
      looking = true;
      try {
        do {
          again = false;
          const timedOut = expired;
          const { answer, finished } = await lookAll(timedOut);
          if (settled) return;
          if (finished || timedOut) {
            stop();
            return resolve(answer);
          }
        } while (again || expired);
      } catch (err) {
        // The session was removed under the wait, or the store failed: the request fails with it.
        if (!settled) {
          stop();
          reject(err);
        }
      } finally {
        looking = false;
      }
    };
    const onChange = (id: string) => {
      if (sessions.has(id)) void relook();
    };
    ctx.bus.on('change', onChange);
    if (watches.some((w) => w.watchesOutput)) poll = setInterval(() => void relook(), OUTPUT_POLL_MS);
    if (spec.timeoutMs != null) {
      cancelTimer = setLongTimeout(() => {
        expired = true;
        void relook();
      }, spec.timeoutMs);
    }
    signal?.addEventListener('abort', () => {
      if (settled) return;
      stop();
      resolve(first.answer); // the client left: nobody reads this
    }, { once: true });
  });
}

/** Resolves with the session once it is no longer `pending` (started, or ended while queued), or when aborted. */
export function untilStarted(ctx: DaemonContext, id: string, signal: AbortSignal): Promise<SessionRecord> {
  return new Promise((resolve) => {
    const check = () => {
      const s = ctx.store.getSession(id) as SessionRecord;
      if (s.status === 'pending' && !signal.aborted) return false;
      ctx.bus.off('change', onChange);
      resolve(s);
      return true;
    };
    const onChange = (changed: string) => {
      if (changed === id) check();
    };
    if (check()) return;
    ctx.bus.on('change', onChange);
    signal.addEventListener('abort', () => check(), { once: true });
  });
}
