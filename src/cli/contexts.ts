import { readConfigFile, writeConfigFile } from '../config-file.js';
import { AmuxError } from '../errors.js';
import type { AmuxPaths } from '../paths.js';

export { readConfigFile };

/**
 * Contexts (src/guides/remote.md): named hosts in AMUX_HOME/config.json, next to the daemon's
 * settings, which ignores these keys (src/core/settings.ts leaves unknown keys alone):
 * `"contexts": {"gpu": {"host": "ssh://ann@gpu-box"}}` and `"context": "gpu"`, the current one.
 * `local`, this machine's daemon, is always there and cannot be added or removed.
 */
export const LOCAL = 'local';

export interface ContextEntry {
  name: string;
  /** null for `local`. */
  host: string | null;
}

type Config = Record<string, unknown> & { contexts?: Record<string, { host?: unknown }>; context?: unknown };

export function validContextName(name: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name)) {
    throw new AmuxError('usage', `bad context name '${name}': letters, digits, '.', '_' and '-' (up to 64), starting with a letter or digit`);
  }
  return name;
}

function contextsOf(config: Config): Record<string, { host?: unknown }> {
  const c = config.contexts;
  return c && typeof c === 'object' && !Array.isArray(c) ? c : {};
}

/** Every context, `local` first, then by name. */
export function listContexts(config: Config): ContextEntry[] {
  const out: ContextEntry[] = [{ name: LOCAL, host: null }];
  for (const name of Object.keys(contextsOf(config)).sort()) {
    const host = contextsOf(config)[name]?.host;
    if (name !== LOCAL && typeof host === 'string') out.push({ name, host });
  }
  return out;
}

/** The name of the current context (`amux context use`). */
export function currentContext(config: Config): string {
  return typeof config.context === 'string' && config.context ? config.context : LOCAL;
}

/** The host of context `name` (null for local); an unknown name is a usage error. */
export function contextHost(config: Config, name: string, from = ''): string | null {
  if (name === LOCAL) return null;
  const host = contextsOf(config)[name]?.host;
  if (typeof host !== 'string') throw new AmuxError('usage', `no context '${name}'${from}; see 'amux context ls'`);
  return host;
}

export function addContext(paths: AmuxPaths, name: string, host: string): void {
  const config = readConfigFile(paths);
  if (name === LOCAL) throw new AmuxError('usage', `'local' is this machine's daemon; choose another name`);
  if (typeof contextsOf(config)[name]?.host === 'string') throw new AmuxError('name_in_use', `context '${name}' exists (${String(contextsOf(config)[name]!.host)}); remove it first with 'amux context rm ${name}'`);
  writeConfigFile(paths, { ...config, contexts: { ...contextsOf(config), [name]: { host } } });
}

/** Removes a context; returns whether it was the current one (then `local` is). */
export function removeContext(paths: AmuxPaths, name: string): boolean {
  const config = readConfigFile(paths);
  if (name === LOCAL) throw new AmuxError('usage', `'local' is this machine's daemon and cannot be removed`);
  contextHost(config, name);
  const contexts = { ...contextsOf(config) };
  delete contexts[name];
  const wasCurrent = currentContext(config) === name;
  const next: Config = { ...config, contexts };
  if (wasCurrent) delete next.context;
  writeConfigFile(paths, next);
  return wasCurrent;
}

export function useContext(paths: AmuxPaths, name: string): void {
  const config = readConfigFile(paths);
  contextHost(config, name);
  const next: Config = { ...config };
  if (name === LOCAL) delete next.context;
  else next.context = name;
  writeConfigFile(paths, next);
}
