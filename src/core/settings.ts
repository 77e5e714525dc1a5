import { AmuxError } from '../errors.js';
import { parseBytes, parseDuration } from './duration.js';

/** Settings in force in a daemon (SPEC §6). */
export interface Settings {
  idleThresholdMs: number;
  logCapBytes: number;
  statusCacheMs: number;
}

export const DEFAULT_SETTINGS: Settings = {
  idleThresholdMs: 3000,
  logCapBytes: 8 * 1024 * 1024,
  statusCacheMs: 2000,
};

const SOURCES = {
  idleThresholdMs: { key: 'idleThreshold', env: 'AMUX_IDLE_THRESHOLD', parse: (v: string) => parseDuration(v, 'idleThreshold') },
  logCapBytes: { key: 'logCap', env: 'AMUX_LOG_CAP', parse: (v: string) => parseBytes(v, 'logCap') },
} as const;

/** Merges config.json values and AMUX_* variables (the variable wins); a bad value names the setting. */
export function resolveSettings(config: Record<string, unknown>, env: NodeJS.ProcessEnv): Settings {
  const out: Settings = { ...DEFAULT_SETTINGS };
  for (const [field, src] of Object.entries(SOURCES) as [keyof typeof SOURCES, (typeof SOURCES)[keyof typeof SOURCES]][]) {
    const fromEnv = env[src.env] !== undefined && env[src.env] !== '';
    const raw = fromEnv ? env[src.env] : config[src.key];
    if (raw === undefined || raw === null || raw === '') continue;
    try {
      out[field] = src.parse(String(raw));
    } catch (err) {
      const from = fromEnv ? src.env : `${src.key} in config.json`;
      throw new AmuxError('invalid_argument', `bad setting ${from}=${JSON.stringify(raw)}: ${(err as Error).message.replace(/^invalid [^']*'[^']*': /, '')}`);
    }
  }
  if (out.logCapBytes < 4096) throw new AmuxError('invalid_argument', `bad setting logCap: ${out.logCapBytes} bytes is below the minimum of 4KiB`);
  if (out.idleThresholdMs < 100) throw new AmuxError('invalid_argument', `bad setting idleThreshold: must be at least 100ms`);
  return out;
}
