import { z } from 'zod';
import { expandStatusWords } from '../core/filters.js';
import { DECLARED_STATES } from '../core/attention.js';
import { JOB_STATUSES, SESSION_STATUSES } from '../core/status.js';
import type { EventsQuery, HistoryQuery, StatsQuery } from './events.js';
import type { ExecQuery, ExecRequest, JobListQuery, JobOutputQuery } from './jobs.js';
import type { GroupRequest, SetConfigRequest } from './groups.js';
import type { LogLinesQuery, LogsQuery } from './logs.js';
import type { RouteName } from './routes.js';
import type {
  CreateSessionRequest, DeclareStateRequest, KillRequest, PruneRequest, RemoveQuery, RenameRequest, RestartRequest, ScreenQuery, SendInputRequest, SessionListQuery,
} from './sessions.js';
import { MAX_WAIT_IDS, type WaitRequest } from './wait.js';

/**
 * One schema per route for its body and its query (src/guides/api.md): the daemon checks every request
 * against them where it enters, and the MCP tools can share them. Each schema is tied to the
 * request type of its protocol file, so the two cannot drift apart. Loaded by the daemon only:
 * the CLI imports the protocol's types, never zod.
 */

/** Milliseconds (a non-negative integer) or a duration text such as `90s`; the route parses the text. */
const duration = z.union([z.number().int().nonnegative(), z.string().regex(/^\S+$/, 'must be milliseconds or a duration such as 90s')]);
const words = z.array(z.string()).min(1, 'must not be empty');

const createSession = z.object({
  command: z.string().optional(),
  argv: words.optional(),
  name: z.string().optional(),
  cwd: z.string().optional(),
  env: z.record(z.string(), z.string()).optional(),
  hostEnv: z.boolean().optional(),
  autoRemove: z.boolean().optional(),
  umask: z.number().int().min(0).max(0o777).optional(),
  timeoutMs: duration.optional(),
  idleTimeoutMs: duration.optional(),
  labels: z.record(z.string(), z.string()).optional(),
  restart: z.string().optional(),
  delayMs: duration.optional(),
  group: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be a group name: 1-64 of A-Z a-z 0-9 . _ -').optional(),
  after: z.array(z.string()).max(64, 'at most 64 sessions').optional(),
  onEnd: z.string().min(1).max(65536).refine((c) => !c.includes('\0'), 'must not contain NUL bytes').optional(),
  dependencyFailed: z.string().min(1).max(4096).optional(),
}).strict() satisfies z.ZodType<CreateSessionRequest>;

const setGroup = z.object({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be a group name: 1-64 of A-Z a-z 0-9 . _ -'),
  parallel: z.number().int().min(0).max(100_000),
}).strict() satisfies z.ZodType<GroupRequest>;
const setConfig = z.object({ key: z.string().min(1), value: z.union([z.string(), z.number(), z.null()]) }).strict() satisfies z.ZodType<SetConfigRequest>;

const restart = z.object({ graceMs: duration.optional() }).strict() satisfies z.ZodType<RestartRequest>;
const rename = z.object({ name: z.string().nullable() }).strict() satisfies z.ZodType<RenameRequest>;

const exec = z.object({
  command: z.string().optional(),
  argv: words.optional(),
  background: z.boolean().optional(),
  tty: z.boolean().optional(),
  timeoutMs: duration.optional(),
  stdin: z.boolean().optional(),
  /** A duration text, for callers that write `timeout` as the CLI's flag is named. */
  timeout: duration.optional(),
}).strict() satisfies z.ZodType<ExecRequest>;

/** The most text one `send` types: beyond any prompt's answer, short of what makes every refresh slow. */
export const MAX_SEND_BYTES = 1024 * 1024;

const sendInput = z.object({
  text: z.string().refine((t) => Buffer.byteLength(t) <= MAX_SEND_BYTES, `must be at most ${MAX_SEND_BYTES} bytes`).optional(),
  keys: z.array(z.string().regex(/^[!-~]{1,32}$/, 'must be tmux key names such as C-c, Enter, Up, F1')).min(1).optional(),
  enter: z.boolean().optional(),
  when: z.enum(['now', 'idle', 'ready'], 'must be now, idle or ready').optional(),
  timeoutMs: duration.optional(),
}).strict().refine((b) => (b.text === undefined) !== (b.keys === undefined), 'give either text or keys, not both or neither') satisfies z.ZodType<SendInputRequest>;

/** The longest declared message: a line of a table, not a document. */
export const MAX_DECLARED_MESSAGE = 1000;

const declareState = z.object({
  state: z.enum(DECLARED_STATES, `must be ${DECLARED_STATES.join(', ')}`),
  message: z.string().max(MAX_DECLARED_MESSAGE, `must be at most ${MAX_DECLARED_MESSAGE} characters`).optional(),
  ttlMs: duration.optional(),
  scope: z.enum(['program', 'session'], 'must be program or session').optional(),
}).strict() satisfies z.ZodType<DeclareStateRequest>;

const kill = z.object({
  signal: z.union([z.string(), z.number().int().nonnegative()]).optional(),
  graceMs: duration.optional(),
}).strict();

const wait = z.object({
  ids: z.array(z.string()).min(1, 'must be a non-empty array of session references')
    .max(MAX_WAIT_IDS, `must hold at most ${MAX_WAIT_IDS} references; wait for more in several calls`),
  timeoutMs: duration.optional(),
  until: z.string().optional(),
  after: z.number().int().nonnegative().optional(),
  any: z.boolean().optional(),
  sinceOffset: z.number().int().nonnegative().optional(),
}).strict() satisfies z.ZodType<WaitRequest>;

const prune = z.object({
  olderThanMs: duration.optional(), olderThan: duration.optional(),
  status: z.array(z.string()).optional().transform((v) => (v === undefined ? undefined : expandStatusWords(v.join(',')))),
}).strict() satisfies z.ZodType<PruneRequest>;

/** Query values arrive as text. */
const flag = z.enum(['1', '0', 'true', 'false']).transform((v) => v === '1' || v === 'true');
const int = z.string().regex(/^\d+$/, 'must be a non-negative integer').transform(Number);
const text = z.string().regex(/^\S+$/, 'must not be empty');
const list = <T extends string>(known: readonly T[], what: string, expand: (raw: string) => string[] = (raw) => raw.split(',').map((x) => x.trim()).filter(Boolean)) =>
  z.string().transform((raw, ctx) => {
    const items = expand(raw);
    const bad = items.find((x) => !(known as readonly string[]).includes(x));
    if (bad !== undefined) ctx.addIssue({ code: 'custom', message: `unknown ${what}status '${bad}': use ${known.join(', ')}${what ? '' : ', live or finished'}` });
    return items as T[];
  });
/** Session statuses; `live` and `finished` stand for their sets (src/guides/sessions.md "Restart, labels, groups"). */
const sessionStatuses = list(SESSION_STATUSES, '', expandStatusWords);
/** Comma-separated words (name globs, labels). */
const items = z.string().transform((raw) => raw.split(',').filter(Boolean));

type Query<T> = { [K in keyof T]?: unknown };
/** A query: every parameter is optional, and no other is taken. */
const query = <T>(shape: Record<keyof T & string, z.ZodType>) =>
  z.object(Object.fromEntries(Object.entries<z.ZodType>(shape).map(([k, v]) => [k, v.optional()]))).strict() satisfies z.ZodType<Query<T>>;

export interface RouteSchema {
  body?: z.ZodType;
  query?: z.ZodType;
  /** The body is a byte stream that the handler reads itself (the job's stdin): not JSON, never buffered. */
  rawBody?: true;
}

/**
 * The schemas of every route; a route without a query schema takes no query, one without a body schema no body
 * (unless its body is a raw byte stream: `rawBody`).
 */
export const ROUTE_SCHEMAS: Record<RouteName, RouteSchema> = {
  health: {},
  stopDaemon: {},
  listSessions: { query: query<SessionListQuery>({ status: sessionStatuses, name: items, label: items, limit: int, all: flag, usage: flag, attention: flag }) },
  createSession: { body: createSession },
  inspect: {},
  removeSession: { query: query<RemoveQuery>({ force: flag, graceMs: text }) },
  killSession: { body: kill satisfies z.ZodType<KillRequest> },
  restartSession: { body: restart },
  renameSession: { body: rename },
  pause: {},
  resume: {},
  sendInput: { body: sendInput },
  declareState: { body: declareState },
  logs: { query: query<LogsQuery>({ sinceOffset: int, limit: int, follow: flag, job: text, since: text, until: text }) },
  logLines: { query: query<LogLinesQuery>({ since: text, until: text }) },
  screen: { query: query<ScreenQuery>({ escapes: flag }) },
  exec: { body: exec, query: query<ExecQuery>({ stream: flag }) },
  listJobs: { query: query<JobListQuery>({ status: list(JOB_STATUSES, 'job '), background: flag, limit: int }) },
  getJob: {},
  killJob: { body: kill },
  jobStdin: { rawBody: true },
  jobOutput: { query: query<JobOutputQuery>({ stream: z.enum(['stdout', 'stderr'], 'must be stdout or stderr'), follow: flag, sinceOffset: int, limit: int }) },
  wait: { body: wait },
  prune: { body: prune },
  events: { query: query<EventsQuery>({ session: text, since: text, until: text, follow: flag, after: int, limit: int, new: flag }) },
  history: { query: query<HistoryQuery>({ status: sessionStatuses, name: items, label: items, since: text, until: text, limit: int }) },
  stats: { query: query<StatsQuery>({ since: text }) },
  listGroups: {},
  setGroup: { body: setGroup },
  removeGroup: {},
  setConfig: { body: setConfig },
};

/**
 * Checks `value` against `schema`; the first problem becomes one line naming the field, code
 * `invalid_argument` (the caller turns it into an AmuxError).
 */
export function checkInput(schema: z.ZodType, value: unknown, where: 'body' | 'query'): { ok: true; value: unknown } | { ok: false; message: string } {
  const r = schema.safeParse(value);
  if (r.success) return { ok: true, value: r.data };
  const issue = r.error.issues[0]!;
  const noun = where === 'body' ? 'field' : 'query parameter';
  if (issue.code === 'unrecognized_keys') return { ok: false, message: `unknown ${noun} '${issue.keys[0]}' in the request ${where}; see amux help api` };
  const path = issue.path.join('.');
  return { ok: false, message: path ? `invalid ${noun} '${path}': ${issue.message}` : `invalid request ${where}: ${issue.message}` };
}
