import { constants } from 'node:os';
import { AmuxError } from '../errors.js';

const BY_NAME = constants.signals as Record<string, number>;
const ALIASES = new Set(['SIGIOT', 'SIGPOLL', 'SIGUNUSED', 'SIGCLD']);
/** Number → name; where several names share a number, the canonical one (SIGABRT, not SIGIOT). */
const BY_NUMBER = new Map<number, string>(
  Object.entries(BY_NAME).filter(([name]) => !ALIASES.has(name)).map(([name, n]) => [n, name]),
);

/** Parses `TERM`, `SIGTERM`, `term` or `15` into a canonical signal name. */
export function parseSignal(input: string | number): string {
  const text = String(input).trim();
  if (/^\d+$/.test(text)) {
    const name = BY_NUMBER.get(Number(text));
    if (name) return name;
  } else {
    const upper = text.toUpperCase();
    const name = upper.startsWith('SIG') ? upper : `SIG${upper}`;
    if (Object.hasOwn(BY_NAME, name)) return name;
  }
  throw new AmuxError('usage', `invalid signal '${input}': use a name such as TERM, INT, KILL, HUP or a number`);
}

/**
 * Signals that stop or continue a process instead of ending it. `kill` refuses them (src/guides/sessions.md: kill; ADR 0027): a stopped shell would outlive `rm -f`, `daemon stop` and the tmux
 * server, while the record said it was killed. `pause` and `resume` do that, and keep the record true.
 */
const JOB_CONTROL = new Set(['SIGSTOP', 'SIGTSTP', 'SIGTTIN', 'SIGTTOU', 'SIGCONT']);

/** parseSignal, for `kill`: a signal that ends processes, not one that stops or continues them. */
export function parseKillSignal(input: string | number): string {
  const name = parseSignal(input);
  if (JOB_CONTROL.has(name)) {
    const instead = name === 'SIGCONT' ? `'amux resume ID' continues a paused session` : `'amux pause ID' stops a session and 'amux resume ID' continues it`;
    throw new AmuxError('usage', `kill does not take ${name}, which does not end a process: ${instead}; kill takes a signal that ends it (TERM, INT, HUP, KILL, …)`);
  }
  return name;
}

/** The canonical signal names without SIG (`HUP`, `INT`, …, by number), as `kill -s` takes them. */
export function signalNames(): string[] {
  return [...BY_NUMBER.entries()].sort(([a], [b]) => a - b).map(([, name]) => name.slice(3)).filter((n) => !JOB_CONTROL.has(`SIG${n}`));
}

export function signalNumber(name: string): number {
  return BY_NAME[name] ?? 0;
}

/** The name of signal number `n` (SIGKILL for 9); null for a number that is no signal. */
export function signalName(n: number): string | null {
  return BY_NUMBER.get(n) ?? null;
}

/** bash reports a child killed by signal N as status 128+N; names it when N is a real signal. */
export function signalFromStatus(status: number): string | null {
  if (status <= 128 || status > 128 + 64) return null;
  return BY_NUMBER.get(status - 128) ?? null;
}

/** The exit code `amux wait` reports for a terminal session or job (src/guides/sessions.md: wait). */
export function waitExitCode(r: { status: string; exitCode: number | null; signal: string | null }): number {
  if (r.status === 'completed') return 0;
  if (r.exitCode != null && r.exitCode !== 0) return r.exitCode;
  if (r.signal) return 128 + signalNumber(r.signal);
  return 1;
}
