import { chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { resolveSettings } from '../core/settings.js';
import { AmuxError, EXIT, toAmuxError } from '../errors.js';
import { amuxPaths, ensureDir, MAX_SOCKET_PATH } from '../paths.js';
import { checkTmuxVersion } from '../tmux/tmux.js';
import { createContext, findPrograms, type DaemonContext } from './context.js';
import { acquireDaemonLock } from './lock.js';
import { Monitor } from './monitor.js';
import { Jobs } from './jobs.js';
import { buildRouter } from './routes.js';
import { listPanesArgs, parsePanes, tmuxSessionName } from '../tmux/commands.js';
import { begin, shellOf } from './session-create.js';
import { Queue } from './queue.js';
import { Timeouts } from './timeouts.js';
import { Retention } from './retention.js';
import { allSessionLocksIdle } from './session-lock.js';
import { setTimeout as sleep } from 'node:timers/promises';

function log(msg: string): void {
  process.stderr.write(`${new Date().toISOString()} [amuxd ${process.pid}] ${msg}\n`);
}

function readConfig(file: string): Record<string, unknown> {
  if (!existsSync(file)) return {};
  try {
    const v = JSON.parse(readFileSync(file, 'utf8'));
    if (v && typeof v === 'object' && !Array.isArray(v)) return v;
  } catch {
    /* reported below */
  }
  throw new AmuxError('invalid_argument', `${file} is not a JSON object; fix or remove it`);
}

/**
 * Pending sessions wait in the queue across a restart. One whose tmux session exists was being
 * started when the last daemon died: it runs, so it is adopted rather than started twice.
 */
async function reconcilePending(ctx: DaemonContext): Promise<void> {
  const pending = ctx.store.listSessions({ statuses: ['pending'] });
  if (pending.length === 0) return;
  const panes = new Map(parsePanes(await ctx.tmux.runIfServer(listPanesArgs())).map((p) => [p.sessionName, p]));
  for (const s of pending) {
    const pane = panes.get(tmuxSessionName(s.id));
    if (pane) begin(ctx, s, pane.paneId, await shellOf(pane.panePid));
  }
}

/** Runs the daemon in this process until stopped (`amux daemon run`, or detached by the CLI). */
export async function runDaemon(): Promise<void> {
  const paths = amuxPaths();
  let lock: ReturnType<typeof acquireDaemonLock> = null;
  try {
    // Files amux writes are its own (0600/0700); sessions get the caller's umask back in their rcfile.
    process.umask(0o077);
    ensureDir(paths.home);
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
    const settings = resolveSettings(readConfig(paths.config), process.env);
    const ctx = createContext(paths, settings, findPrograms());
    const { store } = ctx;
    chmodSync(paths.db, 0o600);
    const jobs = new Jobs(ctx);
    const monitor = new Monitor(ctx, jobs);
    const queue = new Queue(ctx);
    const timeouts = new Timeouts(ctx, monitor);
    const retention = new Retention(ctx);
    await reconcilePending(ctx);
    await monitor.refresh();
    jobs.reconcile();
    monitor.start();
    queue.start();
    queue.pump();
    timeouts.start();
    retention.start();
    void retention.sweep().catch((err) => log(`retention sweep: ${(err as Error).message}`)); // catch up after downtime

    let stopping = false;
    const server = createServer({ keepAliveTimeout: 1000 });
    /**
     * Graceful: no new connection is accepted; requests under way, starts, kills and sweeps finish
     * (up to 10 s); then the long ones (wait, follow) are cut — their CLIs reconnect — and the
     * database is closed. Sessions keep running.
     */
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      log('stopping (sessions keep running)');
      server.close();
      server.closeIdleConnections();
      timeouts.stop();
      monitor.stop();
      jobs.stop();
      const settled = (async () => {
        await router.drain(); // a run under way is started, not left pending for a daemon that may not come
        queue.stop();
        await Promise.all([queue.idle(), retention.stop(), monitor.idle(), allSessionLocksIdle()]);
      })();
      await Promise.race([settled, sleep(10_000)]);
      server.closeAllConnections();
      store.db.close();
      rmSync(paths.socket, { force: true });
      rmSync(paths.pidFile, { force: true });
      held.close();
      process.exit(0);
    };
    const router = buildRouter(ctx, { monitor, jobs, queue }, () => void stop());
    server.on('request', (req, res) => void router.handle(req, res));
    rmSync(paths.socket, { force: true });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(paths.socket, () => resolve());
    });
    chmodSync(paths.socket, 0o600);
    writeFileSync(paths.pidFile, `${process.pid}\n`, { mode: 0o600 });
    process.on('SIGTERM', () => void stop());
    process.on('SIGINT', () => void stop());
    process.on('SIGHUP', () => undefined);
    log(`listening on ${paths.socket} (${tmuxVersion})`);
  } catch (err) {
    const e = toAmuxError(err);
    log(`cannot start: ${e.message}`);
    try {
      // Atomic: many failing daemons may write it at once while CLIs read it.
      const tmp = `${paths.startupError}.${process.pid}`;
      writeFileSync(tmp, JSON.stringify({ error: e.toJSON() }), { mode: 0o600 });
      renameSync(tmp, paths.startupError);
    } catch {
      /* nothing more to do */
    }
    lock?.close();
    process.exit(e.exitCode === EXIT.ok ? EXIT.failed : e.exitCode);
  }
}

process.on('uncaughtException', (err) => log(`uncaught: ${err.stack ?? err}`));
process.on('unhandledRejection', (err) => log(`unhandled rejection: ${(err as Error)?.stack ?? err}`));

