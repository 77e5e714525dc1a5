import { parseDuration } from '../core/duration.js';
import { parseTimeRef } from '../core/log-times.js';
import { AmuxError } from '../errors.js';

/** Commander option parsers that fail with a usage error (exit 2) naming the flag. */
export function durationOption(flag: string) {
  return (value: string) => parseDuration(value, `${flag} duration`);
}

/** `--since`/`--until` of history and events: a duration before now, an ISO-8601 time or epoch ms; checked here, sent as written. */
export function timeOption(flag: string) {
  return (value: string) => {
    try {
      parseTimeRef(value, Date.now(), flag);
    } catch (err) {
      // A duration past the longest keeps its own message (ADR 0054); anything else names the forms.
      if (/the longest is/.test((err as Error).message)) throw err;
      throw new AmuxError('usage', `invalid ${flag} '${value}': give a duration before now (90s, 2h, 7d), an ISO time (2026-11-26T10:00:00Z) or epoch ms`);
    }
    return value;
  };
}

export function intOption(flag: string) {
  return (value: string) => {
    if (!/^\d+$/.test(value)) throw new AmuxError('usage', `invalid ${flag} '${value}': give a non-negative integer`);
    return Number(value);
  };
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `-e KEY=VAL`, repeatable. */
export function envOption(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const eq = value.indexOf('=');
  const key = eq < 0 ? value : value.slice(0, eq);
  if (!ENV_NAME.test(key)) {
    throw new AmuxError('usage', `invalid --env ${JSON.stringify(value)}: use KEY=VALUE with KEY made of letters, digits and _`);
  }
  if (eq < 0) {
    const inherited = process.env[key];
    if (inherited === undefined) throw new AmuxError('usage', `--env ${key}: no value given and ${key} is not set here; use ${key}=VALUE`);
    return { ...previous, [key]: inherited };
  }
  return { ...previous, [key]: value.slice(eq + 1) };
}

/** The options of `amux exec` (the same fields commander fills). */
export interface ExecFlags {
  /** `-i`: our stdin is the job's stdin, EOF included (ADR 0017). */
  interactive?: boolean;
  background?: boolean;
  timeout?: number;
  tty?: boolean;
  json?: boolean;
}

/**
 * The words after `amux exec ID`: options (as in src/guides/sessions.md, `exec ID [-i] [-b] [--timeout DUR] [--tty]
 * [--json] -- cmd…`) up to `--` or the first word that is not an option, then the command.
 * Returns null for what only commander answers (help).
 */
export function parseExecWords(words: readonly string[], into: ExecFlags = {}): { cmd: string[]; opts: ExecFlags } | null {
  const opts = { ...into };
  for (let i = 0; i < words.length; i++) {
    const a = words[i]!;
    if (a === '--') return { cmd: words.slice(i + 1), opts };
    if (!a.startsWith('-') || a === '-') return { cmd: words.slice(i), opts };
    if (a === '-b' || a === '--background') opts.background = true;
    else if (a === '-i' || a === '--interactive') opts.interactive = true;
    else if (a === '--tty') opts.tty = true;
    else if (a === '--json') opts.json = true;
    else if (a === '--timeout' || a.startsWith('--timeout=')) {
      const value = a === '--timeout' ? words[++i] : a.slice('--timeout='.length);
      if (value === undefined || value === '') throw new AmuxError('usage', "option '--timeout <dur>' argument missing");
      opts.timeout = parseDuration(value, '--timeout duration');
    } else if (a === '-h' || a === '--help') return null;
    else throw new AmuxError('usage', `unknown option '${a}' for exec; a command that starts with - goes after --: amux exec ID -- CMD`);
  }
  return { cmd: [], opts };
}
