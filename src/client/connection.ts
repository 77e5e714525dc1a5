import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { parseDuration } from '../core/duration.js';
import { AmuxError } from '../errors.js';
import { amuxPaths, MAX_SOCKET_PATH, type AmuxPaths } from '../paths.js';
import { API_VERSION, API_VERSION_HEADER, pathOf, type Route } from '../protocol/routes.js';
import { checkHome } from '../home.js';
import { errorFrom, isNotRunning, isPermissionDenied, NoAnswerError, readBody, send, type Dialer, type Response } from './http.js';

/** What a request aborted by its caller's signal fails with (an MCP call cancelled, its client gone). */
export const ABORTED = 'the request was cancelled';

/** A daemon on another machine (client/ssh.ts; src/guides/remote.md). */
export interface Remote extends Dialer {
  readonly url: string;
  /** The argv that attaches this terminal to a session there. */
  attachArgv(ref: string, readOnly: boolean): string[];
}

/** One request: the route's `:params`, its query and its JSON body. */
export interface Call {
  params?: Record<string, string>;
  query?: object;
  body?: unknown;
  /** It may take long by design (a wait, a follow, a kill's grace, a job's turn): no answer deadline. */
  long?: boolean;
  /** The body is a byte stream, written with `Response.upload` once the answer's head has come. */
  upload?: boolean;
}

/** How long a short request waits for the daemon's answer (src/guides/configuration.md: AMUX_CLIENT_TIMEOUT). */
const DEFAULT_DEADLINE_MS = 15_000;

/** AMUX_CLIENT_TIMEOUT: a duration of any length; `0` waits as long as it takes (no deadline). */
function deadline(): number | undefined {
  const v = process.env.AMUX_CLIENT_TIMEOUT;
  const ms = v ? parseDuration(v, 'AMUX_CLIENT_TIMEOUT') : DEFAULT_DEADLINE_MS;
  return ms === 0 ? undefined : ms;
}

/** Requests to the daemon over its socket, starting the daemon when it is not running (client.ts types them). */
export class Connection {
  readonly paths: AmuxPaths;
  /** When set (see `withSignal`), every request's connection is closed when it aborts. */
  private signal?: AbortSignal;

  /** `deadlineMs`: how long a short request waits for an answer, instead of AMUX_CLIENT_TIMEOUT. */
  constructor(paths: AmuxPaths = amuxPaths(), private readonly autostart = true, readonly remote?: Remote, private readonly deadlineMs?: number) {
    this.paths = paths;
    if (!remote && Buffer.byteLength(paths.socket) > MAX_SOCKET_PATH) {
      throw new AmuxError('daemon_unreachable', `AMUX_HOME ${paths.home} is too long for a Unix socket path; use a shorter AMUX_HOME`);
    }
  }

  /**
   * This connection with every request closed when `signal` aborts, before or after its answer's
   * head: the daemon then sees its client leave (a held send is not typed, a wait ends).
   */
  withSignal(signal: AbortSignal): Connection {
    const c = Object.create(this) as Connection;
    c.signal = signal;
    return c;
  }

  /** A raw response (2xx), for streams. Errors become AmuxError. */
  async raw(route: Route, call: Call = {}): Promise<Response> {
    if (this.signal) return this.abortable(this.signal, route, call);
    return this.request(route, call, this.remote ?? this.paths.socket);
  }

  private async abortable(signal: AbortSignal, route: Route, call: Call): Promise<Response> {
    if (signal.aborted) throw new AmuxError('operation_failed', ABORTED);
    const target = this.remote ?? this.paths.socket;
    const dialer: Dialer = {
      open: () => {
        const socket = typeof target === 'string' ? connect(target) : target.open();
        const abort = () => socket.destroy(new AmuxError('operation_failed', ABORTED));
        signal.addEventListener('abort', abort, { once: true });
        socket.once('close', () => signal.removeEventListener('abort', abort));
        return socket;
      },
    };
    return this.request(route, call, dialer);
  }

  private async request(route: Route, call: Call, target: string | Dialer): Promise<Response> {
    const path = pathOf(route, call.params, call.query);
    const deadlineMs = call.long ? undefined : (this.deadlineMs ?? deadline());
    let res: Response;
    if (this.remote) {
      // The far side's dial-stdio starts its daemon when needed (ADR 0024).
      res = await send(target, route.method, path, call.body, deadlineMs, call.upload).catch((e) => {
        if (e instanceof NoAnswerError) throw this.noAnswer(deadlineMs!, e);
        throw isNotRunning(e) ? new AmuxError('daemon_unreachable', `${this.remote!.url}: the amux daemon there closed the connection without an answer; see its daemon.log`) : e;
      });
      const version = res.headers[API_VERSION_HEADER];
      if (version !== API_VERSION) {
        res.destroy();
        const theirs = version ? `API version ${version}` : 'no API version';
        throw new AmuxError('api_version_mismatch', `${this.remote.url}: the amux daemon there speaks ${theirs}, this client ${API_VERSION}; install the same amux release on both sides (then 'amux daemon stop' there)`);
      }
      if (res.status >= 400) throw await errorFrom(res);
      return res;
    }
    try {
      res = await send(target, route.method, path, call.body, deadlineMs, call.upload);
    } catch (err) {
      if (err instanceof NoAnswerError) throw this.noAnswer(deadlineMs!, err);
      // A socket we may not reach: a home of another user is a usage error (src/guides/configuration.md).
      if (isPermissionDenied(err)) checkHome(this.paths);
      if (!isNotRunning(err)) throw err;
      if (!this.autostart) throw new AmuxError('daemon_unreachable', `the amux daemon is not running (socket ${this.paths.socket}); start it with 'amux daemon start'`);
      // Loaded only here: it brings child_process, which a running daemon's callers never need.
      const { launchDaemon } = require('./launcher.js') as typeof import('./launcher.js');
      await launchDaemon(this.paths);
      res = await send(target, route.method, path, call.body, deadlineMs, call.upload).catch((e) => {
        if (e instanceof NoAnswerError) throw this.noAnswer(deadlineMs!, e);
        throw isNotRunning(e) ? new AmuxError('daemon_unreachable', `the amux daemon did not answer after starting; see ${this.paths.daemonLog}`) : e;
      });
    }
    if (res.status >= 400) throw await errorFrom(res);
    return res;
  }

  /** The daemon took the request and does not answer: it is stopped, hung or swamped. */
  private noAnswer(ms: number, cause: NoAnswerError): AmuxError {
    if (this.remote) return new AmuxError('daemon_unreachable', `${this.remote.url}: no answer within ${ms / 1000}s (AMUX_CLIENT_TIMEOUT); the host or its amux daemon is hung or swamped`, { cause });
    let pid = '';
    try {
      pid = readFileSync(this.paths.pidFile, 'utf8').trim();
    } catch {
      /* unknown */
    }
    const who = pid ? `the amux daemon (pid ${pid})` : 'the amux daemon';
    const fix = pid ? `see if it is stopped ('kill -CONT ${pid}') or restart it ('kill ${pid}'; sessions keep running)` : 'restart it';
    return new AmuxError('daemon_unreachable', `${who} is not answering (nothing within ${ms / 1000}s, AMUX_CLIENT_TIMEOUT); ${fix}`, { cause });
  }

  /** The JSON answer of a request. */
  async json<T>(route: Route, call: Call = {}): Promise<T> {
    const buf = await readBody(await this.raw(route, call));
    return (buf.length ? JSON.parse(buf.toString('utf8')) : undefined) as T;
  }
}
