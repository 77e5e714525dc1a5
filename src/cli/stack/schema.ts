import { boundedMs, parseDuration } from '../../core/duration.js';
import { checkLabel } from '../../core/labels.js';
import { parseRestartPolicy } from '../../core/restart-policy.js';
import type { AmuxError } from '../../errors.js';
import {
  CONDITIONS, isReservedLabel, READY_INTERVAL_MS, READY_TIMEOUT_MS,
  type Condition, type ReadySpec, type ServiceSpec,
} from './spec.js';
import { fileError, type Entry, type Tree } from './tree.js';

/** A service's key: it becomes part of a session name (STACK-KEY). */
export const SERVICE_KEY = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/;

const SERVICE_FIELDS = ['command', 'argv', 'cwd', 'env', 'env_file', 'depends_on', 'ready', 'restart', 'timeout', 'idle_timeout', 'labels', 'group'];
/** A group's name, as `amux group add` takes it (src/guides/sessions.md "Restart, labels, groups"). */
const GROUP_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const READY_FIELDS = ['until', 'http', 'exec', 'timeout', 'interval'];

/**
 * Checks a stack file's tree against the schema of ADR 0035 and returns its services. The first
 * mistake throws one line naming the file, the line and the field (exit 2).
 */
export function checkStack(tree: Tree, file: string): ServiceSpec[] {
  const fail = (line: number, field: string, what: string) => fileError(file, line, field, what);
  const top = asMap(tree, '', fail, 'the file must be a mapping with a sessions: key');
  for (const e of top.entries) if (e.key !== 'sessions') throw fail(e.line, e.key, 'unknown field (the file has one key, sessions:)');
  const sessions = top.entries.find((e) => e.key === 'sessions');
  if (!sessions) throw fail(tree.line, 'sessions', 'missing: list the sessions under sessions:');
  const map = asMap(sessions.value, 'sessions', fail);
  if (map.entries.length === 0) throw fail(sessions.line, 'sessions', 'no sessions: add at least one');
  return map.entries.map((e) => checkService(e, fail));
}

type Fail = (line: number, field: string, what: string) => AmuxError;
type MapTree = Extract<Tree, { kind: 'map' }>;

function checkService(entry: Entry, fail: Fail): ServiceSpec {
  const key = entry.key;
  const at = `sessions.${key}`;
  if (!SERVICE_KEY.test(key)) throw fail(entry.line, at, 'invalid session key: use 1-40 characters from A-Z a-z 0-9 . _ -, starting with a letter or digit');
  const body = asMap(entry.value, at, fail, 'must be a mapping, e.g. { command: "npm run dev" }');
  const spec: ServiceSpec = { key, line: entry.line, env: {}, envFiles: [], dependsOn: {}, labels: {} };
  for (const f of body.entries) {
    const field = `${at}.${f.key}`;
    const v = f.value;
    switch (f.key) {
      case 'command': spec.command = nonEmpty(v, field, fail); break;
      case 'argv': {
        const items = asSeq(v, field, fail).items.map((x) => scalarText(x, field, fail));
        if (items.length === 0) throw fail(v.line, field, 'empty: give the program and its arguments');
        spec.argv = items;
        break;
      }
      case 'cwd': spec.cwd = nonEmpty(v, field, fail); break;
      case 'env': spec.env = stringMap(v, field, fail); break;
      case 'env_file': spec.envFiles = v.kind === 'seq' ? v.items.map((x) => nonEmpty(x, field, fail)) : [nonEmpty(v, field, fail)]; break;
      case 'depends_on': spec.dependsOn = dependsOn(v, field, fail); break;
      case 'ready': spec.ready = ready(v, field, fail); break;
      case 'restart': spec.restart = guarded(v, field, fail, (t) => (parseRestartPolicy(t), t)); break;
      case 'timeout': spec.timeoutMs = duration(v, field, fail); break;
      case 'idle_timeout': spec.idleTimeoutMs = duration(v, field, fail); break;
      case 'labels': spec.labels = labels(v, field, fail); break;
      case 'group': {
        const name = nonEmpty(v, field, fail);
        if (!GROUP_NAME.test(name)) throw fail(v.line, field, `invalid group name '${name}': use 1-64 characters from A-Z a-z 0-9 . _ -, starting with a letter or digit`);
        spec.group = { name, line: v.line };
        break;
      }
      default: throw fail(f.line, field, `unknown field (known: ${SERVICE_FIELDS.join(', ')})`);
    }
  }
  if (spec.command !== undefined && spec.argv !== undefined) throw fail(entry.line, at, 'give command or argv, not both');
  if (spec.command === undefined && spec.argv === undefined) throw fail(entry.line, at, 'missing command: give command: "a shell line" or argv: [program, args…]');
  return spec;
}

function dependsOn(v: Tree, field: string, fail: Fail): Record<string, Condition> {
  const out: Record<string, Condition> = {};
  if (v.kind === 'seq') {
    for (const x of v.items) out[nonEmpty(x, field, fail)] = 'started';
    return out;
  }
  for (const e of asMap(v, field, fail, 'must be a list of sessions or a mapping session: condition').entries) {
    let cond = e.value;
    if (cond.kind === 'map') {
      const c = cond.entries.find((x) => x.key === 'condition');
      const other = cond.entries.find((x) => x.key !== 'condition');
      if (other) throw fail(other.line, `${field}.${e.key}.${other.key}`, 'unknown field (known: condition)');
      if (!c) throw fail(cond.line, `${field}.${e.key}`, `missing condition: one of ${CONDITIONS.join(', ')}`);
      cond = c.value;
    }
    const text = cond.kind === 'scalar' && cond.value === null ? 'started' : scalarText(cond, `${field}.${e.key}`, fail);
    if (!(CONDITIONS as readonly string[]).includes(text)) throw fail(cond.line, `${field}.${e.key}`, `unknown condition '${text}': use ${CONDITIONS.join(', ')}`);
    out[e.key] = text as Condition;
  }
  return out;
}

function ready(v: Tree, field: string, fail: Fail): ReadySpec {
  const m = asMap(v, field, fail, 'must be a mapping: { until: "output:REGEX" | idle | exited } or { http: URL } or { exec: CMD }, with timeout and interval');
  const probes = m.entries.filter((e) => e.key === 'until' || e.key === 'http' || e.key === 'exec');
  if (probes.length !== 1) throw fail(m.line, field, 'give exactly one of until, http or exec');
  let timeoutMs = READY_TIMEOUT_MS;
  let intervalMs = READY_INTERVAL_MS;
  for (const e of m.entries) {
    const f = `${field}.${e.key}`;
    if (e.key === 'timeout') timeoutMs = duration(e.value, f, fail);
    else if (e.key === 'interval') intervalMs = Math.max(50, duration(e.value, f, fail));
    else if (!READY_FIELDS.includes(e.key)) throw fail(e.line, f, `unknown field (known: ${READY_FIELDS.join(', ')})`);
  }
  const p = probes[0]!;
  const f = `${field}.${p.key}`;
  const text = nonEmpty(p.value, f, fail);
  if (p.key === 'http') {
    if (!/^https?:\/\/[^\s/]+/.test(text)) throw fail(p.value.line, f, `'${text}' is not an http:// or https:// URL`);
    return { kind: 'http', url: text, timeoutMs, intervalMs };
  }
  if (p.key === 'exec') return { kind: 'exec', command: text, timeoutMs, intervalMs };
  if (text.startsWith('output:')) {
    guarded(p.value, f, fail, () => new RegExp(text.slice('output:'.length), 'm'));
  } else if (text !== 'idle' && text !== 'exited') {
    throw fail(p.value.line, f, `'${text}': use output:REGEX, idle or exited`);
  }
  return { kind: 'until', until: text, timeoutMs, intervalMs };
}

function labels(v: Tree, field: string, fail: Fail): Record<string, string> {
  const out = stringMap(v, field, fail);
  for (const [k, val] of Object.entries(out)) {
    const line = (v as MapTree).entries.find((e) => e.key === k)!.line;
    if (isReservedLabel(k)) throw fail(line, `${field}.${k}`, 'stack, service and stack.* are set by amux up');
    guarded({ kind: 'scalar', line, value: val }, `${field}.${k}`, fail, () => checkLabel(k, val));
  }
  return out;
}

function stringMap(v: Tree, field: string, fail: Fail): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of asMap(v, field, fail).entries) {
    out[e.key] = e.value.kind === 'scalar' && e.value.value === null ? '' : scalarText(e.value, `${field}.${e.key}`, fail);
  }
  return out;
}

function duration(v: Tree, field: string, fail: Fail): number {
  if (v.kind === 'scalar' && typeof v.value === 'number' && v.value >= 0) return guarded(v, field, fail, () => boundedMs(Math.round(Number(v.value) * 1000), 'duration'));
  return guarded(v, field, fail, (t) => parseDuration(t));
}

/** Runs a check of core (a duration, a policy, a regex) on the text; its message, placed at the line. */
function guarded<T>(v: Tree, field: string, fail: Fail, check: (text: string) => T): T {
  const text = scalarText(v, field, fail);
  try {
    return check(text);
  } catch (err) {
    throw fail(v.line, field, (err as Error).message);
  }
}

function asMap(v: Tree, field: string, fail: Fail, what = 'must be a mapping'): MapTree {
  if (v.kind !== 'map') throw fail(v.line, field, what);
  return v;
}

function asSeq(v: Tree, field: string, fail: Fail): Extract<Tree, { kind: 'seq' }> {
  if (v.kind !== 'seq') throw fail(v.line, field, 'must be a list');
  return v;
}

function scalarText(v: Tree, field: string, fail: Fail): string {
  if (v.kind !== 'scalar' || v.value === null) throw fail(v.line, field, 'must be a text, number or boolean');
  return String(v.value);
}

function nonEmpty(v: Tree, field: string, fail: Fail): string {
  const t = scalarText(v, field, fail);
  if (t.trim() === '') throw fail(v.line, field, 'empty');
  return t;
}
