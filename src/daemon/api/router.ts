import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { AmuxError, toAmuxError } from '../../errors.js';
import { DEADLINE_HEADER, ROUTES, type Route as ApiRoute, type RouteName } from '../../protocol/routes.js';
import { checkInput, ROUTE_SCHEMAS, type RouteSchema } from '../../protocol/schemas.js';
import { logLine } from '../log.js';

export type Params = Record<string, string>;
export interface Request {
  req: IncomingMessage;
  res: ServerResponse;
  params: Params;
  /** The query, checked against the route's schema (protocol/schemas.ts): absent keys are undefined. */
  query: Record<string, any>;
  /** The body, checked against the route's schema (undefined for a route with a raw body: read `req`). */
  body: () => Promise<unknown>;
  /** Marks this request as one that lasts (wait, follow): a stopping daemon cuts it instead of waiting for it. */
  long: () => void;
  /**
   * The latest moment to answer a request that changes something, so that the answer reaches its
   * client before the client's deadline (ADR 0055); null without a deadline (and for GET).
   */
  answerBy: number | null;
}
export type Handler = (r: Request) => Promise<unknown>;

interface Registered {
  method: string;
  parts: string[];
  schema: RouteSchema;
  handler: Handler;
}

/** What a route without a body or query schema accepts: nothing. */
const NOTHING = z.object({}).strict();

/** The largest request body: a session's whole environment and a command line fit many times over. */
const MAX_BODY = 8 * 1024 * 1024;

/**
 * A tiny router for the routes of protocol/routes.ts (`/v1/sessions/:ref/logs` style patterns);
 * handlers return JSON or write the response. Errors become `{"error": {code, message}}`.
 */
export class Router {
  private readonly routes: Registered[] = [];
  /** Requests under way; true for the long ones. */
  private readonly inflight = new Map<ServerResponse, boolean>();

  on(route: ApiRoute, handler: Handler): this {
    const name = (Object.keys(ROUTES) as RouteName[]).find((k) => ROUTES[k] === route);
    if (!name) throw new Error(`not a route of protocol/routes.ts: ${route.method} ${route.path}`);
    this.routes.push({ method: route.method, parts: route.path.split('/').filter(Boolean), schema: ROUTE_SCHEMAS[name], handler });
    return this;
  }

  /** Resolves when every request under way but the long ones has been answered. */
  async drain(): Promise<void> {
    while ([...this.inflight.values()].some((long) => !long)) await new Promise((r) => setTimeout(r, 10));
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.inflight.set(res, false);
    try {
      await this.dispatch(req, res);
    } finally {
      this.inflight.delete(res);
    }
  }

  private async dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      let found: { route: Registered; params: Params } | null = null;
      let allowed = false;
      let url: URL | null = null;
      let badUrl: unknown = null;
      try {
        url = new URL(req.url ?? '/', 'http://amux');
        const segs = url.pathname.split('/').filter(Boolean).map(decodeSegment);
        for (const route of this.routes) {
          const params = match(route.parts, segs);
          if (!params) continue;
          if (route.method !== req.method) {
            allowed = true;
            continue;
          }
          found = { route, params };
          break;
        }
      } catch (err) {
        badUrl = err;
      }
      // The body is read before answering: answering (and closing) while the client still writes
      // would reset its connection and hide the answer. A raw body (a job's stdin) is the
      // handler's to read, as it comes.
      const raw = found?.route.schema.rawBody === true;
      const parsed = raw ? Promise.resolve(undefined) : readJson(req);
      await parsed.catch(() => undefined); // a bad body is reported once the route is known
      if (badUrl) throw badUrl;
      if (!found) {
        throw allowed
          ? new AmuxError('method_not_allowed', `method ${req.method} not allowed on ${url!.pathname}`)
          : new AmuxError('not_found', `no route ${req.method} ${url!.pathname}; see amux help api`);
      }
      const { route, params } = found;
      const long = () => void this.inflight.set(res, true);
      const query = checked(route.schema.query ?? NOTHING, Object.fromEntries(url!.searchParams), 'query') as Record<string, any>;
      const body = raw ? undefined : checked(route.schema.body ?? NOTHING, await parsed, 'body');
      const answerBy = req.method === 'GET' ? null : await stillWanted(req, res);
      if (answerBy === false) return void res.destroy();
      const result = await route.handler({ req, res, params, query, body: async () => body, long, answerBy });
      // A handler may set a status (201 Created) and return the body.
      if (!res.headersSent && !res.writableEnded) sendJson(res, result === undefined ? 204 : res.statusCode, result);
    } catch (err) {
      if (clientLeft(res, err)) return void res.destroy(); // not an error of the daemon: nobody reads an answer
      const e = toAmuxError(err);
      if (e.code === 'internal') logLine(`internal error: ${(err as Error)?.stack ?? err}`);
      if (!res.headersSent) sendJson(res, e.httpStatus, { error: e.toJSON() });
      else res.end();
    }
  }
}

/** The most time kept between a request's answer and its client's deadline, for the answer's way back (ADR 0055). */
const ANSWER_MARGIN_MS = 1000;

/**
 * At most once (ADR 0030): a request that changes something is carried out only while its client
 * still waits for the answer. One whose client closed the connection is dropped (false); one that
 * came after its deadline (the daemon was stopped or swamped, and the client reported a failure)
 * is refused, doing nothing. Else the moment by which to answer it (null: no deadline): half the
 * time left, at most a second, before the deadline (ADR 0055).
 */
async function stillWanted(req: IncomingMessage, res: ServerResponse): Promise<number | null | false> {
  await new Promise((r) => setImmediate(r)); // a close that came with the request is seen first
  if (res.destroyed || req.socket.destroyed || req.socket.readableEnded) return false;
  const deadline = Number(req.headers[DEADLINE_HEADER]);
  if (!Number.isFinite(deadline)) return null;
  const now = Date.now();
  if (now > deadline) {
    throw new AmuxError('timeout', `this request came ${now - deadline} ms after its client gave up waiting (AMUX_CLIENT_TIMEOUT); nothing was done`);
  }
  return deadline - Math.min(ANSWER_MARGIN_MS, (deadline - now) / 2);
}

/** Errors of a connection the client closed (mid-body, mid-answer). */
const GONE = new Set(['ECONNRESET', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END']);

function clientLeft(res: ServerResponse, err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return (typeof code === 'string' && GONE.has(code)) || (res.destroyed && !res.writableFinished);
}

/** The value as its schema reads it; the first problem is a 400 naming the field. */
function checked(schema: z.ZodType, value: unknown, where: 'body' | 'query'): unknown {
  const r = checkInput(schema, value, where);
  if (!r.ok) throw new AmuxError('invalid_argument', r.message);
  return r.value;
}

function decodeSegment(seg: string): string {
  try {
    return decodeURIComponent(seg);
  } catch {
    throw new AmuxError('invalid_argument', `malformed URL path segment '${seg.slice(0, 40)}'`);
  }
}

function match(parts: string[], segs: string[]): Params | null {
  if (parts.length !== segs.length) return null;
  const params: Params = {};
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p.startsWith(':')) params[p.slice(1)] = segs[i]!;
    else if (p !== segs[i]) return null;
  }
  return params;
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = status === 204 ? '' : JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new AmuxError('payload_too_large', `request body larger than ${MAX_BODY} bytes`);
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new AmuxError('invalid_argument', 'request body is not valid JSON');
  }
}
