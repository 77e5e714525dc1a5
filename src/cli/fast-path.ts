import type { PsOptions } from './commands/ps.js';
import type { RunOptions } from './commands/run.js';
import { parseLabelArg } from '../core/labels.js';
import type { StateFlags } from './commands/state.js';
import type { SendFlags } from './commands/send.js';
import type { WaitFlags } from './commands/wait.js';
import type { LogsOptions } from './commands/logs.js';
import { durationOption, envOption, intOption, parseExecWords, type ExecFlags } from './parse.js';

/**
 * `amux ps`, `amux run`, `amux exec`, `amux wait`, `amux send`, `amux logs` and `amux state` (agents' hooks) are what scripts and agents call in
 * loops, and loading commander with the whole CLI costs more than node's own start (`wait` took 112 ms of CPU that way, 72 ms
 * here: scripts/PERFORMANCE.md, ADR 0008, ADR 0070). Their plain forms are parsed here; anything else
 * (help, unknown or bundled flags, other commands) returns null and goes through commander.
 * test/unit/fast-path.test.ts checks that both parsers agree.
 */
export type FastCommand =
  | { command: 'ps'; opts: PsOptions }
  | { command: 'run'; cmd: string[]; opts: RunOptions }
  | { command: 'exec'; ref: string; cmd: string[]; opts: ExecFlags }
  | { command: 'state'; state: string; opts: StateFlags }
  | { command: 'wait'; refs: string[]; opts: WaitFlags }
  | { command: 'send'; ref: string; words: string[]; opts: SendFlags }
  | { command: 'logs'; ref: string; opts: LogsOptions }
  /** `amux daemon dial-stdio`, the far end of every remote request (src/guides/remote.md). */
  | { command: 'dial-stdio' }
  /** `amux --version` (`-V`): commander would print the same line. */
  | { command: 'version' };

export function parseFast(args: readonly string[]): FastCommand | null {
  if (args[0] === 'ps') {
    const opts = parseFastPs(args);
    return opts && { command: 'ps', opts };
  }
  if (args[0] === 'run') return parseFastRun(args);
  if (args[0] === 'exec') return parseFastExec(args);
  if (args[0] === 'state') return parseFastState(args);
  if (args[0] === 'wait') return parseFastWait(args);
  if (args[0] === 'send') return parseFastSend(args);
  if (args[0] === 'logs') return parseFastLogs(args);
  if (args[0] === 'daemon' && args[1] === 'dial-stdio' && args.length === 2) return { command: 'dial-stdio' };
  if ((args[0] === '--version' || args[0] === '-V') && args.length === 1) return { command: 'version' };
  return null;
}

export function parseFastPs(args: readonly string[]): PsOptions | null {
  if (args[0] !== 'ps') return null;
  const opts: PsOptions = {};
  for (let i = 1; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-q' || a === '--quiet') opts.quiet = true;
    else if (a === '--json') opts.json = true;
    else if (a === '--no-trunc') opts.trunc = false;
    else if (a === '--attention') opts.attention = true;
    else if (a === '--no-color') continue;
    else if (a === '--status' && i + 1 < args.length && !args[i + 1]!.startsWith('-')) opts.status = args[++i]!;
    else if (a.startsWith('--status=') && a.length > 9) opts.status = a.slice(9);
    else if (a === '--context' && i + 1 < args.length && !args[i + 1]!.startsWith('-')) opts.context = args[++i]!;
    else if (a.startsWith('--context=') && a.length > 10) opts.context = a.slice(10);
    else if (a === '--all-contexts') opts.allContexts = true;
    else return null;
  }
  return opts;
}

/**
 * The option word at `args[i]` and the value it would take: `--x=V` carries it, else the next word
 * unless that starts with `-` (null: a missing value is commander's to report). `next`: where the
 * word and its value end. Only an option that takes a value uses them.
 */
function optionAt(args: readonly string[], i: number): { flag: string; value: string | null; next: number } {
  const a = args[i]!;
  const eq = a.startsWith('--') ? a.indexOf('=') : -1;
  if (eq > 0) return { flag: a.slice(0, eq), value: a.slice(eq + 1), next: i };
  const word = args[i + 1];
  return word !== undefined && !word.startsWith('-') ? { flag: a, value: word, next: i + 1 } : { flag: a, value: null, next: i };
}

const RUN_VALUE_FLAGS: Record<string, 'name' | 'cwd' | 'env' | 'timeout' | 'idleTimeout' | 'label' | 'restart' | 'delay' | 'group' | 'after' | 'onEnd'> = {
  '-n': 'name', '--name': 'name', '-C': 'cwd', '--cwd': 'cwd', '-e': 'env', '--env': 'env', '--timeout': 'timeout', '--idle-timeout': 'idleTimeout',
  '-l': 'label', '--label': 'label', '--restart': 'restart', '--delay': 'delay', '-g': 'group', '--group': 'group', '--after': 'after', '--on-end': 'onEnd',
};
const RUN_BOOL_FLAGS: Record<string, 'wait' | 'rm' | 'json'> = { '-w': 'wait', '--wait': 'wait', '--rm': 'rm', '--json': 'json' };

/** `run [opts] [--] cmd…`: options stop at `--` or at the first word of the command (commander's passThroughOptions). */
export function parseFastRun(args: readonly string[]): FastCommand | null {
  if (args[0] !== 'run') return null;
  const opts: RunOptions = {};
  for (let i = 1; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return { command: 'run', cmd: args.slice(i + 1), opts };
    if (!a.startsWith('-') || a === '-') return { command: 'run', cmd: args.slice(i), opts };
    const { flag, value, next } = optionAt(args, i);
    const valueFlag = RUN_VALUE_FLAGS[flag];
    if (valueFlag) {
      if (value === null) return null;
      i = next;
      if (valueFlag === 'env') opts.env = envOption(value, opts.env);
      else if (valueFlag === 'label') opts.label = parseLabelArg(value, opts.label);
      else if (valueFlag === 'timeout' || valueFlag === 'idleTimeout' || valueFlag === 'delay') opts[valueFlag] = durationOption(flag)(value);
      else opts[valueFlag] = value;
    } else if (RUN_BOOL_FLAGS[a]) opts[RUN_BOOL_FLAGS[a]] = true;
    else return null;
  }
  return { command: 'run', cmd: [], opts };
}

/** `exec ID [opts] [--] cmd…`: options before ID go to commander (they are rare), after it to parseExecWords. */
export function parseFastExec(args: readonly string[]): FastCommand | null {
  const ref = args[1];
  if (args[0] !== 'exec' || ref === undefined || ref.startsWith('-')) return null;
  const parsed = parseExecWords(args.slice(2));
  return parsed && { command: 'exec', ref, ...parsed };
}

const STATE_VALUE_FLAGS: Record<string, 'message' | 'ttl' | 'session'> = { '-m': 'message', '--message': 'message', '--ttl': 'ttl', '--session': 'session' };

/** `state STATE [-m TEXT] [--ttl DUR] [--session ID] [--json]`, called from agents' hooks (src/guides/statuses.md). */
export function parseFastState(args: readonly string[]): FastCommand | null {
  if (args[0] !== 'state') return null;
  const got = optionsAndOperands(args, { '--json': 'json' }, STATE_VALUE_FLAGS, { ttl: durationOption('--ttl') });
  if (!got || got.operands.length !== 1) return null;
  return { command: 'state', state: got.operands[0]!, opts: got.opts as StateFlags };
}

/**
 * The options and operands of a verb whose options may stand anywhere among its operands
 * (commander's default): `flags` take no value, `values` one (`--x V` or `--x=V`, never one that
 * starts with `-`), checked by `check` at each occurrence, in argv order, as commander's option
 * parsers are (a bad value is the same usage error, even when a later one would replace it);
 * after `--` every word is an operand. null for anything else (help, an unknown or bundled flag,
 * a missing value): commander then parses it, with its errors.
 */
function optionsAndOperands(
  args: readonly string[],
  flags: Record<string, string>,
  values: Record<string, string>,
  check: Record<string, (value: string) => unknown> = {},
): { opts: Record<string, unknown>; operands: string[] } | null {
  const opts: Record<string, unknown> = {};
  const operands: string[] = [];
  for (let i = 1; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      operands.push(a);
      continue;
    }
    const { flag, value, next } = optionAt(args, i);
    const key = values[flag];
    if (key) {
      if (value === null) return null;
      i = next;
      opts[key] = check[key] ? check[key](value) : value;
    } else if (flags[a]) opts[flags[a]] = true;
    else return null;
  }
  return { opts, operands };
}

/** `wait [--until S] [--timeout D] [--after N] [--since-offset N] [--any] [--json] ID…`. */
export function parseFastWait(args: readonly string[]): FastCommand | null {
  if (args[0] !== 'wait') return null;
  const got = optionsAndOperands(args, { '--any': 'any', '--json': 'json' }, { '--until': 'until', '--timeout': 'timeout', '--after': 'after', '--since-offset': 'sinceOffset' }, {
    timeout: durationOption('--timeout'), after: intOption('--after'), sinceOffset: intOption('--since-offset'),
  });
  if (!got || got.operands.length === 0) return null;
  return { command: 'wait', refs: got.operands, opts: got.opts as WaitFlags };
}

/** `send [--no-enter] [--keys] [--when W] [--timeout D] [--json] ID [TEXT…]`. */
export function parseFastSend(args: readonly string[]): FastCommand | null {
  if (args[0] !== 'send') return null;
  const got = optionsAndOperands(args, { '--no-enter': 'noEnter', '--keys': 'keys', '--json': 'json' }, { '--when': 'when', '--timeout': 'timeout' }, { timeout: durationOption('--timeout') });
  if (!got || got.operands.length === 0) return null;
  const { noEnter, ...rest } = got.opts;
  return { command: 'send', ref: got.operands[0]!, words: got.operands.slice(1), opts: { enter: noEnter !== true, ...rest } as SendFlags };
}

const LOGS_FLAGS: Record<string, keyof LogsOptions> = {
  '-f': 'follow', '--follow': 'follow', '--stdout': 'stdout', '--stderr': 'stderr', '--raw': 'raw', '--screen': 'screen', '--json': 'json', '-t': 'timestamps', '--timestamps': 'timestamps',
};
const LOGS_INTS: Record<string, string> = { '-n': 'tail', '--tail': 'tail', '--since-offset': 'sinceOffset', '--limit': 'limit' };
const LOGS_CHECKS = { tail: intOption('--tail'), sinceOffset: intOption('--since-offset'), limit: intOption('--limit') };

/** `logs [-f] [-n N] [--raw|--screen] [--since-offset B] [--limit B] [--json] [--stdout|--stderr] [-t] ID`; `--stack`, `--since`, `--until` go to commander. */
export function parseFastLogs(args: readonly string[]): FastCommand | null {
  if (args[0] !== 'logs') return null;
  const got = optionsAndOperands(args, LOGS_FLAGS, LOGS_INTS, LOGS_CHECKS);
  if (!got || got.operands.length !== 1) return null;
  return { command: 'logs', ref: got.operands[0]!, opts: got.opts as LogsOptions };
}
