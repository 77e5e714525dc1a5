import type { EventRecord, JobRecord, SessionRecord } from '../../core/records.js';
import { activeDeclaration, declaredReason } from '../../core/attention.js';
import { isoTime } from '../../core/iso-time.js';
import { overAnnounced, type Announcements } from '../../core/announced.js';
import { isTerminal } from '../../core/status.js';
import type { EventView } from '../../protocol/events.js';
import type { JobView } from '../../protocol/jobs.js';
import type { SessionView } from '../../protocol/sessions.js';

const iso = isoTime;

/**
 * The API shape of a session (protocol/sessions.ts; src/guides/api.md). `live`: what the monitor saw at
 * its last look at a running session (its reason and foreground command).
 */
export function sessionView(s: SessionRecord, now = Date.now(), live?: Live): SessionView {
  const running = !isTerminal(s.status) && s.status !== 'pending';
  const declared = running ? activeDeclaration(s, now) : null;
  const progress = running ? live?.announced?.progress : null;
  const mark = running ? live?.announced?.mark : null;
  return {
    id: s.id,
    name: s.name,
    status: s.status,
    command: s.command,
    cwd: s.cwd,
    exitCode: s.exitCode,
    signal: s.signal,
    error: s.error,
    reason: reasonOf(s, running, declared !== null, now, live),
    foreground: running ? (live?.foreground ?? null) : null,
    createdAt: iso(s.createdAt)!,
    startedAt: iso(s.startedAt),
    endedAt: iso(s.endedAt),
    durationMs: s.startedAt == null ? null : (s.endedAt ?? now) - s.startedAt,
    lastActivityAt: iso(s.lastActivityAt),
    pid: s.pid,
    removed: s.removedAt != null,
    removedAt: iso(s.removedAt),
    closedAt: iso(s.closedAt),
    logBytes: s.logBytes,
    logTruncated: s.logTruncated,
    autoRemove: s.autoRemove,
    timeoutMs: s.timeoutMs,
    idleTimeoutMs: s.idleTimeoutMs,
    labels: s.labels,
    restartOf: s.restartOf,
    restarts: s.restarts,
    previousEnd: s.previousEnd,
    restartPolicy: s.restartPolicy,
    group: s.group,
    after: s.after,
    onEnd: s.onEnd,
    startAfter: s.status === 'pending' ? iso(s.startAfter) : null,
    attention: running && s.attentionAt !== null
      ? { at: iso(s.attentionAt)!, source: s.attentionSource!, title: s.attentionTitle, message: s.attentionMessage }
      : null,
    declared: declared
      ? { state: declared, source: s.declaredSource ?? 'command', message: s.declaredMessage, at: iso(s.declaredAt)!, until: iso(s.declaredUntil) }
      : null,
    title: s.title,
    progress: progress ? { state: progress.state, percent: progress.percent, at: iso(progress.at)! } : null,
    semanticPrompt: mark ? { phase: mark.phase, exitCode: mark.exitCode, at: iso(mark.at)! } : null,
  };
}

/**
 * The reason a session's view gives (below): what `wait --json` answers too, so that a wait and
 * `ps` never disagree on why (src/guides/statuses.md).
 */
export function viewReason(s: SessionRecord, now = Date.now(), live?: Live): string | null {
  const running = !isTerminal(s.status) && s.status !== 'pending';
  return reasonOf(s, running, running && activeDeclaration(s, now) !== null, now, live);
}

/** What the monitor saw at its last look at a running session (its runtime). */
export interface Live {
  reason?: string;
  reasonStatus?: string;
  foreground?: string | null;
  announced?: Announcements;
}

/**
 * Why it has its status: a declared state's reason while it is in force (ADR 0034); the monitor's
 * last look at a running session, weighed with what its program announced (ADR 0049); else the
 * row's (a declaration that lapsed moments ago, and that the monitor has not ended yet, no longer
 * claims it).
 */
function reasonOf(s: SessionRecord, running: boolean, declared: boolean, now: number, live?: Live): string | null {
  if (declared && s.status !== 'paused') return declaredReason(s);
  const look = running && live?.reason && live.reasonStatus
    ? overAnnounced(s.status, s, live.announced, { status: live.reasonStatus as SessionRecord['status'], reason: live.reason }, now)
    : null;
  const reason = (look?.status === s.status && look.reason) || s.reason;
  return running && s.declaredState !== null && reason === declaredReason(s) ? 'declaration ended (ttl)' : reason;
}

export function jobView(j: JobRecord, now = Date.now()): JobView {
  return {
    id: j.id,
    sessionId: j.sessionId,
    seq: j.seq,
    command: j.command,
    background: j.background,
    status: j.status,
    exitCode: j.exitCode,
    signal: j.signal,
    pid: j.pid,
    startedAt: iso(j.startedAt),
    endedAt: iso(j.endedAt),
    durationMs: (j.endedAt ?? now) - j.startedAt,
    tty: j.tty,
    timeoutMs: j.timeoutMs,
    error: j.error,
    stdoutBytes: j.stdoutBytes,
    stderrBytes: j.stderrBytes,
    stdoutTruncated: j.stdoutTruncated,
    stderrTruncated: j.stderrTruncated,
  };
}

export function eventView(e: EventRecord): EventView {
  return { id: e.id, sessionId: e.sessionId, jobId: e.jobId, type: e.type, data: e.data, createdAt: iso(e.createdAt)! };
}
