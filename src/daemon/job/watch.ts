import { rmSync } from 'node:fs';
import { jobId } from '../../core/ids.js';
import { isMainJob } from '../../core/job-end.js';
import type { JobRecord, SessionRecord } from '../../core/records.js';
import { isTerminal } from '../../core/status.js';
import { sessionPaths } from '../../paths.js';
import { isAlive, signalGroup } from '../../process/process-table.js';
import { DEFAULT_GRACE_MS, terminate } from '../../process/terminate.js';
import type { DaemonContext } from '../context.js';
import { exitTime, readExitStatus, readStartNotice } from '../output/exit-files.js';
import { START_TIMEOUT_MS } from './launch.js';
import type { JobState } from './state.js';
import type { Turns } from './turns.js';

/** A background job whose process group is gone without an exit file gets this long to write one. */
const VANISH_GRACE_MS = 1000;

/**
 * How jobs end (ADR 0009): their exit files (seen through the exit watch's inotify, or the
 * monitor's periodic sweep), a background job's process group vanishing, their session ending,
 * and, at daemon start, what happened while no daemon watched.
 */
export class JobWatch {
  /** Background jobs seen without a process group, since when. */
  private readonly vanished = new Map<string, number>();

  constructor(private readonly ctx: DaemonContext, private readonly state: JobState, private readonly turns: Turns) {
    // A session that ends takes its running jobs with it.
    ctx.bus.on('change', (id: string) => this.onSessionChange(id));
  }

  /** At daemon start: finish jobs that ended while it was down; adopt the others. */
  reconcile(): void {
    for (const j of this.ctx.store.runningJobs()) {
      const s = this.ctx.store.getSession(j.sessionId);
      if (!s || isMainJob(s, j.seq)) continue;
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
    const start = readStartNotice(this.ctx, j.sessionId, j.seq);
    if (start === null) {
      if (Date.now() - j.startedAt < START_TIMEOUT_MS) return void setTimeout(() => this.reconcile(), START_TIMEOUT_MS).unref();
      rmSync(sessionPaths(this.ctx.paths, j.sessionId).jobScript(j.seq), { force: true });
      this.state.finish(j, { kind: 'start_lost' });
      return;
    }
    if (j.background && !j.pid && Number(start)) this.ctx.store.updateJob(j.id, { pid: Number(start) });
    if (!j.background) {
      this.state.setForeground(j.sessionId, j.id);
      this.turns.holdUntil(j.sessionId, this.state.waitEnded(j.id));
    }
  }

  /** The exit watch saw `exits/<sid>.<seq>.start`. */
  onStartFile(sessionId: string, seq: number): void {
    this.state.started(jobId(sessionId, seq));
  }

  /** The exit watch saw `exits/<sid>.<seq>` of a job other than a main command. */
  onExitFile(sessionId: string, seq: number): void {
    const j = this.ctx.store.getJob(jobId(sessionId, seq));
    if (j && j.status === 'running') this.checkExit(j);
  }

  /** Finishes `j` when its exit file is there; true when it did. */
  checkExit(j: JobRecord): boolean {
    const code = readExitStatus(this.ctx, j.sessionId, j.seq);
    if (code === null) return false;
    // A background job killed by a signal after its session ended was ended with it (the reap of
    // ADR 0027 may get there before the session's end is applied to its jobs): `killed`, as below.
    const s = j.background && code > 128 ? this.ctx.store.getSession(j.sessionId) : null;
    if (s && isTerminal(s.status)) {
      this.state.finish(j, { kind: 'session_ended', session: s.status, terminated: true });
      return true;
    }
    this.state.finish(j, { kind: 'exited', code }, exitTime(this.ctx, j.sessionId, j.seq));
    return true;
  }

  /**
   * The monitor's periodic pass (the fallback when inotify is missing, and the only way to see a
   * background job whose subshell was killed from outside): exits, and vanished process groups.
   */
  sweep(): void {
    const now = Date.now();
    const running = new Set<string>();
    for (const j of this.ctx.store.runningJobs()) {
      running.add(j.id);
      const s = this.ctx.store.getSession(j.sessionId);
      if (!s || isMainJob(s, j.seq) || this.checkExit(j)) continue;
      if (!j.background || !j.pid || isAlive(j.pid) || signalGroup(j.pid, 0)) {
        this.vanished.delete(j.id);
        continue;
      }
      const since = this.vanished.get(j.id) ?? now;
      this.vanished.set(j.id, since);
      if (now - since >= VANISH_GRACE_MS && !this.checkExit(j)) this.state.finish(j, { kind: 'vanished' });
    }
    for (const id of this.vanished.keys()) if (!running.has(id)) this.vanished.delete(id);
  }

  private onSessionChange(id: string): void {
    const s = this.ctx.store.getSession(id);
    if (!s || !isTerminal(s.status)) return;
    for (const j of this.ctx.store.listJobs(id, { statuses: ['running'] })) {
      if (!isMainJob(s, j.seq)) this.endWithSession(s, j);
    }
  }

  /** The session ended under a running job: its real exit if the shell wrote one, else it ended with the session. */
  private endWithSession(s: SessionRecord, j: JobRecord): void {
    if (this.checkExit(j)) return;
    // A background job must not outlive its session (nothing could reach it afterwards): it is
    // terminated as `amux kill` would, and ends now.
    const group = j.background ? j.pid : null;
    const terminated = group !== null && signalGroup(group, 0);
    if (terminated) {
      void terminate({ signal: (sig) => signalGroup(group, sig), ended: () => !signalGroup(group, 0) }, { signal: 'SIGTERM', graceMs: DEFAULT_GRACE_MS });
    }
    this.state.finish(j, { kind: 'session_ended', session: s.status, terminated });
  }
}
