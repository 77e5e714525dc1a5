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

/** The canonical signal names without SIG (`HUP`, `INT`, …, by number), as `kill -s` takes them. */
export function signalNames(): string[] {
  return [...BY_NUMBER.entries()].sort(([a], [b]) => a - b).map(([, name]) => name.slice(3));
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

/** The exit code `amux wait` reports for a terminal session or job (README "Commands": wait). */
export function waitExitCode(r: { status: string; exitCode: number | null; signal: string | null }): number {
  if (r.status === 'completed') return 0;
  if (r.exitCode != null && r.exitCode !== 0) return r.exitCode;
  if (r.signal) return 128 + signalNumber(r.signal);
  return 1;
}
