import type { Client } from '../client/client.js';
import { AmuxError } from '../errors.js';
import { amuxPaths } from '../paths.js';

/**
 * Which daemon a command talks to (src/guides/remote.md): the global options `--host URL` and
 * `--context NAME` before the command, else AMUX_HOST, else the local daemon. The ssh transport is
 * loaded only when a host is chosen, so a local command stays on its hot path (ADR 0008).
 */
let flagHost: string | undefined;
let flagContext: string | undefined;

/** Takes the leading global options `--host`/`--context` off `args` (commander never sees them). */
export function takeTargetOptions(args: readonly string[]): string[] {
  flagHost = flagContext = undefined;
  const kept: string[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    const m = /^--(host|context)(?:=(.*))?$/.exec(a);
    if (!m) {
      if (a === '--no-color') {
        kept.push(a);
        continue;
      }
      break;
    }
    let value = m[2];
    if (value === undefined) {
      value = args[i + 1];
      if (value === undefined || value.startsWith('-')) throw new AmuxError('usage', `option '--${m[1]} <${m[1] === 'host' ? 'url' : 'name'}>' argument missing`);
      i++;
    }
    if (!value) throw new AmuxError('usage', `option '--${m[1]}' needs a value`);
    if (m[1] === 'host') flagHost = value;
    else flagContext = value;
  }
  if (flagHost !== undefined && flagContext !== undefined) throw new AmuxError('usage', 'give --host or --context, not both');
  return [...kept, ...args.slice(i)];
}

/**
 * The ssh:// address of the daemon to talk to; null for the local one. In order: --host,
 * --context, AMUX_HOST, AMUX_CONTEXT, the current context of config.json (`amux context use`).
 */
export function targetUrl(env: NodeJS.ProcessEnv = process.env): string | null {
  if (flagHost !== undefined) return flagHost;
  if (flagContext !== undefined) return contextUrl(flagContext, '');
  if (env.AMUX_HOST) return env.AMUX_HOST;
  if (env.AMUX_CONTEXT) return contextUrl(env.AMUX_CONTEXT, ' (AMUX_CONTEXT)');
  const { readConfigFile, currentContext, contextHost } = require('./contexts.js') as typeof import('./contexts.js');
  let config: ReturnType<typeof readConfigFile>;
  try {
    config = readConfigFile(amuxPaths());
  } catch {
    return null; // a broken config.json is the daemon's to report (it names the file)
  }
  const name = currentContext(config);
  return name === 'local' ? null : contextHost(config, name, ' (the current context in config.json)');
}

function contextUrl(name: string, from: string): string | null {
  if (name === 'local') return null;
  const { readConfigFile, contextHost } = require('./contexts.js') as typeof import('./contexts.js');
  return contextHost(readConfigFile(amuxPaths()), name, from);
}

/** A client of the chosen daemon. */
export function newClient(autostart = true): Client {
  return clientOf(targetUrl(), autostart);
}

/** A client of the daemon at `url` (ssh://…), or of the local one for null. */
export function clientOf(url: string | null, autostart = true): Client {
  const { Client } = require('../client/client.js') as typeof import('../client/client.js');
  const paths = amuxPaths();
  if (url === null) return new Client(paths, autostart);
  const { SshTarget } = require('../client/ssh.js') as typeof import('../client/ssh.js');
  return new Client(paths, autostart, new SshTarget(url, paths.home));
}

/** A client of context `name` (`local`: this machine); an unknown name is a usage error. */
export function contextClient(name: string): Client {
  return clientOf(contextUrl(name, ''));
}
