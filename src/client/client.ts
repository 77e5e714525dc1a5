import type { AmuxPaths } from '../paths.js';
import type { Health, StopAnswer } from '../protocol/daemon.js';
import type { EventsQuery, HistoryQuery, StatsQuery, StatsView } from '../protocol/events.js';
import type { ExecRequest, JobListQuery, JobOutputQuery, JobView, StdinAnswer } from '../protocol/jobs.js';
import type { GroupRequest, GroupView, SetConfigAnswer, SetConfigRequest } from '../protocol/groups.js';
import type { LogLinesQuery, LogLinesView, LogsQuery } from '../protocol/logs.js';
import { ROUTES } from '../protocol/routes.js';
import type {
  CreateSessionRequest, InspectView, KillRequest, PruneAnswer, PruneRequest, RemoveQuery, ScreenQuery, ScreenView,
  DeclareStateRequest, RenameRequest, RestartRequest, SendInputRequest, SendReceipt, SessionListQuery, SessionView,
} from '../protocol/sessions.js';
import type { WaitAnswer, WaitRequest } from '../protocol/wait.js';
import { waitsForTmux } from '../protocol/sessions.js';
import { Connection, type Remote } from './connection.js';
import { readBody, type Response } from './http.js';

/** A streamed answer (logs, frames, NDJSON): its headers, then its body as chunks. */
export type Stream = Response;

/**
 * The typed API of the daemon (src/guides/api.md), for the CLI and anything else that drives amux.
 * Each method is one request; references are session ids, names or unique prefixes, or job ids.
 * A short request fails (exit 3) when no answer comes within AMUX_CLIENT_TIMEOUT; waits, follows,
 * kills (their grace) and execs (their turn) have no such deadline.
 */
export class Client {
  private readonly conn: Connection;
  readonly sessions: Sessions;
  readonly jobs: Jobs;
  readonly events: Events;

  /**
   * `autostart` false: a daemon that is not running is an error (`daemon_unreachable`) instead of
   * being started. With `remote`, the daemon of another machine (src/guides/remote.md); `paths` then
   * only says where the SSH connection's socket goes. `deadlineMs`: the answer deadline of short
   * requests, instead of AMUX_CLIENT_TIMEOUT.
   */
  constructor(paths?: AmuxPaths | Connection, autostart = true, remote?: Remote, deadlineMs?: number) {
    this.conn = paths instanceof Connection ? paths : new Connection(paths, autostart, remote, deadlineMs);
    this.sessions = new Sessions(this.conn);
    this.jobs = new Jobs(this.conn);
    this.events = new Events(this.conn);
  }

  /** This client with each request it makes closed when `signal` aborts (it then fails); see `Connection.withSignal`. */
  withSignal(signal: AbortSignal): Client {
    return new Client(this.conn.withSignal(signal));
  }

  get paths(): AmuxPaths {
    return this.conn.paths;
  }

  /** The remote daemon this client talks to; undefined for the local one. */
  get remote(): Remote | undefined {
    return this.conn.remote;
  }

  health(): Promise<Health> {
    return this.conn.json(ROUTES.health);
  }

  stopDaemon(): Promise<StopAnswer> {
    return this.conn.json(ROUTES.stopDaemon);
  }

  /** Blocks until the targets got where `until` asks (default: ended), or the request's timeout ran out. */
  wait(req: WaitRequest): Promise<WaitAnswer> {
    return this.conn.json(ROUTES.wait, { body: req, long: true });
  }

  history(query: HistoryQuery = {}): Promise<SessionView[]> {
    return this.conn.json(ROUTES.history, { query });
  }

  stats(query: StatsQuery = {}): Promise<StatsView> {
    return this.conn.json(ROUTES.stats, { query });
  }

  groups(): Promise<GroupView[]> {
    return this.conn.json(ROUTES.listGroups);
  }

  /** Creates a group or changes its parallel limit (in force at once). */
  setGroup(req: GroupRequest): Promise<GroupView> {
    return this.conn.json(ROUTES.setGroup, { body: req });
  }

  removeGroup(name: string): Promise<{ name: string }> {
    return this.conn.json(ROUTES.removeGroup, { params: { name } });
  }

  /** Sets one setting in config.json and in the running daemon. */
  setConfig(req: SetConfigRequest): Promise<SetConfigAnswer> {
    return this.conn.json(ROUTES.setConfig, { body: req });
  }

  /** Removes finished sessions that ended at least `olderThanMs` ago. */
  prune(req: PruneRequest = {}): Promise<PruneAnswer> {
    return this.conn.json(ROUTES.prune, { body: req, long: true });
  }
}

class Sessions {
  constructor(private readonly conn: Connection) {}

  list(query: SessionListQuery = {}): Promise<SessionView[]> {
    return this.conn.json(ROUTES.listSessions, { query });
  }

  /** Starts a session (or queues it as pending beyond maxLive). */
  create(req: CreateSessionRequest): Promise<SessionView> {
    return this.conn.json(ROUTES.createSession, { body: req });
  }

  /**
   * `s` as its create answered, or, when that create waited for tmux (ADR 0040), the session once
   * it runs (or ended without running): what `run` and `up` hand on, so that the next step finds it started.
   */
  async running(s: SessionView): Promise<SessionView> {
    if (!waitsForTmux(s)) return s;
    await this.conn.json(ROUTES.wait, { body: { ids: [s.id], until: 'started' }, long: true });
    return (await this.inspect(s.id)).session;
  }

  /** The whole record: session, jobs, recent events. */
  inspect(ref: string): Promise<InspectView> {
    return this.conn.json(ROUTES.inspect, { params: { ref } });
  }

  remove(ref: string, query: RemoveQuery = {}): Promise<SessionView> {
    return this.conn.json(ROUTES.removeSession, { params: { ref }, query, long: query.force === true });
  }

  /** Kills a session, or one job when `ref` is a job id (then the answer is the job). */
  kill(ref: string, req: KillRequest = {}): Promise<SessionView | JobView> {
    return this.conn.json(ROUTES.killSession, { params: { ref }, body: req, long: true });
  }

  /** Starts the session again as a new one (stopping it first when live); answers the new session. */
  restart(ref: string, req: RestartRequest = {}): Promise<SessionView> {
    return this.conn.json(ROUTES.restartSession, { params: { ref }, body: req, long: true });
  }

  rename(ref: string, req: RenameRequest): Promise<SessionView> {
    return this.conn.json(ROUTES.renameSession, { params: { ref }, body: req });
  }

  pause(ref: string): Promise<SessionView> {
    return this.conn.json(ROUTES.pause, { params: { ref } });
  }

  resume(ref: string): Promise<SessionView> {
    return this.conn.json(ROUTES.resume, { params: { ref } });
  }

  /** Types into the session; answers a receipt (where the reply starts). With `when: idle` it may hold, so it has no deadline. */
  send(ref: string, req: SendInputRequest): Promise<SendReceipt> {
    return this.conn.json(ROUTES.sendInput, { params: { ref }, body: req, long: req.when === 'idle' || req.when === 'ready' });
  }

  /** `amux state`: declares the state of the program in the session (ADR 0034); answers the session. */
  declareState(ref: string, req: DeclareStateRequest): Promise<SessionView> {
    return this.conn.json(ROUTES.declareState, { params: { ref }, body: req });
  }

  screen(ref: string, query: ScreenQuery = {}): Promise<ScreenView> {
    return this.conn.json(ROUTES.screen, { params: { ref }, query });
  }

  /** Terminal output: one page (headers: PAGE_HEADERS), or with `follow` a stream until the session ends. */
  logs(ref: string, query: LogsQuery = {}): Promise<Stream> {
    return this.conn.raw(ROUTES.logs, { params: { ref }, query, long: query.follow === true });
  }

  /** The session's output as plain lines, each with the time it was written by (src/guides/sessions.md: logs -t). */
  logLines(ref: string, query: LogLinesQuery = {}): Promise<LogLinesView> {
    return this.conn.json(ROUTES.logLines, { params: { ref }, query });
  }
}

class Jobs {
  constructor(private readonly conn: Connection) {}

  /** Starts a job; answers once the shell has started it (a background job's pid is then known). */
  exec(ref: string, req: ExecRequest): Promise<JobView> {
    return this.conn.json(ROUTES.exec, { params: { ref }, body: req, long: true });
  }

  /** Runs a foreground job in one request: its frames (start, stdout, stderr, end) until it ends. */
  execStream(ref: string, req: ExecRequest): Promise<Stream> {
    return this.conn.raw(ROUTES.exec, { params: { ref }, query: { stream: true }, body: req, long: true });
  }

  list(ref: string, query: JobListQuery = {}): Promise<JobView[]> {
    return this.conn.json(ROUTES.listJobs, { params: { ref }, query });
  }

  get(id: string): Promise<JobView> {
    return this.conn.json(ROUTES.getJob, { params: { id } });
  }

  kill(id: string, req: KillRequest = {}): Promise<JobView> {
    return this.conn.json(ROUTES.killJob, { params: { id }, body: req, long: true });
  }

  /**
   * Writes `source` into the stdin of a job started with `stdin: true`, at the pace the job reads it;
   * its end is the job's EOF. Resolves with the daemon's answer once the body has ended or the job
   * has; null when the connection closed, or `signal` aborted, before an answer.
   */
  async stdin(id: string, source: NodeJS.ReadableStream, signal?: AbortSignal): Promise<StdinAnswer | null> {
    const res = await this.conn.raw(ROUTES.jobStdin, { params: { id }, upload: true, long: true });
    const onAbort = () => res.destroy();
    signal?.addEventListener('abort', onAbort);
    try {
      await res.upload(source, signal);
      const text = (await readBody(res)).toString('utf8');
      return text.trim() ? (JSON.parse(text) as StdinAnswer) : null;
    } catch {
      return null; // the connection went away (the daemon, or an abort): nothing to answer
    } finally {
      signal?.removeEventListener('abort', onAbort);
      res.destroy();
    }
  }

  /** Captured output: one stream's page, or frames (both streams, or `follow`). */
  output(id: string, query: JobOutputQuery = {}): Promise<Stream> {
    return this.conn.raw(ROUTES.jobOutput, { params: { id }, query, long: query.follow === true });
  }
}

class Events {
  constructor(private readonly conn: Connection) {}

  /** NDJSON of events, oldest first; with `follow`, then each new one as it is written. */
  read(query: EventsQuery = {}): Promise<Stream> {
    return this.conn.raw(ROUTES.events, { query, long: query.follow === true });
  }

  /** `read` with `follow`. */
  follow(query: Omit<EventsQuery, 'follow' | 'limit'> = {}): Promise<Stream> {
    return this.read({ ...query, follow: true });
  }
}
