import { setTimeout as sleep } from 'node:timers/promises';
import { mkdirSync, readFileSync, rmSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { resolveCommand } from '../core/command.js';
import { formatDuration } from '../core/duration.js';
import { encodeFrame, FRAME } from '../core/frames.js';
import { jobId, parseJobId } from '../core/ids.js';
import type { JobRecord, JobStatus, SessionRecord } from '../core/records.js';
import { parseSignal, signalFromStatus, signalNumber } from '../core/signals.js';
import { isTerminal } from '../core/types.js';
import { AmuxError } from '../errors.js';
import { sessionPaths, startFile } from '../paths.js';
import { childrenOf, isAlive, processGroup, signalGroup, terminalForeground } from '../process/process-table.js';
import { buildJobScript, type JobMode } from '../shell/job-script.js';
import { paneTarget, typeJobArgs } from '../tmux/commands.js';
import type { DaemonContext } from './context.js';
import { readExitStatus } from './exit-files.js';
import { JOB_STREAM_CAP, JOB_STREAM_CHUNK, JOB_STREAM_KEEP, logExtent, pruneChunks, readLog } from './log-files.js';
import { jobView } from './views.js';

/** The body of `POST /v1/sessions/:ref/jobs`. */
export interface ExecRequest {
  command?: string;
  argv?: string[];
  background?: boolean;
  tty?: boolean;
  /** Milliseconds; the job is killed (TERM, grace, KILL) and ends `killed` with exit code 124. */
  timeoutMs?: number;
}

/**
 * A live reader holds a job's streams: the ring keeps every chunk until the reader has read it,
 * so a fast writer cannot overtake it. Past this many unread bytes the reader lets go (the disk is
 * not an unbounded buffer) and skips what is then dropped.
 */
const HOLD_LIMIT = 64 * 1024 * 1024;

export type JobStream = 'stdout' | 'stderr';

/** How long a typed job may take to be picked up by the shell. */
const START_TIMEOUT_MS = 10_000;
const TIMEOUT_GRACE_MS = 5000;
const MAX_TIMER_MS = 2 ** 31 - 1;
/** A background job whose process group is gone without an exit file gets this long to write one. */
const VANISH_GRACE_MS = 1000;
const PREFIX: Record<JobStream, string> = { stdout: 'out.', stderr: 'err.' };

export function streamDirOf(ctx: DaemonContext, sessionId: string, seq: number): string {
  return join(sessionPaths(ctx.paths, sessionId).jobsDir, String(seq));
}

/** The extent of a captured stream: total bytes written, and whether older ones were dropped. */
export function streamTotals(dir: string, stream: JobStream): { bytes: number; truncated: boolean; first: number } {
  const e = logExtent(dir, JOB_STREAM_CHUNK, PREFIX[stream]);
  return { bytes: e.end, truncated: e.end > JOB_STREAM_CAP, first: Math.max(e.first, e.end - JOB_STREAM_CAP) };
}

/**
 * `amux exec` (ADR 0009). Jobs are typed into the session's shell as ` __amux_next=N`; the rcfile
 * runs them from PROMPT_COMMAND. Foreground jobs of a session take turns (one queue per session,
 * held until the job ends); a background job needs the prompt only for the moment it is launched.
 * Starts and exits are reported by the shell in files under `exits/`, seen through the monitor's
 * inotify watch.
 */
export class Jobs {
  private readonly turns = new Map<string, Promise<void>>();
  /** Wakes the launch waiting for a job's start notice (the monitor saw the file). */
  private readonly starting = new Map<string, () => void>();
  private readonly killing = new Map<string, 'timeout' | 'kill'>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly vanished = new Map<string, number>();
  /** Sessions whose shell runs a foreground job of amux's (then a quiet shell is not at its prompt). */
  private readonly foreground = new Map<string, string>();
  /** Live readers per job (see HOLD_LIMIT): while there is one, `<streamDir>/hold` exists. */
  private readonly readers = new Map<string, number>();

  constructor(private readonly ctx: DaemonContext) {
    // A session that ends takes its running jobs with it.
    ctx.bus.on('change', (id: string) => this.onSessionChange(id));
  }

  /** At daemon start: finish jobs that ended while it was down, re-arm the timeouts of the others. */
  reconcile(): void {
    for (const j of this.ctx.store.runningJobs()) {
      const s = this.ctx.store.getSession(j.sessionId);
      if (!s || this.followsSession(s, j)) continue;
      if (isTerminal(s.status)) this.endWithSession(s, j);
      else if (!this.checkExit(j)) this.adopt(j);
    }
  }

  /**
   * A job that was running when the daemon started: its pid from its start notice; one that never
   * started (the daemon died between typing it and its start) fails; a foreground one holds its
   * session's turn again, so that nothing is typed into it.
   */
  private adopt(j: JobRecord): void {
    const start = this.readStart(j.sessionId, j.seq);
    if (start === null) {
      if (Date.now() - j.startedAt < START_TIMEOUT_MS) return void setTimeout(() => this.reconcile(), START_TIMEOUT_MS).unref();
      rmSync(sessionPaths(this.ctx.paths, j.sessionId).jobScript(j.seq), { force: true });
      this.finish(j, null, { status: 'failed', error: 'the daemon stopped before the shell started the job' });
      return;
    }
    if (j.background && !j.pid && Number(start)) this.ctx.store.updateJob(j.id, { pid: Number(start) });
    if (!j.background) {
      this.foreground.set(j.sessionId, j.id);
      if (!this.turns.has(j.sessionId)) this.turns.set(j.sessionId, this.waitEnded(j.id).then(() => undefined));
    }
    this.arm(this.ctx.store.getJob(j.id)!);
  }

  /** The content of a job's start notice (a pid, or `fg`), or null when there is none yet. */
  private readStart(sessionId: string, seq: number): string | null {
    try {
      const text = readFileSync(startFile(this.ctx.paths, sessionId, seq), 'latin1');
      return text.endsWith('\n') ? text.trim() : null; // whole only once it ends with its newline
    } catch {
      return null;
    }
  }

  /** Stops timers (daemon shutdown; timeouts are re-armed by the next daemon). */
  stop(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  /** Job 1 of a command session is its main command: its status follows the session's. */
  private followsSession(s: SessionRecord, j: JobRecord): boolean {
    return j.seq === 1 && s.hasCommand;
  }

  foregroundRunning(sessionId: string): boolean {
    return this.foreground.has(sessionId);
  }

  /** Resolves a job id to its record (removed sessions included). */
  get(ref: string): JobRecord {
    const parsed = parseJobId(ref);
    const j = parsed ? this.ctx.store.getJob(ref) : null;
    if (!j) throw new AmuxError('job_not_found', `no such job: ${ref} (see 'amux jobs ${parsed?.sessionId ?? 'ID'}')`);
    return j;
  }

  /** Checks an exec request; every problem is one clear line. */
  validate(req: ExecRequest) {
    if (!req || typeof req !== 'object') throw new AmuxError('invalid_argument', 'request body must be a JSON object');
    const command = resolveCommand(req);
    if (!command) throw new AmuxError('invalid_argument', 'exec needs a command: amux exec ID -- CMD');
    const background = req.background === true;
    const tty = req.tty === true;
    if (background && tty) throw new AmuxError('invalid_argument', '--tty runs a job on the terminal, which only a foreground job has; drop -b or --tty');
    const t = req.timeoutMs;
    if (t != null && (typeof t !== 'number' || !Number.isInteger(t) || t <= 0)) throw new AmuxError('invalid_argument', 'the timeout must be longer than 0 (timeoutMs: a positive integer of milliseconds)');
    const mode: JobMode = background ? 'background' : tty ? 'tty' : 'foreground';
    return { command, mode, timeoutMs: t ?? null };
  }

  /**
   * Starts a job and resolves once the shell has started it (a background job's pid is then
   * known). A foreground job keeps the session's turn until it ends; `abort` (the caller went
   * away) drops a job still waiting for its turn.
   */
  async exec(sessionId: string, req: ExecRequest, abort?: AbortSignal, hold = false): Promise<JobRecord> {
    const { command, mode, timeoutMs } = this.validate(req);
    this.assertOpen(this.ctx.store.getSession(sessionId)!);
    const release = await this.turn(sessionId);
    let started: JobRecord | null = null;
    try {
      if (abort?.aborted) throw new AmuxError('operation_failed', 'the request was cancelled before its turn');
      const s = this.ctx.store.getSession(sessionId)!;
      this.assertOpen(s);
      this.assertIdleShell(s);
      started = await this.launch(s, command, mode, timeoutMs, hold);
      return started;
    } finally {
      // A foreground job holds the turn until it ends; everything else gives it back now.
      if (started && mode !== 'background') void this.waitEnded(started.id).then(release);
      else release();
    }
  }

  /** Waits for the session's turn; resolves with the function that gives it back. */
  private async turn(sessionId: string): Promise<() => void> {
    const prev = this.turns.get(sessionId) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => {
      release = r;
    });
    const chained = prev.then(() => mine);
    this.turns.set(sessionId, chained);
    void chained.then(() => {
      if (this.turns.get(sessionId) === chained) this.turns.delete(sessionId);
    });
    await prev;
    return release;
  }

  private assertOpen(s: SessionRecord): void {
    if (s.removedAt) throw new AmuxError('session_not_found', `no such session: ${s.id}`);
    if (isTerminal(s.status)) {
      throw new AmuxError('invalid_state', `session ${s.id} has finished (${s.status}); jobs run only in a live session: start one with 'amux run'`);
    }
    if (s.status === 'pending' || !s.pid) throw new AmuxError('invalid_state', `session ${s.id} has not started yet (${s.status}); try again once it runs`);
    if (s.status === 'paused') throw new AmuxError('invalid_state', `session ${s.id} is paused; 'amux resume ${s.id}' first`);
  }

  /** "session busy": the shell runs something amux did not queue (its main command, or a typed command). */
  private assertIdleShell(s: SessionRecord): void {
    if (s.hasCommand && this.ctx.store.getJob(jobId(s.id, 1))?.status === 'running') {
      throw new AmuxError('invalid_state', `session ${s.id} is busy: its main command is still running; wait for it ('amux wait ${s.id}') or exec in a shell session`);
    }
    const fg = terminalForeground(s.pid!);
    if (fg !== null && fg !== s.pid) {
      throw new AmuxError('invalid_state', `session ${s.id} is busy: its shell is running a command that amux did not queue (typed in the terminal); wait until it is back at its prompt`);
    }
  }

  /**
   * Launches the job; with `hold`, its streams are held for a reader from its first byte (the
   * caller then passes `held` to streamFrames, which lets go).
   */
  private async launch(
    s: SessionRecord, command: { display: string; script: string }, mode: JobMode, timeoutMs: number | null, hold: boolean,
  ): Promise<JobRecord> {
    const { ctx } = this;
    const seq = ctx.store.nextJobSeq(s.id);
    const id = jobId(s.id, seq);
    const dir = streamDirOf(ctx, s.id, seq);
    const script = sessionPaths(ctx.paths, s.id).jobScript(seq);
    const now = Date.now();
    const record: JobRecord = {
      id, sessionId: s.id, seq, command: command.display, background: mode === 'background', status: 'running',
      exitCode: null, signal: null, pid: null, startedAt: now, endedAt: null, tty: mode === 'tty', timeoutMs,
      error: null, stdoutBytes: mode === 'tty' ? null : 0, stderrBytes: mode === 'tty' ? null : 0,
      stdoutTruncated: false, stderrTruncated: false,
    };
    if (mode !== 'tty') mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (hold && mode !== 'tty') this.hold(id, dir);
    writeFileSync(script, buildJobScript({ seq, mode, script: command.script, streamDir: dir }), { mode: 0o600 });
    ctx.store.tx(() => {
      ctx.store.insertJob(record);
      ctx.store.addEvent({
        sessionId: s.id, jobId: id, type: 'job_started',
        data: { seq, command: command.display, background: record.background, tty: record.tty, ...(timeoutMs ? { timeoutMs } : {}) },
        createdAt: now,
      });
    });
    if (mode !== 'background') this.foreground.set(s.id, id);
    let start: string | null;
    try {
      await ctx.tmux.run(typeJobArgs(paneTarget(s.id), seq));
      start = await this.awaitStart(s.id, seq);
      if (start === null) throw new AmuxError('operation_failed', `session ${s.id}: its shell did not start job ${id} within ${START_TIMEOUT_MS / 1000} s; is something running in it? ('amux logs ${s.id} --screen')`);
    } catch (err) {
      rmSync(script, { force: true }); // a late prompt must not run it after all
      if (hold && mode !== 'tty') this.release(id, dir);
      this.finish(ctx.store.getJob(id)!, null, { status: 'failed', error: (err as Error).message });
      throw err;
    }
    const pid = mode === 'background' ? Number(start) || null : null;
    if (pid) ctx.store.updateJob(id, { pid });
    const job = ctx.store.getJob(id)!;
    if (job.status === 'running') this.arm(job);
    return job;
  }

  /**
   * The start notice (readStart) once the shell wrote it; null after START_TIMEOUT_MS. Woken by
   * the monitor's inotify watch, polled every 50 ms as a fallback.
   */
  private async awaitStart(sessionId: string, seq: number): Promise<string | null> {
    const id = jobId(sessionId, seq);
    const deadline = Date.now() + START_TIMEOUT_MS;
    try {
      for (;;) {
        const start = this.readStart(sessionId, seq);
        if (start !== null || Date.now() >= deadline) return start;
        await new Promise<void>((wake) => {
          this.starting.set(id, wake);
          setTimeout(wake, 50);
        });
      }
    } finally {
      this.starting.delete(id);
    }
  }

  /** The monitor saw `exits/<sid>.<seq>.start`. */
  onStartFile(sessionId: string, seq: number): void {
    this.starting.get(jobId(sessionId, seq))?.();
  }

  /** The monitor saw `exits/<sid>.<seq>` (seq > 1, or 1 of a shell session). */
  onExitFile(sessionId: string, seq: number): void {
    const j = this.ctx.store.getJob(jobId(sessionId, seq));
    if (j && j.status === 'running') this.checkExit(j);
  }

  /** Finishes `j` when its exit file is there; true when it did. */
  private checkExit(j: JobRecord): boolean {
    const code = readExitStatus(this.ctx, j.sessionId, j.seq);
    if (code === null) return false;
    this.finish(j, code);
    return true;
  }

  /**
   * The monitor's periodic pass (the fallback when inotify is missing, and the only way to see a
   * background job whose subshell was killed from outside): exits, and vanished process groups.
   */
  sweep(): void {
    const now = Date.now();
    for (const j of this.ctx.store.runningJobs()) {
      const s = this.ctx.store.getSession(j.sessionId);
      if (!s || this.followsSession(s, j) || this.checkExit(j)) continue;
      if (!j.background || !j.pid || isAlive(j.pid) || signalGroup(j.pid, 0)) {
        this.vanished.delete(j.id);
        continue;
      }
      const since = this.vanished.get(j.id) ?? now;
      this.vanished.set(j.id, since);
      if (now - since >= VANISH_GRACE_MS && !this.checkExit(j)) {
        this.finish(j, null, { status: 'failed', error: 'its process exited without reporting a status (killed from outside amux?)' });
      }
    }
  }

  /**
   * Writes a job's end: status from its exit code (or `over`), stream totals, `job_finished`.
   * A job amux killed is `killed`; one killed by its timeout exits 124.
   */
  finish(j: JobRecord, code: number | null, over?: { status: JobStatus; error: string }): JobRecord {
    const { ctx } = this;
    const cur = ctx.store.getJob(j.id);
    if (!cur || cur.status !== 'running') return cur ?? j;
    const killedBy = this.killing.get(j.id);
    const now = Date.now();
    let status: JobStatus = over?.status ?? (code === 0 ? 'completed' : 'failed');
    let exitCode = code;
    let error = over?.error ?? (code !== null && code !== 0 ? `exited with code ${code}` : null);
    if (killedBy) {
      status = 'killed';
      if (killedBy === 'timeout') {
        exitCode = 124;
        error = `timed out after ${formatDuration(cur.timeoutMs ?? 0)}`;
      } else error = 'killed by amux kill';
    }
    const patch: Partial<JobRecord> = { status, exitCode, signal: code === null ? null : signalFromStatus(code), endedAt: now, error };
    if (!cur.tty) {
      const dir = streamDirOf(ctx, j.sessionId, j.seq);
      const out = streamTotals(dir, 'stdout');
      const err = streamTotals(dir, 'stderr');
      Object.assign(patch, { stdoutBytes: out.bytes, stderrBytes: err.bytes, stdoutTruncated: out.truncated, stderrTruncated: err.truncated });
    }
    ctx.store.tx(() => {
      ctx.store.updateJob(j.id, patch);
      ctx.store.addEvent({
        sessionId: j.sessionId, jobId: j.id, type: 'job_finished',
        data: { status, exitCode, ...(patch.signal ? { signal: patch.signal } : {}), ...(error ? { error } : {}) },
        createdAt: now,
      });
    });
    const t = this.timers.get(j.id);
    if (t) clearTimeout(t);
    this.timers.delete(j.id);
    this.killing.delete(j.id);
    this.vanished.delete(j.id);
    if (this.foreground.get(j.sessionId) === j.id) this.foreground.delete(j.sessionId);
    ctx.bus.emit('job', j.id);
    ctx.bus.emit('change', j.sessionId);
    return { ...cur, ...patch };
  }

  private onSessionChange(id: string): void {
    const s = this.ctx.store.getSession(id);
    if (!s || !isTerminal(s.status)) return;
    for (const j of this.ctx.store.listJobs(id, { statuses: ['running'] })) {
      if (!this.followsSession(s, j)) this.endWithSession(s, j);
    }
  }

  /** The session ended under a running job: its real exit if the shell wrote one, else it ended with the session. */
  private endWithSession(s: SessionRecord, j: JobRecord): void {
    if (this.checkExit(j)) return;
    // A background job must not outlive its session (nothing could reach it afterwards): TERM
    // now, KILL a moment later, as \`amux kill\` does.
    if (j.background && j.pid && signalGroup(j.pid, 'SIGTERM')) {
      setTimeout(() => signalGroup(j.pid!, 'SIGKILL'), 2000).unref();
      this.finish(j, null, { status: 'killed', error: `the session ended (${s.status}); amux ended the job with it` });
      return;
    }
    const killed = s.status === 'stopped' || s.status === 'expired';
    this.finish(j, null, { status: killed ? 'killed' : 'failed', error: `the session ended (${s.status}) while the job ran` });
  }

  /** Resolves when the job is no longer running. */
  waitEnded(id: string): Promise<JobRecord> {
    return new Promise((resolve) => {
      const check = () => {
        const j = this.ctx.store.getJob(id);
        if (!j || j.status !== 'running') {
          this.ctx.bus.off('job', onJob);
          resolve(j!);
          return true;
        }
        return false;
      };
      const onJob = (jid: string) => {
        if (jid === id) check();
      };
      this.ctx.bus.on('job', onJob);
      check();
    });
  }

  private arm(j: JobRecord): void {
    if (!j.timeoutMs || this.timers.has(j.id)) return;
    const left = Math.max(0, j.startedAt + j.timeoutMs - Date.now());
    const t = setTimeout(() => {
      this.timers.delete(j.id);
      // Node fires timers of more than 2^31-1 ms at once: long timeouts go in steps.
      if (left > MAX_TIMER_MS) return this.arm(j);
      const cur = this.ctx.store.getJob(j.id);
      if (cur?.status === 'running') this.kill(cur, 'TERM', TIMEOUT_GRACE_MS, 'timeout').catch(() => undefined);
    }, Math.min(left, MAX_TIMER_MS));
    t.unref();
    this.timers.set(j.id, t);
  }

  /**
   * Kills one job, not its session: a background job's process group, or the process group that
   * owns the terminal while a foreground job runs (the shell survives). `signal` first; a job
   * still running after `graceMs` is interrupted and then killed with SIGKILL.
   */
  async kill(j: JobRecord, signalName: string, graceMs: number, reason: 'timeout' | 'kill' = 'kill'): Promise<JobRecord> {
    const signal = parseSignal(signalName) as NodeJS.Signals;
    if (j.status !== 'running') return j;
    const s = this.ctx.store.getSession(j.sessionId);
    if (!s?.pid) return j;
    this.killing.set(j.id, reason);
    const running = () => this.ctx.store.getJob(j.id)?.status === 'running';
    const hit = (sig: NodeJS.Signals, seen: Set<number>) => {
      if (j.background) return j.pid ? signalGroup(j.pid, sig) : false;
      const fg = terminalForeground(s.pid!);
      if (fg === null || !running()) return false;
      // SIGINT to the shell first: when the job's process dies, bash then abandons the rest of the
      // job's command list (as after Ctrl-C) instead of going on with its next command. A job that
      // is a builtin (a loop, \`read\`) runs in the shell itself, and the SIGINT interrupts it.
      try {
        process.kill(s.pid!, 'SIGINT');
      } catch {
        return false;
      }
      // Other process groups among the shell's children: what the job started with \`&\` (holding its
      // output open), or the job itself when it is stopped (Ctrl-Z), woken to receive the signal.
      for (const g of this.childGroups(s.pid!)) {
        signalGroup(g, sig);
        signalGroup(g, 'SIGCONT');
        seen.add(g);
      }
      if (fg === s.pid) return true;
      seen.add(fg);
      return signalGroup(fg, sig);
    };
    const seen = new Set<number>();
    hit(signal, seen);
    const deadline = Date.now() + graceMs;
    while (running() && Date.now() < deadline) {
      await sleep(20);
      if (this.checkExit(j)) break;
      // A process group that started meanwhile (the job went on to its next command) gets it too.
      if (!j.background) {
        const fg = terminalForeground(s.pid);
        if (fg !== null && fg !== s.pid && !seen.has(fg)) hit(signal, seen);
      } else if (j.pid && !signalGroup(j.pid, 0)) break;
    }
    if (running()) hit('SIGKILL', seen);
    const until = Date.now() + 1000;
    while (running() && Date.now() < until) {
      await sleep(20);
      if (this.checkExit(j)) break;
    }
    if (running()) {
      // Nothing wrote an exit status (the background subshell itself was killed): amux records one.
      const sig = j.pid && signalGroup(j.pid, 0) ? 'SIGKILL' : signal;
      return this.finish(this.ctx.store.getJob(j.id)!, 128 + signalNumber(sig));
    }
    return this.ctx.store.getJob(j.id)!;
  }

  /**
   * Process groups of the shell's children, except the shell's own (the capture pipelines) and
   * those of amux's background jobs (they are jobs of their own).
   */
  private childGroups(shellPid: number): number[] {
    const mine = new Set(this.ctx.store.runningJobs().filter((x) => x.background && x.pid).map((x) => x.pid!));
    const groups = new Set<number>();
    for (const c of childrenOf(shellPid)) {
      const g = processGroup(c);
      if (g !== null && g !== shellPid && !mine.has(g)) groups.add(g);
    }
    return [...groups];
  }

  /**
   * Streams a captured job's output as frames until it ends (`follow`), or what is kept now:
   * a start frame (the job), stdout and stderr frames as they are written, an end frame (the job
   * as it ended). Bytes dropped from the ring before they were read are skipped.
   */
  async streamFrames(
    j: JobRecord, res: ServerResponse, follow: boolean, streams: readonly JobStream[] = ['stdout', 'stderr'], held = false,
  ): Promise<void> {
    const dir = streamDirOf(this.ctx, j.sessionId, j.seq);
    let holding = held;
    if (!held && follow && j.status === 'running') {
      this.hold(j.id, dir);
      holding = true;
    }
    try {
      await this.writeFrames(j, dir, res, follow, streams, held, () => {
        if (holding) this.release(j.id, dir);
        holding = false;
      });
    } finally {
      if (holding) this.release(j.id, dir);
    }
  }

  /** Takes a reader's hold on a job's streams. */
  private hold(id: string, dir: string): void {
    const n = (this.readers.get(id) ?? 0) + 1;
    this.readers.set(id, n);
    if (n === 1) writeFileSync(join(dir, 'hold'), '', { mode: 0o600 });
  }

  /** Lets go of a hold; the last reader out prunes the streams back to their cap. */
  private release(id: string, dir: string): void {
    const n = (this.readers.get(id) ?? 1) - 1;
    if (n > 0) {
      this.readers.set(id, n);
      return;
    }
    this.readers.delete(id);
    rmSync(join(dir, 'hold'), { force: true });
    for (const st of ['stdout', 'stderr'] as const) pruneChunks(dir, PREFIX[st], JOB_STREAM_KEEP);
  }

  private async writeFrames(
    j: JobRecord, dir: string, res: ServerResponse, follow: boolean, streams: readonly JobStream[],
    fromStart: boolean, letGo: () => void,
  ): Promise<void> {
    res.useChunkedEncodingByDefault = false;
    res.shouldKeepAlive = false;
    res.writeHead(200, { 'content-type': 'application/vnd.amux.frames' });
    let closed = false;
    res.on('close', () => {
      closed = true;
    });
    const write = async (b: Buffer) => {
      if (closed) return;
      if (res.write(b)) return;
      await new Promise<void>((r) => {
        const done = () => {
          res.off('drain', done).off('close', done);
          r();
        };
        res.on('drain', done).on('close', done);
      });
    };
    await write(encodeFrame(FRAME.start, Buffer.from(JSON.stringify(jobView(j)))));
    const offsets: Record<JobStream, number> = { stdout: 0, stderr: 0 };
    // A reader held from the job's start reads every byte; one that comes later, the kept tail.
    for (const st of streams) offsets[st] = fromStart ? logExtent(dir, JOB_STREAM_CHUNK, PREFIX[st]).first : streamTotals(dir, st).first;
    let wake: (() => void) | null = null;
    const onJob = (id: string) => {
      if (id === j.id) wake?.();
    };
    let watcher: FSWatcher | null = null;
    if (follow) {
      this.ctx.bus.on('job', onJob);
      try {
        watcher = watch(dir, () => wake?.());
        watcher.on('error', () => undefined);
      } catch {
        /* polled below */
      }
    }
    try {
      for (;;) {
        const ended = this.ctx.store.getJob(j.id)?.status !== 'running';
        // Read after looking at the status: once it ended, its streams were complete (the shell
        // drains them before it writes the exit status), so this read is the last one.
        for (const st of streams) {
          if (streamTotals(dir, st).bytes - offsets[st] > HOLD_LIMIT) letGo();
          for (;;) {
            const r = readLog(dir, JOB_STREAM_CHUNK, offsets[st], 256 * 1024, PREFIX[st]);
            offsets[st] = Math.max(r.nextOffset, offsets[st]);
            if (r.data.length === 0) break;
            await write(encodeFrame(FRAME[st], r.data));
          }
        }
        if (ended || !follow || closed) break;
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, 100);
        });
        wake = null;
      }
    } finally {
      this.ctx.bus.off('job', onJob);
      watcher?.close();
    }
    await write(encodeFrame(FRAME.end, Buffer.from(JSON.stringify(jobView(this.ctx.store.getJob(j.id)!)))));
    res.end();
  }

  /** The newest kept bytes of one captured stream, from `sinceOffset`, at most `limit`. */
  readStream(j: JobRecord, stream: JobStream, sinceOffset: number, limit: number) {
    const dir = streamDirOf(this.ctx, j.sessionId, j.seq);
    const t = streamTotals(dir, stream);
    const r = readLog(dir, JOB_STREAM_CHUNK, Math.max(sinceOffset, t.first), limit, PREFIX[stream]);
    return { data: r.data, offset: r.offset, nextOffset: r.nextOffset, total: t.bytes, truncated: t.truncated };
  }
}
