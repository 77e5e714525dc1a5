import type { Health, StopAnswer } from '../../protocol/daemon.js';
import { ROUTES } from '../../protocol/routes.js';
import type { WaitAnswer } from '../../protocol/wait.js';
import { VERSION } from '../../version.js';
import { resolveTargets } from '../session/refs.js';
import { waitForTargets } from '../session/waiters.js';
import type { Engine } from './index.js';
import type { Router } from './router.js';
import { parseWait } from './validate.js';

/** The daemon itself, and `wait` (sessions and jobs alike). */
export function registerDaemonRoutes(r: Router, { ctx, monitor }: Engine, stop: () => void): void {
  r.on(ROUTES.health, async (): Promise<Health> => ({
    pid: process.pid, socket: ctx.paths.socket, version: VERSION, uptimeMs: Date.now() - ctx.startedAt,
    sessions: ctx.store.listSessions().length, live: ctx.store.countLive(), pending: ctx.store.countPending(),
    home: ctx.paths.home, settings: ctx.settings, tmuxCalls: { spawned: ctx.tmux.spawns, control: ctx.tmux.controlCalls },
  }));

  r.on(ROUTES.stopDaemon, async (): Promise<StopAnswer> => {
    setImmediate(stop);
    return { stopping: true, pid: process.pid };
  });

  r.on(ROUTES.wait, async (q): Promise<WaitAnswer> => {
    const { refs, spec } = parseWait(await q.body());
    const targets = resolveTargets(ctx, refs, true);
    q.long();
    const abort = new AbortController();
    q.res.on('close', () => abort.abort());
    await monitor.ensureFresh();
    return waitForTargets(ctx, targets, spec, abort.signal);
  });
}
