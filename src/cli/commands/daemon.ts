import { setTimeout as sleep } from 'node:timers/promises';
import { AmuxError } from '../../errors.js';
import { isAlive } from '../../process/process-table.js';
import { formatDuration } from '../../core/duration.js';
import type { Client } from '../../client/client.js';
import { NoAnswerError } from '../../client/http.js';
import { launchDaemon, runDaemonHere } from '../../client/launcher.js';
import type { Health } from '../../protocol/daemon.js';
import { printJson, writeOut } from '../output.js';

async function health(client: Client): Promise<Health | null> {
  try {
    return await client.health();
  } catch (err) {
    // Not running is null; one that runs and does not answer (stopped, hung) is its own error.
    if (err instanceof AmuxError && err.code === 'daemon_unreachable' && !(err.cause instanceof NoAnswerError)) return null;
    throw err;
  }
}

/** `amux daemon start|stop|status|run`. */
export async function daemonCommand(action: string, opts: { json?: boolean }): Promise<number> {
  if (action === 'dial-stdio') return (require('../dial-stdio.js') as typeof import('../dial-stdio.js')).dialStdio();
  const client = (require('../target.js') as typeof import('../target.js')).newClient(false);
  const remote = client.remote;
  if (remote && action === 'run') throw new AmuxError('usage', `'amux daemon run' runs a daemon in this terminal; on ${remote.url}, run it there over ssh`);
  switch (action) {
    case 'start': {
      // On a host, the far side's dial-stdio starts its daemon with the first request.
      let h = remote ? await client.health() : await health(client);
      if (!h) {
        await launchDaemon(client.paths);
        h = await health(client);
      }
      await writeOut(`amux daemon running (pid ${h?.pid})\n`);
      return 0;
    }
    case 'stop': {
      const h = await health(client);
      if (!h) {
        await writeOut('amux daemon is not running\n');
        return 0;
      }
      await client.stopDaemon();
      if (remote) {
        await writeOut(`amux daemon on ${remote.url} stopping (pid ${h.pid}); sessions keep running\n`);
        return 0;
      }
      // Done when the process is gone: until then it holds the lock, and a new daemon cannot start.
      for (let i = 0; i < 200; i++) {
        if (!isAlive(h.pid)) { // a zombie is gone: its lock is released, whoever reaps it
          await writeOut(`amux daemon stopped (pid ${h.pid}); sessions keep running\n`);
          return 0;
        }
        await sleep(50);
      }
      throw new AmuxError('operation_failed', `the daemon (pid ${h.pid}) did not stop within 10s; kill it with: kill ${h.pid}`);
    }
    case 'status': {
      const h = await health(client);
      if (!h) {
        if (opts.json) printJson(null);
        process.stderr.write(`amux daemon is not running (AMUX_HOME ${client.paths.home})\n`);
        return 3;
      }
      if (opts.json) printJson(h);
      else await writeOut(formatStatus(h));
      return 0;
    }
    case 'run': {
      const h = await health(client);
      if (h) throw new AmuxError('operation_failed', `a daemon is already running for ${client.paths.home} (pid ${h.pid}); stop it first with 'amux daemon stop'`);
      return runDaemonHere(); // serves until stopped
    }
    default:
      throw new AmuxError('usage', `unknown daemon action '${action}': use start, stop, status or run`);
  }
}

/** The human `daemon status` (ADR 0023): one line, then a cli-table3 table of the daemon and the settings in force. */
export function formatStatus(h: Health): string {
  const { keyValueTable } = require('../tables.js') as typeof import('../tables.js');
  const s = h.settings;
  return `amux daemon running (pid ${h.pid})\n${keyValueTable([
    ['version', h.version],
    ['uptime', formatDuration(h.uptimeMs)],
    ['sessions', `${h.sessions} (${h.live} live, ${h.pending} pending)`],
    ['home', h.home],
    ['socket', h.socket],
    ['maxLive', s.maxLive ? String(s.maxLive) : 'unlimited'],
    ['idleThreshold', formatDuration(s.idleThresholdMs)],
    ['logCap', `${s.logCapBytes} bytes`],
    ['finishedTtl', formatDuration(s.finishedTtlMs)],
    ['historyRetention', formatDuration(s.historyRetentionMs)],
    ...(s.hooks?.onEnd ? [['hooks.onEnd', s.hooks.onEnd] as [string, string]] : []),
    ...(s.hooks?.onFailure ? [['hooks.onFailure', s.hooks.onFailure] as [string, string]] : []),
  ])}`;
}
