/**
 * Every route of the API (src/guides/api.md): its method and path pattern. The daemon's router
 * registers exactly these, and the client builds its request paths from them (`pathOf`), so a
 * URL is written down once.
 */
export const API_VERSION = '1';

/**
 * Every answer of the daemon carries its API version in this header (ADR 0024): a client that
 * reaches a daemon over SSH, possibly of another release, refuses one that speaks another version.
 */
export const API_VERSION_HEADER = 'amux-api';

/**
 * A request with an answer deadline carries it in this header (ms since the epoch, the local
 * client's clock): the daemon refuses, without doing anything, a request that changes something
 * and reaches it after that moment, when its client has given up (ADR 0030).
 */
export const DEADLINE_HEADER = 'amux-deadline';

export const ROUTES = {
  health: { method: 'GET', path: '/v1/health' },
  stopDaemon: { method: 'POST', path: '/v1/daemon/stop' },
  listSessions: { method: 'GET', path: '/v1/sessions' },
  createSession: { method: 'POST', path: '/v1/sessions' },
  inspect: { method: 'GET', path: '/v1/sessions/:ref' },
  removeSession: { method: 'DELETE', path: '/v1/sessions/:ref' },
  killSession: { method: 'POST', path: '/v1/sessions/:ref/kill' },
  restartSession: { method: 'POST', path: '/v1/sessions/:ref/restart' },
  renameSession: { method: 'POST', path: '/v1/sessions/:ref/rename' },
  pause: { method: 'POST', path: '/v1/sessions/:ref/pause' },
  resume: { method: 'POST', path: '/v1/sessions/:ref/resume' },
  sendInput: { method: 'POST', path: '/v1/sessions/:ref/input' },
  declareState: { method: 'POST', path: '/v1/sessions/:ref/state' },
  logs: { method: 'GET', path: '/v1/sessions/:ref/logs' },
  screen: { method: 'GET', path: '/v1/sessions/:ref/screen' },
  logLines: { method: 'GET', path: '/v1/sessions/:ref/log-lines' },
  exec: { method: 'POST', path: '/v1/sessions/:ref/jobs' },
  listJobs: { method: 'GET', path: '/v1/sessions/:ref/jobs' },
  getJob: { method: 'GET', path: '/v1/jobs/:id' },
  killJob: { method: 'POST', path: '/v1/jobs/:id/kill' },
  jobOutput: { method: 'GET', path: '/v1/jobs/:id/output' },
  jobStdin: { method: 'POST', path: '/v1/jobs/:id/stdin' },
  wait: { method: 'POST', path: '/v1/wait' },
  prune: { method: 'POST', path: '/v1/prune' },
  events: { method: 'GET', path: '/v1/events' },
  history: { method: 'GET', path: '/v1/history' },
  stats: { method: 'GET', path: '/v1/stats' },
  listGroups: { method: 'GET', path: '/v1/groups' },
  setGroup: { method: 'POST', path: '/v1/groups' },
  removeGroup: { method: 'DELETE', path: '/v1/groups/:name' },
  setConfig: { method: 'POST', path: '/v1/config' },
} as const;

export type RouteName = keyof typeof ROUTES;
export type Route = (typeof ROUTES)[RouteName];

/** A query value: lists are comma-joined, booleans are `1` (left out when false), undefined is left out. */
export type QueryValue = string | number | boolean | readonly string[] | undefined;

/** The path of `route` with its `:params` filled in (URI-encoded) and `query` appended. */
export function pathOf(route: Route, params: Record<string, string> = {}, query: object = {}): string {
  const path = route.path.replace(/:(\w+)/g, (_, key: string) => {
    const v = params[key];
    if (v === undefined) throw new Error(`route ${route.path} needs :${key}`);
    return encodeURIComponent(v);
  });
  const q = new URLSearchParams();
  for (const [key, v] of Object.entries(query) as [string, QueryValue][]) {
    if (v === undefined || v === false) continue;
    q.set(key, v === true ? '1' : Array.isArray(v) ? v.join(',') : String(v));
  }
  const text = q.toString();
  return text ? `${path}?${text}` : path;
}
