import { AmuxError } from '../errors.js';
import { parseBytes, parseDuration } from './duration.js';
import { REST_AFTER_MS } from './look-pace.js';

/** Settings in force in a daemon (src/guides/configuration.md). */
export interface Settings {
  /** Sessions working, idle or paused at once; 0 = unlimited. More runs wait as `pending`. */
  maxLive: number;
  idleThresholdMs: number;
  logCapBytes: number;
  statusCacheMs: number;
  /** How long a finished session's tmux session stays attachable (ADR 0011). */
  finishedTtlMs: number;
  /** Finished sessions older than this are deleted from the history with their files. */
  historyRetentionMs: number;
  /** How often the retention sweep runs. */
  sweepIntervalMs: number;
  /** How long nobody calls, and a session's processes do not run, before its looks rest (ADR 0071). */
  restAfterMs: number;
  /** How long after a session's end its output settles before its log size is taken and `run --rm` removes it. */
  settleMs: number;
  /** `hooks` in config.json (src/guides/sessions.md "Notices"): shell commands run when any session ends, or fails. */
  hooks: Hooks;
}

export interface Hooks {
  onEnd: string | null;
  onFailure: string | null;
}

export const DEFAULT_SETTINGS: Settings = {
  maxLive: 0,
  idleThresholdMs: 3000,
  logCapBytes: 8 * 1024 * 1024,
  statusCacheMs: 2000,
  finishedTtlMs: 30 * 60_000,
  historyRetentionMs: 30 * 86_400_000,
  sweepIntervalMs: 60_000,
  restAfterMs: REST_AFTER_MS,
  settleMs: 1000,
  hooks: { onEnd: null, onFailure: null },
};

/** `"hooks": {"onEnd": "CMD", "onFailure": "CMD"}`: each a non-empty command line, nothing else. */
function parseHooks(raw: unknown): Hooks {
  if (raw === undefined || raw === null) return { onEnd: null, onFailure: null };
  if (typeof raw !== 'object' || Array.isArray(raw)) throw badSetting('hooks in config.json', raw, 'must be an object such as {"onFailure": "notify-send failed"}');
  const hooks: Hooks = { onEnd: null, onFailure: null };
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    if (k !== 'onEnd' && k !== 'onFailure') throw badSetting('hooks in config.json', raw, `unknown hook '${k}': use onEnd or onFailure`);
    if (typeof v !== 'string' || v.trim() === '' || v.includes('\0')) throw badSetting(`hooks.${k} in config.json`, v, 'must be a command line');
    hooks[k] = v;
  }
  return hooks;
}

/** src/guides/configuration.md: finishedTtl is clamped to 1m–180m (a value outside is brought in, not refused). */
export const FINISHED_TTL_RANGE = { min: 60_000, max: 180 * 60_000 } as const;

function parseCount(v: string): number {
  if (!/^\d+$/.test(v.trim())) throw new Error('must be a whole number, 0 or more (0 = unlimited)');
  const n = Number(v.trim());
  if (!Number.isSafeInteger(n)) throw new Error('is too large');
  return n;
}

interface Source {
  key: string;
  env: string;
  parse: (v: string) => number;
  /** Set only from the environment, for tests: the value is used as given (no clamp). */
  testOnly?: boolean;
}

/** Settings a user sets, by config.json key and AMUX_* variable. */
type NumericSetting = Exclude<keyof Settings, 'hooks'>;

const SOURCES: Partial<Record<NumericSetting, Source[]>> = {
  maxLive: [{ key: 'maxLive', env: 'AMUX_MAX_LIVE', parse: parseCount }],
  idleThresholdMs: [{ key: 'idleThreshold', env: 'AMUX_IDLE_THRESHOLD', parse: (v) => parseDuration(v, 'idleThreshold') }],
  logCapBytes: [{ key: 'logCap', env: 'AMUX_LOG_CAP', parse: (v) => parseBytes(v, 'logCap') }],
  finishedTtlMs: [
    { key: 'finishedTtl', env: 'AMUX_FINISHED_TTL', parse: (v) => parseDuration(v, 'finishedTtl') },
    { key: '', env: 'AMUX_TEST_FINISHED_TTL', parse: (v) => parseDuration(v, 'finishedTtl'), testOnly: true },
  ],
  historyRetentionMs: [{ key: 'historyRetention', env: 'AMUX_HISTORY_RETENTION', parse: (v) => parseDuration(v, 'historyRetention') }],
  sweepIntervalMs: [{ key: '', env: 'AMUX_TEST_SWEEP_INTERVAL', parse: (v) => parseDuration(v, 'sweep interval'), testOnly: true }],
  restAfterMs: [{ key: '', env: 'AMUX_TEST_REST_AFTER', parse: (v) => parseDuration(v, 'rest after'), testOnly: true }],
  settleMs: [{ key: '', env: 'AMUX_TEST_SETTLE', parse: (v) => parseDuration(v, 'settle'), testOnly: true }],
};

/** The keys config.json holds: the settings, `hooks`, and the CLI's `contexts` and `context` (src/guides/remote.md). */
const CONFIG_KEYS = ['maxLive', 'idleThreshold', 'logCap', 'finishedTtl', 'historyRetention', 'hooks', 'contexts', 'context'];

/**
 * A key that is a known one spelt in another case or with `-`/`_` (`maxlive`, `max_live`) would be
 * ignored silently: it is refused, naming the key meant. Other unknown keys are left alone, so that a
 * newer amux's config.json stays readable by this one.
 */
function checkKeySpelling(config: Record<string, unknown>): void {
  const fold = (k: string) => k.toLowerCase().replace(/[-_]/g, '');
  for (const key of Object.keys(config)) {
    if (CONFIG_KEYS.includes(key)) continue;
    const meant = CONFIG_KEYS.find((k) => fold(k) === fold(key));
    if (meant) throw new AmuxError('invalid_argument', `unknown setting '${key}' in config.json: did you mean '${meant}'? (keys are case-sensitive)`);
  }
}

/** The AMUX_* variable of a setting a user sets in config.json (`maxLive` → AMUX_MAX_LIVE); null for no such setting. */
export function settingEnvOf(key: string): string | null {
  for (const sources of Object.values(SOURCES)) for (const src of sources!) if (!src.testOnly && src.key === key) return src.env;
  return null;
}

/** A setting's bad value, as a usage error (exit 2) that names it and says what it must be. */
export function badSetting(from: string, raw: unknown, why: string): AmuxError {
  // JSON reads 1e309 as Infinity, which JSON.stringify would show as null.
  const shown = typeof raw === 'number' ? String(raw) : JSON.stringify(raw);
  return new AmuxError('invalid_argument', `bad setting ${from}=${shown}: ${why}`);
}

/**
 * Merges config.json values and AMUX_* variables (the variable wins); a bad value names the
 * setting. Keys amux does not know are left alone (a newer version's config stays readable).
 */
export function resolveSettings(config: Record<string, unknown>, env: NodeJS.ProcessEnv): Settings {
  checkKeySpelling(config);
  const out: Settings = { ...DEFAULT_SETTINGS, hooks: parseHooks(config.hooks) };
  const tested = new Set<NumericSetting>();
  for (const [field, sources] of Object.entries(SOURCES) as [NumericSetting, Source[]][]) {
    for (const src of sources) {
      const fromEnv = env[src.env] !== undefined && env[src.env] !== '';
      const raw = fromEnv ? env[src.env] : src.testOnly ? undefined : config[src.key];
      if (raw === undefined || raw === null || raw === '') continue;
      const from = fromEnv ? src.env : `${src.key} in config.json`;
      if (typeof raw !== 'string' && typeof raw !== 'number') throw badSetting(from, raw, 'must be a string or a number');
      if (typeof raw === 'number' && !Number.isFinite(raw)) throw badSetting(from, raw, 'must be a finite number');
      try {
        out[field] = src.parse(String(raw));
      } catch (err) {
        throw badSetting(from, raw, (err as Error).message.replace(/^invalid [^']*'[^']*': /, ''));
      }
      if (src.testOnly) tested.add(field);
    }
  }
  if (out.logCapBytes < 4096) throw new AmuxError('invalid_argument', `bad setting logCap: ${out.logCapBytes} bytes is below the minimum of 4KiB`);
  if (out.idleThresholdMs < 100) throw new AmuxError('invalid_argument', `bad setting idleThreshold: must be at least 100ms`);
  if (out.historyRetentionMs < 60_000) throw new AmuxError('invalid_argument', `bad setting historyRetention: must be at least 1m (default 30d)`);
  if (out.sweepIntervalMs < 100) throw new AmuxError('invalid_argument', `bad setting AMUX_TEST_SWEEP_INTERVAL: must be at least 100ms`);
  if (!tested.has('finishedTtlMs')) out.finishedTtlMs = Math.min(FINISHED_TTL_RANGE.max, Math.max(FINISHED_TTL_RANGE.min, out.finishedTtlMs));
  return out;
}

