import { AmuxError } from '../errors.js';
import type { Labels } from './labels.js';
import { SESSION_STATUSES, TERMINAL_STATUSES, LIVE_STATUSES, type SessionStatus } from './status.js';

/**
 * Session filters (src/guides/sessions.md "Restart, labels, groups"): `--filter name=GLOB`, `--filter label=KEY[=VALUE]`,
 * `--filter status=LIST`, as docker's `ps --filter`. Several filters must all hold; several
 * `label=` filters likewise; `status=` lists are alternatives. Pure: parsed into data, matched by
 * `matchesFilters`, and the same on the CLI side and in the daemon.
 */
export interface SessionFilters {
  /** Globs (`*`, `?`) on the name; a session without a name never matches. */
  names: string[];
  /** KEY (present) or KEY=VALUE (equal). */
  labels: { key: string; value: string | null }[];
  statuses: SessionStatus[];
}

export const FILTER_KEYS = ['name', 'label', 'status'] as const;

/** The status words `live` (pending, working, idle, paused) and `finished` (the terminal ones) as `top` knows them. */
export function expandStatusWords(list: string): string[] {
  const out: string[] = [];
  for (const raw of list.split(',')) {
    const w = raw.trim();
    if (!w) continue;
    if (w === 'live') out.push('pending', ...LIVE_STATUSES);
    else if (w === 'finished') out.push(...TERMINAL_STATUSES);
    else out.push(w);
  }
  return [...new Set(out)];
}

export function parseStatusList(list: string): SessionStatus[] {
  const items = expandStatusWords(list);
  const bad = items.find((s) => !(SESSION_STATUSES as readonly string[]).includes(s));
  if (bad !== undefined) throw new AmuxError('usage', `unknown status '${bad}': use ${SESSION_STATUSES.join(', ')}, live or finished`);
  return items as SessionStatus[];
}

export function emptyFilters(): SessionFilters {
  return { names: [], labels: [], statuses: [] };
}

/** One `--filter KEY=VALUE`, added to `into`. */
export function parseFilter(arg: string, into: SessionFilters = emptyFilters()): SessionFilters {
  const eq = arg.indexOf('=');
  const key = eq < 0 ? arg : arg.slice(0, eq);
  const value = eq < 0 ? '' : arg.slice(eq + 1);
  if (!(FILTER_KEYS as readonly string[]).includes(key) || value === '') {
    throw new AmuxError('usage', `invalid --filter ${JSON.stringify(arg)}: use name=GLOB, label=KEY, label=KEY=VALUE or status=LIST`);
  }
  if (key === 'name') return { ...into, names: [...into.names, value] };
  if (key === 'status') return { ...into, statuses: [...into.statuses, ...parseStatusList(value)] };
  const leq = value.indexOf('=');
  const label = leq < 0 ? { key: value, value: null } : { key: value.slice(0, leq), value: value.slice(leq + 1) };
  return { ...into, labels: [...into.labels, label] };
}

/** A glob (`*` any run, `?` one character; everything else literal) as an anchored regular expression. */
export function globRegex(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

export function matchesFilters(s: { name: string | null; status: SessionStatus; labels: Labels }, f: SessionFilters): boolean {
  if (f.statuses.length && !f.statuses.includes(s.status)) return false;
  if (f.names.length && (s.name === null || !f.names.some((g) => globRegex(g).test(s.name!)))) return false;
  return f.labels.every((l) => Object.hasOwn(s.labels, l.key) && (l.value === null || s.labels[l.key] === l.value));
}

/** Filters as query values of `GET /v1/sessions` and `/v1/history` (`name`, `label`; statuses go in `status`). */
export function filtersQuery(f: SessionFilters): { name?: string[]; label?: string[] } {
  return {
    ...(f.names.length ? { name: f.names } : {}),
    ...(f.labels.length ? { label: f.labels.map((l) => (l.value === null ? l.key : `${l.key}=${l.value}`)) } : {}),
  };
}
