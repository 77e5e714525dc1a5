import { appendFileSync } from 'node:fs';
import { foregroundName, judgeForeground, QUIET_MS, type Activity } from '../../core/activity.js';
import { holdBlip, nextStreak } from '../../core/cpu-blip.js';
import type { SessionRecord } from '../../core/records.js';
import { lookDue, rests, REST_STAND_MS, tickBase } from '../../core/look-pace.js';
import { quickDecision } from '../../core/status-rules.js';
import { readForeground } from '../../process/foreground.js';
import { socketInodes } from '../../process/descriptors.js';
import { awaitingReply, FRESH_MS, tcpTraffic } from '../../process/socket-peers.js';
import type { Foreground } from '../../process/foreground.js';
import { REUSE_MAX_MS, sameMarks } from '../../process/run-marks.js';
import { sessionsIn } from '../../store/snapshot.js';
import { quietFor, runtimeOf, type DaemonContext, type LookMemory, type Runtime } from '../context.js';
import type { Jobs } from '../job/jobs.js';
import { mainExit } from '../output/exit-files.js';
import { logBytes } from '../output/log-size.js';
import { isSessionLocked } from '../session/lock.js';
import { applyDecision } from '../session/transitions.js';
import { logLine } from '../log.js';
import { asksTerminal } from '../../core/terminal-query.js';
import { sessionPaths } from '../../paths.js';
import { readLog } from '../output/log-files.js';
import { lookForAttention } from './attention-look.js';

/**
 * Where every look is written, one JSON line each, when AMUX_LOOK_TRACE names a file: what each
 * thread waited on, the conversation's quiet and the verdict (src/guides/contributing.md: tracing
 * the looks). For finding why a program's status flipped; off (and free) otherwise.
 */
const TRACE = process.env.AMUX_LOOK_TRACE || null;
let traceFailed = false;

function trace(s: SessionRecord, fg: Foreground, conv: { quietSince: number; members: number[]; awaiting?: boolean }, verdict: Activity, held: Activity, now: number): void {
  const procs = fg.procs.map((p) => ({ pid: p.pid, comm: p.comm, ticks: p.ticks, threads: p.threads.map((t) => `${t.tid}:${t.state}:${t.wait}${t.on ? `(${t.on.join(',')})` : ''}${t.timed ? ':timed' : ''}:${t.ticks}`) }));
  const line = { at: now, id: s.id, status: s.status, pgid: fg.pgid, quietMs: now - conv.quietSince, conversing: fg.conversing, members: conv.members, awaiting: conv.awaiting, verdict, held, procs };
  try {
    appendFileSync(TRACE!, `${JSON.stringify(line)}\n`);
  } catch (err) {
    // A trace that cannot be written is no reason to stop looking; the daemon's log says so once.
    if (!traceFailed) logLine(`AMUX_LOOK_TRACE: cannot write ${TRACE}: ${(err as Error).message}`);
    traceFailed = true;
  }
}

/** Whether the quick look reads a session's new output too (ADR 0060 amended): its program reports its state, or converses. */
function readsQuickly(rt: Runtime): boolean {
  return rt.reportsState === true || (rt.look?.conversed?.length ?? 0) > 0;
}

/** How long a working conversation with no connection must print nothing to be quiet (ADR 0061 amended). */
const BETWEEN_MS = 1500;
/** How old a TCP table a conversation's look may use (one `ss` a second for the whole daemon, ADR 0061); a quiet that would make it idle asks at most FRESH_MS old. */
const TABLE_MS = 1000;

/** How much of a session's newest output is searched for a query to the terminal (ADR 0068). */
const REPLY_TAIL_BYTES = 1024;
/** How long after a query a program's wait on the terminal stands for the answer (ADR 0068): terminals answer within a round trip, and programs give up on a missing answer in about a second. */
export const REPLY_WAIT_MS = 3000;

/**
 * How long a session's last look may stand for the next: longer while the session rests, and at
 * the refresh that wakes every session for the first call after a rest (`waking`: its looks were
 * made at the resting pace, and reading every one afresh would keep that call waiting), ADR 0071.
 */
export function standFor(ctx: DaemonContext, rt: Runtime, now: number, waking = false): number {
  const still = rt.look ? now - rt.look.stillSince : 0;
  const { restAfterMs } = ctx.settings;
  return (waking ? still >= restAfterMs : rests(still, quietFor(ctx, now), restAfterMs)) ? REST_STAND_MS : REUSE_MAX_MS;
}

/** How often working sessions are looked at between refreshes (the evidence only, from /proc). */
export const QUICK_MS = 250;

/**
 * The kernel's evidence of what sessions are doing (src/guides/statuses.md, ADR 0015): read from /proc
 * for the refresh, and on its own between refreshes for working sessions (the quick look). It
 * remembers, per session, the foreground command and the group's CPU ticks for the next look.
 */
export class Evidence {
  private lastQuickAt = 0;
  private quickCostMs = 0;

  constructor(private readonly ctx: DaemonContext, private readonly jobs: Jobs) {}

  /** A job of amux runs in the session's shell: its main command (until its exit file), or a foreground exec. */
  jobRunning(s: SessionRecord, mainExitCode = mainExit(this.ctx, s)): boolean {
    return (s.hasCommand && mainExitCode === null) || this.jobs.state.foregroundRunning(s.id);
  }

  /**
   * What the session's foreground processes are doing; undefined when its shell is gone. Judged
   * against the previous look at the same group (CPU ticks used since, bytes arrived since), which
   * this look replaces: no evidence outlives the look that found it.
   */
  look(s: SessionRecord, jobRunning: boolean, waking = false): Activity | undefined {
    if (!s.pid) return undefined;
    const rt = runtimeOf(this.ctx, s.id);
    const fg = readForeground(s.pid, jobRunning, rt.look, standFor(this.ctx, rt, Date.now(), waking));
    if (!fg) {
      rt.foreground = null;
      rt.look = undefined;
      return undefined;
    }
    const now = Date.now();
    const prev = rt.look?.pgid === fg.pgid ? rt.look : undefined;
    const conv = this.conversation(s, fg, prev, now);
    // CPU is measured over QUICK_MS at least (a look right after another sees no tick).
    const base = tickBase(prev, now, QUICK_MS);
    const streak = s.status === 'idle' ? prev?.cpuStreak : undefined;
    const baseTicks = base ? { procs: base.procs, threads: base.threads } : null;
    const j = judgeForeground(fg.procs, {
      ticks: baseTicks,
      // At an idle prompt, a blip is timed from the look that last measured it, else from the base (ADR 0048 amended).
      burst: s.status === 'idle' ? (streak?.ticks ?? baseTicks ?? undefined) : undefined,
      elapsedMs: base ? Math.max(now - base.at, QUICK_MS) : QUICK_MS,
      quietMs: now - conv.quietSince,
      // Asked only when quiet would make it idle: one `ss` for every session (ADR 0048).
      awaitingReply: () => conv.awaiting ?? awaitingReply(fg.conversing.flatMap(socketInodes)) === true,
      conversed: conv.sticky,
    }, jobRunning ? null : s.pid);
    // A look that stood for this one (none of its threads ran: ADR 0041) has the same ticks.
    const same = prev !== undefined && prev.fg === fg;
    const ticks = same ? { procs: prev.procs, threads: prev.threads } : { procs: new Map(fg.procs.map((p) => [p.pid, p.ticks])), threads: new Map(fg.procs.flatMap((p) => p.threads.map((t) => [t.tid, t.ticks] as const))) };
    // A blip of CPU at an idle prompt does not make the session working (ADR 0048).
    const cpuStreak = s.status === 'idle' ? nextStreak(streak, j.activity, now, { ticks, from: streak?.at ?? base?.at ?? now, burst: j.burst }) : undefined;
    const held = holdBlip(s.status, j.activity, cpuStreak, prev?.inputReason, now);
    // A working program that asked the terminal something waits on it for the answer (ADR 0068).
    const activity: Activity = held.verdict === 'input' && s.status === 'working' && this.asksTerminal(s, now) ? { verdict: 'working', reason: 'terminal reply' } : held;
    if (TRACE) trace(s, fg, conv, j.activity, activity, now);
    rt.look = {
      pgid: fg.pgid, at: now, base, bytes: conv.bytes, printedAt: conv.printedAt, quietSince: conv.quietSince, conversed: conv.members, fg,
      // Still: it stood for this look, or this one, read afresh, found the same marks (ADR 0044).
      stillSince: prev && (same || sameMarks(prev.fg?.marks, fg.marks)) ? prev.stillSince : now,
      procs: ticks.procs,
      threads: ticks.threads,
      cpuStreak,
      inputReason: activity.verdict === 'input' ? activity.reason : undefined,
    };
    rt.foreground = foregroundName(fg.procs, j, s.pid);
    return activity;
  }

  /**
   * Whether the session's newest output ends with a query to the terminal (its newest
   * REPLY_TAIL_BYTES read), found there less than REPLY_WAIT_MS ago: the program waits on the
   * terminal for the answer (ADR 0068). Read only when a working session would become idle.
   */
  private asksTerminal(s: SessionRecord, now: number): boolean {
    const rt = runtimeOf(this.ctx, s.id);
    const end = logBytes(this.ctx, s);
    if (rt.replyWait?.end !== end) {
      const tail = readLog(sessionPaths(this.ctx.paths, s.id).logDir, s.logChunkBytes, Math.max(0, end - REPLY_TAIL_BYTES), REPLY_TAIL_BYTES).data;
      const asks = asksTerminal(tail);
      // Timed from the first look that found the query last, however much the program wrote after it that is not output.
      rt.replyWait = { end, since: asks && rt.replyWait?.asks ? rt.replyWait.since : now, asks };
    }
    return rt.replyWait.asks && now - rt.replyWait.since < REPLY_WAIT_MS;
  }

  /**
   * The conversation of the members on the terminal and a socket (ADR 0048, 0061): those this
   * look found so, and those an earlier one found so over a TCP connection with bytes on it, for as
   * long as they live (their socket thread may be handing a chunk over at this look, or the next
   * request not be connected yet); `members` are those carried to the next look. Its quiet
   * time: since bytes last moved on their TCP connections (TCP_INFO: a keep-alive connection at
   * rest moves none, whatever wakes its thread) or the session printed; with no connection, since
   * it printed (over BETWEEN_MS); when only members of this look converse over no TCP (or without
   * `ss`), since they read (rchar) or their socket threads woke (ADR 0048). At an idle prompt, only
   * printing and bytes together end the quiet. A quiet that would make a working session idle is
   * checked against a table at most FRESH_MS old; otherwise a table TABLE_MS old serves.
   */
  private conversation(s: SessionRecord, fg: Foreground, prev: LookMemory | undefined, now: number): { bytes: number | null; printedAt?: number; quietSince: number; members: number[]; sticky?: ReadonlySet<number>; awaiting?: boolean } {
    // Carried from earlier looks, while they live: the members of a look that found bytes on their
    // TCP connections (without `ss`: every member).
    const kept = (prev?.conversed ?? []).filter((pid) => fg.procs.some((p) => p.pid === pid));
    const members = [...new Set([...fg.conversing, ...kept])];
    if (members.length === 0) return { bytes: null, quietSince: now, members };
    const inodes = members.flatMap(socketInodes);
    let tcp = tcpTraffic(inodes, TABLE_MS, now);
    // A connection newer than the table (the next request's): asked again, at most every FRESH_MS.
    if (tcp !== null && tcp.lastDataAt === null && s.status === 'working' && now - tcp.readAt > FRESH_MS) tcp = tcpTraffic(inodes, FRESH_MS, now) ?? tcp;
    // When the session last printed (the log grew): its negative size, never equal to an rchar count.
    const size = logBytes(this.ctx, s);
    const bytes = -1 - size;
    const printedAt = prev?.bytes === bytes ? (prev.printedAt ?? now) : now;
    // At an idle prompt, a conversation is work only once the session prints too: a request the
    // program makes on its own, or a redraw, is not (ADR 0061 amended).
    const atRest = s.status === 'idle' && now - printedAt >= QUIET_MS;
    if ((tcp === null || tcp.lastDataAt === null) && fg.conversing.length === 0) {
      // Members that conversed, with no connection now and no thread on a socket (between two
      // requests, or before the next one connects): what the session prints decides, not what
      // they read (their timers read files all the time) (ADR 0061 amended).
      // At an idle prompt that is a redraw: work needs bytes on a connection. Working, it waits
      // BETWEEN_MS with nothing printed (not QUIET_MS): the next request's connection may be newer
      // than the table (traced: Claude Code idle 70 ms after the mock received its request).
      return { bytes, printedAt, quietSince: s.status === 'idle' ? 0 : printedAt + BETWEEN_MS - QUIET_MS, members: kept, sticky: new Set(kept), awaiting: tcp === null ? undefined : false };
    }
    if (tcp === null || tcp.lastDataAt === null) {
      // No TCP connection (or no `ss`): what they read and their socket threads' wake-ups (ADR 0048).
      // With `ss`, members found so at this look only are not carried: a socket whose other end was
      // not known yet (asyncio's self-pipe while `ss` was not asked again) would make the program
      // converse for as long as it lives, and a clock it redraws keep it working (ADR 0061
      // amended). Without `ss` no connection is ever seen: every member is carried, as before.
      const read = fg.rchar === null ? null : fg.rchar + size;
      const quietSince = read !== null && prev?.bytes === read ? prev.quietSince : now;
      const carried = tcp === null ? members : kept;
      return { bytes: read, quietSince, members: carried, sticky: new Set(carried), awaiting: tcp === null ? undefined : false };
    }
    if (atRest) return { bytes, printedAt, quietSince: 0, members, sticky: new Set(members), awaiting: false };
    // Working: since it printed or bytes moved on its connections, whichever is later. Idle (it
    // printed just now): since bytes moved.
    const since = (lastDataAt: number) => (s.status === 'idle' ? lastDataAt : Math.max(printedAt, lastDataAt));
    let quietSince = since(tcp.lastDataAt);
    if (s.status === 'working' && now - quietSince >= QUIET_MS && now - tcp.readAt > FRESH_MS) {
      tcp = tcpTraffic(inodes, FRESH_MS, now) ?? tcp;
      quietSince = since(tcp.lastDataAt ?? 0);
    }
    return { bytes, printedAt, quietSince, members, sticky: new Set(members), awaiting: tcp.awaiting };
  }

  /**
   * Between two refreshes, working sessions whose foreground has started to read the terminal
   * become idle at once (a prompt answered within a tick, not a refresh later), and the others
   * get their live reason (cpu, sleeping, …). Reads /proc only; a session none of whose processes
   * has run for a while is looked at once a second (ADR 0044); the whole look is
   * skipped while it costs more than a tenth of its interval (many working sessions).
   */
  quickLook(): void {
    const { ctx } = this;
    if (Date.now() - this.lastQuickAt < Math.max(QUICK_MS, this.quickCostMs * 10)) return;
    const t0 = performance.now();
    this.lastQuickAt = Date.now();
    try {
      // Read just before the transaction, in the same synchronous turn: from memory while no row changed.
      // Idle sessions too while a blip of CPU is being timed (ADR 0048): it turns working once it lasts.
      const working = sessionsIn(ctx.store, ['working', 'idle']).filter((s) => s.status === 'working' || runtimeOf(ctx, s.id).look?.cpuStreak);
      if (working.length === 0) {
        this.quickCostMs = 0; // and no transaction: an empty one costs as much as reading the rows
        return;
      }
      const quiet = quietFor(ctx, this.lastQuickAt);
      ctx.store.tx(() => {
        for (let s of working) {
          // Also one no refresh has seen yet: a program may read the terminal within its first second.
          if (isSessionLocked(s.id)) continue;
          const last = runtimeOf(ctx, s.id).look;
          if (last && !lookDue(this.lastQuickAt - last.stillSince, this.lastQuickAt - last.at, QUICK_MS, quiet, ctx.settings.restAfterMs)) continue;
          // A main command that wrote its exit has ended: its end is recorded by the exit watcher, never
          // an idle first (its shell may wait reading the terminal in its EXIT trap, ADR 0004).
          const exit = mainExit(ctx, s);
          if (exit !== null) continue;
          // A program that reports its own state (OSC 7501, ADR 0060), or converses (an agent on its
          // API, ADR 0061), has its new output read at this look too: its `done`, `blocked` or bell
          // is news a refresh (up to 1.5 s later) would be late for.
          if (s.status === 'working' && readsQuickly(runtimeOf(ctx, s.id))) {
            const end = logBytes(ctx, s);
            if (end > s.attentionOffset) {
              s = lookForAttention(ctx, s, end, this.lastQuickAt);
              if (s.status !== 'working') continue;
            }
          }
          const activity = this.look(s, this.jobRunning(s, exit));
          if (!activity) continue;
          const rt = runtimeOf(ctx, s.id);
          // The log's size only when the kernel did not tell: otherwise its evidence is this look's reason.
          const end = activity.verdict === 'unknown' ? logBytes(ctx, s) : rt.seenLog;
          const quick = quickDecision(activity, rt.seenLog !== undefined && end !== rt.seenLog);
          rt.seenLog = end;
          // An idle session is visited only to time a blip (ADR 0048): it stays idle unless its CPU outlasted one.
          const outlasted = activity.verdict === 'working' && activity.reason === 'cpu';
          const d = s.status === 'idle' && quick.status === 'working' ? (outlasted ? { status: 'working' as const, reason: 'cpu' } : null) : quick;
          if (!d) continue;
          rt.reason = d.reason;
          rt.reasonStatus = d.status;
          if (d.status === 'idle' || s.status === 'idle') applyDecision(ctx, s, d, this.lastQuickAt, true);
        }
      });
      this.quickCostMs = performance.now() - t0;
    } catch (err) {
      this.quickCostMs = 1000; // e.g. a busy database: back off for 10 s
      logLine(`quick look: ${(err as Error).message}`);
    }
  }
}
