import cp from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { basename, join } from 'node:path';
import { resolveSettings } from '../../src/core/settings.js';
import { createContext, type DaemonContext } from '../../src/daemon/context.js';
import { parseCreate } from '../../src/daemon/api/validate.js';
import { Jobs } from '../../src/daemon/job/jobs.js';
import { Monitor } from '../../src/daemon/monitor/monitor.js';
import { createSession } from '../../src/daemon/session/create.js';
import { Queue } from '../../src/daemon/session/queue.js';
import { amuxPaths } from '../../src/paths.js';
import { listPanesArgs } from '../../src/tmux/commands.js';
import type { BenchHome } from './homes.js';
import { benchEnv, isAborted, pool, runOk, sleep, stats, type Stats } from './measure.js';

/**
 * Counts every child process this process spawns, by program name. execa (used by Tmux) calls
 * child_process.spawn; syncBuiltinESMExports makes ESM importers see the wrapper.
 */
export function installSpawnCounter(): { counts: Map<string, number>; total: () => number } {
  const counts = new Map<string, number>();
  const original = cp.spawn;
  const wrapped = function (this: unknown, ...args: unknown[]) {
    const name = basename(String(args[0]));
    counts.set(name, (counts.get(name) ?? 0) + 1);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  };
  (cp as unknown as { spawn: unknown }).spawn = wrapped;
  syncBuiltinESMExports();
  return { counts, total: () => [...counts.values()].reduce((a, b) => a + b, 0) };
}

/** A daemon context built exactly as src/daemon/main.ts does, over the bench home. */
export function buildContext(dir: string): DaemonContext {
  return createContext(amuxPaths(dir), resolveSettings({}, process.env));
}

export interface RefreshStats {
  sessions: number;
  ms: Stats;
  /** Child processes per refresh: all programs (max over runs), and tmux alone. */
  spawnsMax: number;
  tmuxSpawnsMax: number;
  byProgram: Record<string, number>;
  /** Median number of sessions whose fingerprint changed (so their pane was captured). */
  recaptured: number;
}

/** In-process status refreshes of every live session of `ctx`, with and without output changes. */
/** quiet: nothing changed; changed: every cursor moved; redrawn: every log grew, nothing moved. */
export type RefreshMode = 'quiet' | 'changed' | 'redrawn';

export class RefreshBench {
  readonly ctx: DaemonContext;
  readonly monitor: Monitor;
  private readonly queue: Queue;
  private readonly spawns = installSpawnCounter();

  constructor(private readonly home: BenchHome) {
    this.ctx = buildContext(home.dir);
    this.monitor = new Monitor(this.ctx, new Jobs(this.ctx));
    this.queue = new Queue(this.ctx);
  }

  /** Creates sessions through createSession until `target` exist, `concurrency` at a time. */
  async grow(target: number, concurrency: number): Promise<number> {
    const t0 = performance.now();
    const have = this.ctx.store.listSessions().length;
    await pool(Math.max(0, target - have), concurrency, () =>
      createSession(this.ctx, this.queue, parseCreate({ command: 'sleep 3600', cwd: '/tmp', env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } })),
    );
    return performance.now() - t0;
  }

  /** `quiet`: nothing changed since the last refresh. `changed`: a key typed into every pane first. */
  async measure(runs: number, mode: RefreshMode): Promise<RefreshStats> {
    // The first refresh after creation captures every pane (baseline); settle before timing.
    await this.monitor.refresh();
    await this.monitor.refresh();
    const ms: number[] = [];
    const recaptured: number[] = [];
    let spawnsMax = 0;
    let tmuxSpawnsMax = 0;
    const byProgram: Record<string, number> = {};
    for (let i = 0; i < runs; i++) {
      if (isAborted()) throw new Error('benchmark interrupted');
      if (mode !== 'quiet') await this.typeIntoEveryPane(mode);
      const seen = new Map([...this.ctx.runtime].map(([id, rt]) => [id, `${rt.place}|${rt.logEnd}`]));
      const before = { all: this.spawns.total(), tmux: this.ctx.tmux.spawns, by: new Map(this.spawns.counts) };
      const t0 = performance.now();
      await this.monitor.refresh();
      ms.push(performance.now() - t0);
      spawnsMax = Math.max(spawnsMax, this.spawns.total() - before.all);
      tmuxSpawnsMax = Math.max(tmuxSpawnsMax, this.ctx.tmux.spawns - before.tmux);
      for (const [name, n] of this.spawns.counts) {
        byProgram[name] = Math.max(byProgram[name] ?? 0, n - (before.by.get(name) ?? 0));
      }
      recaptured.push([...this.ctx.runtime].filter(([id, rt]) => `${rt.place}|${rt.logEnd}` !== seen.get(id)).length);
    }
    const sessions = this.ctx.store.listSessions({ statuses: ['working', 'idle', 'paused'] }).length;
    return { sessions, ms: stats(ms), spawnsMax, tmuxSpawnsMax, byProgram, recaptured: stats(recaptured).median };
  }

  /** The one spawn every refresh makes (list-panes via execa), alone: the floor of a refresh. */
  async spawnFloor(runs: number): Promise<{ listPanes: Stats }> {
    const listPanes: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      await this.ctx.tmux.runIfServer(listPanesArgs());
      listPanes.push(performance.now() - t0);
    }
    return { listPanes: stats(listPanes) };
  }

  /** Types one character into every pane with a single tmux call (not counted: it runs before the refresh). */
  /**
   * 'changed': one character typed into every pane (the cursor moves). 'redrawn': a character and a
   * Backspace (the log grows, cursor and screen end as they were): every pane needs a capture.
   */
  private async typeIntoEveryPane(mode: Exclude<RefreshMode, 'quiet'>): Promise<void> {
    const panes = this.ctx.store.listSessions({ statuses: ['working', 'idle'] }).map((s) => s.paneId).filter(Boolean);
    const script = join(this.home.dir, 'type.tmux');
    const keys = mode === 'changed' ? '-l .' : 'x BSpace';
    writeFileSync(script, panes.map((p) => `send-keys -t '${p}' ${keys}\n`).join(''));
    await runOk(['tmux', '-S', this.ctx.tmux.socket, '-f', '/dev/null', 'source-file', script], benchEnv());
    // Let the echo reach tmux (cursor moves) and pipe-pane write it to the log.
    await sleep(300);
  }

  close(): void {
    this.ctx.store.db.close();
  }
}
