import type { DaemonContext } from '../context.js';
import type { Jobs } from '../job/jobs.js';
import type { Monitor } from '../monitor/monitor.js';
import type { Queue } from '../session/queue.js';
import { registerConfigRoutes } from './config-routes.js';
import { registerDaemonRoutes } from './daemon-routes.js';
import { registerHistoryRoutes } from './history-routes.js';
import { registerJobRoutes } from './job-routes.js';
import { Router } from './router.js';
import { registerSessionRoutes } from './session-routes.js';

/** The parts of the daemon that routes call into. */
export interface Engine {
  ctx: DaemonContext;
  monitor: Monitor;
  jobs: Jobs;
  queue: Queue;
}

/** The versioned HTTP API (src/guides/api.md): every route of protocol/routes.ts, one file per resource. */
export function buildRouter(engine: Engine, stop: () => void): Router {
  const r = new Router();
  registerSessionRoutes(r, engine);
  registerJobRoutes(r, engine);
  registerHistoryRoutes(r, engine.ctx);
  registerDaemonRoutes(r, engine, stop);
  registerConfigRoutes(r, engine);
  return r;
}
