import { watch, type FSWatcher } from 'node:fs';
import { isMainJob } from '../../core/job-end.js';
import type { DaemonContext } from '../context.js';
import type { JobWatch } from '../job/watch.js';
import { mainExit, parseExitFileName } from '../output/exit-files.js';
import { logBytes, logPatch } from '../output/log-size.js';
import { isSessionLocked } from '../session/lock.js';
import { applyDecision, mainExitDecision } from '../session/transitions.js';
import { logLine } from '../log.js';

/**
 * Exits are seen at once, not polled (ADR 0004): an inotify watch on `exits/`, where the shells
 * write a job's start notice and exit status and their own exit. A main command's exit finishes
 * its session; other jobs' files go to the job watch; a shell's exit asks for a refresh.
 */
export class ExitWatch {
  private watcher: FSWatcher | null = null;

  constructor(private readonly ctx: DaemonContext, private readonly jobs: JobWatch, private readonly refresh: (id: string) => void) {}

  start(): void {
    try {
      this.watcher = watch(this.ctx.paths.exitsDir, (_event, file) => {
        if (file) this.onFile(String(file));
      });
      this.watcher.on('error', () => undefined);
    } catch (err) {
      // No inotify (e.g. all watches used): exits are still found by the refresh, within ~2 s.
      logLine(`cannot watch ${this.ctx.paths.exitsDir} (${(err as Error).message}); exits are seen by polling`);
    }
  }

  stop(): void {
    this.watcher?.close();
  }

  private onFile(name: string): void {
    const ref = parseExitFileName(name);
    if (!ref) return;
    if (ref.start) return this.jobs.onStartFile(ref.id, ref.seq);
    // The shell itself exited: a refresh of its session sees the dead pane now rather than at the next tick.
    if (ref.seq === 0) return this.refresh(ref.id);
    const s = this.ctx.store.getSession(ref.id);
    if (s && !isMainJob(s, ref.seq)) return this.jobs.onExitFile(ref.id, ref.seq);
    // A paused session's exit is seen when it is resumed (paused → completed is not a transition).
    if (!s || (s.status !== 'working' && s.status !== 'idle')) return;
    if (isSessionLocked(s.id)) return;
    const code = mainExit(this.ctx, s);
    if (code === null) return;
    this.ctx.store.updateSession(s.id, logPatch(this.ctx, s, logBytes(this.ctx, s)));
    applyDecision(this.ctx, s, mainExitDecision(this.ctx, s, code));
  }
}
