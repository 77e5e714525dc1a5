import { setTimeout as sleep } from 'node:timers/promises';
import { chmodSync, renameSync, rmSync } from 'node:fs';
import { checkHome, writeHomeFile } from '../home.js';
import { createServer, type Server } from 'node:http';
import { resolveSettings } from '../core/settings.js';
import { AmuxError, EXIT, toAmuxError } from '../errors.js';
import { amuxPaths, ensureDir, MAX_SOCKET_PATH, type AmuxPaths } from '../paths.js';
import { API_VERSION, API_VERSION_HEADER } from '../protocol/routes.js';
import { checkTmuxVersion, controlClientWanted } from '../tmux/tmux.js';
import { buildRouter, type Engine } from './api/index.js';
import type { Router } from './api/router.js';
import { createContext, findPrograms, type DaemonContext } from './context.js';
import { Jobs } from './job/jobs.js';
import { acquireDaemonLock } from './lock.js';
import { Monitor } from './monitor/monitor.js';
import { startMemoryUpkeep } from './memory.js';
import { forgetDaemonEnv } from '../daemon-options.js';
import { allSessionLocksIdle } from './session/lock.js';
import { watchSessionEnds, type SessionEnds } from './session/on-end.js';
import { watchRestartPolicies } from './session/restart.js';
import { watchHooks } from './session/hooks.js';
import { startLogClock } from './output/log-times.js';
import { readConfigFile } from '../config-file.js';
import { reapLeftovers } from './session/reap.js';
import { Queue } from './session/queue.js';
import { Retention } from './session/retention.js';
import { adoptPending } from './session/start.js';
import { Timeouts } from './timeouts.js';
import { logLine, quietStderr } from './log.js';
import { watchDatabase } from './db-watch.js';
import { handOverToWarden, startWarden } from './warden.js';

const log = logLine;

/** The daemon's parts over one context, reconciled with what happened while no daemon ran, and started. */
async function startEngine(ctx: DaemonContext): Promise<Engine & { timeouts: Timeouts; retention: Retention; ends: SessionEnds }> {
  const jobs = new Jobs(ctx);
  const monitor = new Monitor(ctx, jobs);
  const queue = new Queue(ctx);
  const timeouts = new Timeouts(ctx, monitor, jobs);
  const retention = new Retention(ctx);
  await adoptPending(ctx);
  await monitor.refresh();
  const ends = watchSessionEnds(ctx);
  watchRestartPolicies(ctx, queue);
  watchHooks(ctx);
  startLogClock(ctx);
  jobs.watch.reconcile();
  // Finished sessions whose processes outlived them while no daemon ran (ADR 0027).
  void reapLeftovers(ctx).catch((err) => log(`ending leftovers of finished sessions: ${(err as Error).message}`));
  monitor.start();
  startMemoryUpkeep();
  queue.start();
  queue.pump();
  timeouts.start();
  retention.start();
  void retention.sweep().catch((err) => log(`retention sweep: ${(err as Error).message}`)); // catch up after downtime
  return { ctx, jobs, monitor, queue, timeouts, retention, ends };
}

/** Runs the daemon in this process until stopped (`amux daemon run`, or detached by the CLI). */
export async function runDaemon(): Promise<void> {
  const paths = amuxPaths();
  let lock: ReturnType<typeof acquireDaemonLock> = null;
  try {
    // Files amux writes are its own (0600/0700); sessions get the caller's umask back in their rcfile.
    process.umask(0o077);
    // A daemon started from inside a session is no process of it (ADR 0027): nor is its tmux server.
    delete process.env.AMUX_SESSION_ID;
    forgetDaemonEnv(process.env);
    ensureDir(paths.home);
    checkHome(paths);
    chmodSync(paths.home, 0o700);
    lock = acquireDaemonLock(paths.lockDb);
    if (!lock) {
      log('another daemon holds the lock for this AMUX_HOME; exiting');
      return;
    }
    const held = lock;
    if (Buffer.byteLength(paths.socket) > MAX_SOCKET_PATH) {
      throw new AmuxError('daemon_unreachable', `AMUX_HOME ${paths.home} is too long for a Unix socket path (max ${MAX_SOCKET_PATH - 9} bytes); use a shorter AMUX_HOME`);
    }
    const tmuxVersion = await checkTmuxVersion();
    // Every setting is checked before anything is written: a bad one is refused with nothing made.
    const settings = resolveSettings(readConfigFile(paths), process.env);
    const useControl = controlClientWanted(process.env.AMUX_TMUX_CONTROL, tmuxVersion);
    const ctx = createContext(paths, settings, findPrograms(), useControl);
    // Before any session can start: what ends a session's leftovers when this daemon is gone (ADR 0066).
    startWarden(paths, ctx.programs.bash);
    chmodSync(paths.db, 0o600);
    const engine = await startEngine(ctx);
    // No limit on receiving a whole request (node's default cuts one after 300 s with a 408): the
    // body of a job's stdin (ADR 0017) lasts as long as the caller's stdin does.
    const server = createServer({ keepAliveTimeout: 1000, requestTimeout: 0 });
    let stopping = false;
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      await gracefulStop(server, router, engine, paths);
      held.close();
      process.exit(0);
    };
    const router = buildRouter(engine, () => void stop());
    server.on('request', (req, res) => {
      // Somebody calls: no session's looks rest until a while after the last request ends (ADR 0071).
      const { callers } = ctx;
      callers.open++;
      res.once('close', () => {
        callers.open--;
        callers.lastAt = Date.now();
      });
      res.setHeader(API_VERSION_HEADER, API_VERSION);
      void router.handle(req, res);
    });
    await listen(server, paths);
    // Its history is gone with it: a daemon that went on would lose all it writes from now on. The
    // next command starts a new one, which adopts the sessions tmux still runs (session/start.ts).
    watchDatabase(paths.db, (why) => {
      log(`${why} under the running daemon; stopping, so that the next command starts over from what tmux still runs`);
      void stop();
    });
    process.on('SIGTERM', () => void stop());
    process.on('SIGINT', () => void stop());
    process.on('SIGHUP', () => undefined);
    log(`listening on ${paths.socket} (${tmuxVersion}; tmux calls ${{ off: 'as processes', 'own-server': 'through one control-mode client on a server it starts', 'any-server': 'through one control-mode client' }[ctx.tmux.use]}, ADR 0067; ${codeCacheUse()})`);
  } catch (err) {
    const e = startError(err);
    log(`cannot start: ${e.message}`);
    try {
      // Atomic: many failing daemons may write it at once while CLIs read it.
      const tmp = `${paths.startupError}.${process.pid}`;
      writeHomeFile(tmp, JSON.stringify({ error: e.toJSON() }));
      renameSync(tmp, paths.startupError);
    } catch {
      /* nothing more to do */
    }
    lock?.close();
    process.exit(e.exitCode === EXIT.ok ? EXIT.failed : e.exitCode);
  }
}

/**
 * How this daemon's bundle was compiled, as the loader recorded it (`CACHE_USE` of
 * src/cli/code-cache.ts, a global: the loader is not bundled into the daemon; ADR 0069).
 */
function codeCacheUse(): string {
  const uses = (globalThis as { [k: symbol]: Record<string, string> | undefined })[Symbol.for('amux.codeCache')] ?? {};
  const use = Object.entries(uses).find(([file]) => file.endsWith('amuxd.js'))?.[1];
  if (use === 'read') return 'its code from the code cache, ADR 0069';
  if (use === 'written') return 'its code compiled, its code cache written 2 s in, ADR 0069';
  return 'its code compiled without a code cache, ADR 0069';
}

/**
 * Why the daemon cannot start, as the CLI reports it: a bad setting stays a usage error (exit 2)
 * and a missing tmux exit 4; anything else (an unusable database, an unwritable home) is exit 3,
 * the daemon cannot be started, with the reason.
 */
function startError(err: unknown): AmuxError {
  const e = toAmuxError(err);
  if (e.exitCode !== EXIT.failed) return e;
  return new AmuxError('daemon_unreachable', `the amux daemon cannot start: ${e.message}`, { cause: err });
}

/** Serves on the socket (0600), where a crashed daemon's stale socket may still lie. */
async function listen(server: Server, paths: AmuxPaths): Promise<void> {
  rmSync(paths.socket, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(paths.socket, () => resolve());
  });
  chmodSync(paths.socket, 0o600);
  writeHomeFile(paths.pidFile, `${process.pid}\n`);
}

/**
 * Graceful: no new connection is accepted; requests under way, starts, kills and sweeps finish
 * (up to 10 s); then the long ones (wait, follow) are cut (their CLIs reconnect) and the
 * database is closed. Sessions keep running.
 */
async function gracefulStop(server: Server, router: Router, e: Awaited<ReturnType<typeof startEngine>>, paths: AmuxPaths): Promise<void> {
  log('stopping (sessions keep running)');
  server.close();
  server.closeIdleConnections();
  e.timeouts.stop();
  e.monitor.stop();
  const settled = (async () => {
    await router.drain(); // a run under way is started, not left pending for a daemon that may not come
    e.queue.stop();
    await Promise.all([e.queue.idle(), e.retention.stop(), e.monitor.idle(), allSessionLocksIdle()]);
    // Sessions that ended in the last second get their log size, and `run --rm` ones their removal, now.
    await e.ends.flush();
  })();
  await Promise.race([settled, sleep(10_000)]);
  e.ends.stop();
  e.ctx.tmux.close(); // its hidden control session ends with it (ADR 0037)
  server.closeAllConnections();
  e.ctx.regex.stop();
  e.ctx.store.db.close();
  await handOverToWarden();
  rmSync(paths.socket, { force: true });
  rmSync(paths.pidFile, { force: true });
}

quietStderr();
process.on('uncaughtException', (err) => log(`uncaught: ${err.stack ?? err}`));
process.on('unhandledRejection', (err) => log(`unhandled rejection: ${(err as Error)?.stack ?? err}`));
