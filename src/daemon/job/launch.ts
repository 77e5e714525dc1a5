import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { jobId } from '../../core/ids.js';
import type { ResolvedCommand } from '../../core/command.js';
import type { JobRecord, SessionRecord } from '../../core/records.js';
import { AmuxError } from '../../errors.js';
import { sessionPaths } from '../../paths.js';
import { terminalForeground } from '../../process/process-table.js';
import { buildJobScript, type JobMode } from '../../shell/job-script.js';
import { runtimeOf, type DaemonContext } from '../context.js';
import { readStartNotice } from '../output/exit-files.js';
import { runningSession } from '../session/guards.js';
import { handOver } from './hand-over.js';
import { releaseCapture, takePrepared } from './prepared.js';
import type { JobState } from './state.js';
import type { JobStdin } from './stdin.js';
import { streamDirOf, type JobStreams } from './streams.js';
import type { Turns } from './turns.js';
import { clearOnInput } from '../session/attention.js';
import { logBytes } from '../output/log-size.js';

/** A checked exec request (api/validate.ts). */
export interface JobSpec {
  command: ResolvedCommand;
  mode: JobMode;
  timeoutMs: number | null;
  /** Foreground captured jobs only: stdin comes from `POST /v1/jobs/{id}/stdin` (ADR 0017), not the terminal. */
  stdin: boolean;
}

/** How long a typed job may take to be picked up by the shell. */
export const START_TIMEOUT_MS = 10_000;

export interface LaunchParts {
  ctx: DaemonContext;
  state: JobState;
  turns: Turns;
  streams: JobStreams;
  stdin: JobStdin;
}

/**
 * `amux exec` (ADR 0009): starts a job and resolves once the shell has started it (a background
 * job's pid is then known). A foreground job keeps the session's turn until it ends; `abort` (the
 * caller went away) drops a job still waiting for its turn. With `hold`, its streams are held for
 * a reader from its first byte (the reader's frames let go).
 */
export async function execJob(p: LaunchParts, sessionId: string, spec: JobSpec, abort?: AbortSignal, hold = false): Promise<JobRecord> {
  runningSession(p.ctx, sessionId, 'exec');
  const release = await p.turns.take(sessionId);
  let started: JobRecord | null = null;
  try {
    const s = runningSession(p.ctx, sessionId, 'exec');
    if (abort?.aborted) {
      // Nothing a client asked for vanishes: the job that never ran is recorded, with its event.
      recordCancelled(p, s, spec);
      throw new AmuxError('operation_failed', 'the request was cancelled before its turn');
    }
    assertIdleShell(p, s);
    const before = logBytes(p.ctx, s);
    started = await launch(p, s, spec, hold);
    clearOnInput(p.ctx, s.id, Date.now(), before); // a job typed into the shell is input (ADR 0034)
    return started;
  } finally {
    // A foreground job holds the turn until it ends; everything else gives it back now.
    if (started && spec.mode !== 'background') void p.state.waitEnded(started.id).then(release);
    else release();
  }
}

/** The row of job `seq` as it starts to run. */
function jobRecord(sessionId: string, seq: number, spec: JobSpec, now: number): JobRecord {
  const captured = spec.mode !== 'tty';
  return {
    id: jobId(sessionId, seq), sessionId, seq, command: spec.command.display, background: spec.mode === 'background', status: 'running',
    exitCode: null, signal: null, pid: null, startedAt: now, endedAt: null, tty: !captured, timeoutMs: spec.timeoutMs,
    error: null, stdoutBytes: captured ? 0 : null, stderrBytes: captured ? 0 : null, stdoutTruncated: false, stderrTruncated: false,
  };
}

/** A job whose caller went away while it waited for its turn: `killed`, never started, with a `job_finished` event. */
function recordCancelled(p: LaunchParts, s: SessionRecord, spec: JobSpec): void {
  const { ctx } = p;
  const now = Date.now();
  const error = 'cancelled before it started: its client went away while it waited for its turn';
  const record = { ...jobRecord(s.id, ctx.store.nextJobSeq(s.id), spec, now), status: 'killed' as const, endedAt: now, error };
  ctx.store.tx(() => {
    ctx.store.insertJob(record);
    ctx.store.addEvent({ sessionId: s.id, jobId: record.id, type: 'job_finished', data: { status: 'killed', exitCode: null, error }, createdAt: now });
  });
  ctx.bus.emit('change', s.id);
}

/** "session busy": the shell runs something amux did not queue (its main command, or a typed command). */
function assertIdleShell(p: LaunchParts, s: SessionRecord): void {
  if (s.hasCommand && p.ctx.store.getJob(jobId(s.id, 1))?.status === 'running') {
    throw new AmuxError('invalid_state', `session ${s.id} is busy: its main command is still running; wait for it ('amux wait ${s.id}') or exec in a shell session`);
  }
  const fg = terminalForeground(s.pid!);
  if (fg !== null && fg !== s.pid) {
    throw new AmuxError('invalid_state', `session ${s.id} is busy: its shell is running a command that amux did not queue (typed in the terminal); wait until it is back at its prompt`);
  }
}

async function launch(p: LaunchParts, s: SessionRecord, spec: JobSpec, hold: boolean): Promise<JobRecord> {
  const { ctx, state } = p;
  const { command, mode, timeoutMs } = spec;
  const seq = ctx.store.nextJobSeq(s.id);
  const id = jobId(s.id, seq);
  const dir = streamDirOf(ctx, s.id, seq);
  const script = sessionPaths(ctx.paths, s.id).jobScript(seq);
  const now = Date.now();
  const captured = mode !== 'tty';
  const record = jobRecord(s.id, seq, spec, now);
  // A foreground job takes the capture its shell prepared, when one is ready (ADR 0026).
  const rt = runtimeOf(ctx, s.id);
  const prepared = mode === 'foreground' && (await takePrepared(sessionPaths(ctx.paths, s.id).jobsDir, dir, rt.preparing === true));
  // After this job the shell prepares the next one's capture; none came though expected: it does not.
  rt.preparing = mode === 'foreground' && (prepared || rt.preparing !== true);
  if (captured && !prepared) mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Made and opened before the job is typed: the shell's open of its read end then never blocks.
  const stdinFifo = spec.stdin && mode === 'foreground' ? await p.stdin.open(id, dir) : undefined;
  if (hold && captured) p.streams.hold(record);
  try {
    writeFileSync(script, buildJobScript({ seq, mode, script: command.script, streamDir: dir, stdinFifo, prepared }), { mode: 0o600 });
    ctx.store.tx(() => {
      ctx.store.insertJob(record);
      ctx.store.addEvent({
        sessionId: s.id, jobId: id, type: 'job_started',
        data: { seq, command: command.display, background: record.background, tty: record.tty, ...(timeoutMs ? { timeoutMs } : {}), ...(stdinFifo ? { stdin: true } : {}) },
        createdAt: now,
      });
    });
  } catch (err) {
    p.stdin.close(id);
    if (prepared) releaseCapture(dir);
    throw err;
  }
  if (mode !== 'background') state.setForeground(s.id, id);
  let start: string | null;
  try {
    await handOver(ctx, s.id, seq);
    start = await awaitStart(p, s.id, seq);
    if (start === null) throw new AmuxError('operation_failed', `session ${s.id}: its shell did not start job ${id} within ${START_TIMEOUT_MS / 1000} s; is something running in it? ('amux logs ${s.id} --screen')`);
  } catch (err) {
    rmSync(script, { force: true }); // a late prompt must not run it after all
    if (hold && captured) p.streams.release(record);
    state.finish(ctx.store.getJob(id)!, { kind: 'not_started', error: (err as Error).message });
    p.stdin.close(id);
    if (prepared) releaseCapture(dir);
    throw err;
  }
  // The shell holds the read end of the job's stdin now: closing the daemon's end is an EOF, not a loss.
  if (stdinFifo) p.stdin.started(id);
  const pid = mode === 'background' ? Number(start) || null : null;
  if (pid && ctx.store.getJob(id)?.status === 'running') ctx.store.updateJob(id, { pid });
  return ctx.store.getJob(id)!;
}

/**
 * The start notice once the shell wrote it; null after START_TIMEOUT_MS. Woken by the exit
 * watch (inotify), polled every 50 ms as a fallback. A job that has already ended started: its
 * notice went with its plumbing (plumbing.ts), so its content is not known ('').
 */
async function awaitStart(p: LaunchParts, sessionId: string, seq: number): Promise<string | null> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const start = readStartNotice(p.ctx, sessionId, seq) ?? (p.ctx.store.getJob(jobId(sessionId, seq))?.status === 'running' ? null : '');
    if (start !== null || Date.now() >= deadline) return start;
    await p.state.awaitStartNotice(jobId(sessionId, seq), 50);
  }
}
