import { Argument, Option } from 'commander';
import type { Client } from '../../client/client.js';
import { SESSION_STATUSES } from '../../core/status.js';
import { AmuxError } from '../../errors.js';
import { hinted, type Hint } from '../hints.js';

// What completion offers for arguments and option values (ADR 0021); commands and flags come from the definitions.
const SESSIONS: Hint = { kind: 'sessions' };
const SESSIONS_OR_JOBS: Hint = { kind: 'sessions', jobs: true };
export const sessionArg = (name: string, description: string) => hinted(refArgument(name, description), SESSIONS);
export const targetArg = (name: string, description: string) => hinted(refArgument(name, description), SESSIONS_OR_JOBS);

/**
 * An argument of session references: a word shaped like a flag is never taken for an id (src/guides/sessions.md); ids and names never start with '-'. commander hands every word of a variadic one to
 * the parser with the words before it.
 */
function refArgument(name: string, description: string): Argument {
  const arg = new Argument(name, description);
  return arg.argParser((value: string, previous: unknown) => {
    if (value.startsWith('-') && value !== '-') {
      throw new AmuxError('usage', `'${value}' is not a session id (ids and names never start with '-'): options go before the ids (see the command's --help)`);
    }
    if (!arg.variadic) return value;
    return [...((previous as string[] | undefined) ?? []), value];
  });
}
export const commandArg = (description: string) => hinted(new Argument('[cmd...]', description), { kind: 'command' });
export const statusOption = (description: string, words: readonly string[] = SESSION_STATUSES) =>
  hinted(new Option('--status <list>', description), { kind: 'words', words, list: true });

/** `--filter KEY=VALUE` (repeatable) of `ps` and `history` (src/guides/sessions.md "Restart, labels, groups"). */
export const filterOption = () =>
  hinted(new Option('--filter <key=value>', 'only sessions that match: name=GLOB, label=KEY, label=KEY=VALUE, status=LIST (repeatable; all must hold)')
    .argParser((v: string, prev: string[] = []) => [...prev, v]), { kind: 'words', words: ['name=', 'label=', 'status='] });

/** `--format` (src/guides/sessions.md "Output formats"): docker's template forms. */
export const formatOption = () =>
  hinted(new Option('--format <template>', "json (one object a line), 'table TEMPLATE', or a TEMPLATE per row: {{.Field}} (any --json field), {{json .}}"), { kind: 'words', words: ['json', 'table '] });

/** The shells `amux completion` writes a script for (README "Shell completion"). */
export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;

/** What every command's action uses: the exit code's setter, and the client of the daemon a reference names. */
export interface Wiring {
  /** Each action resolves to the process exit code through it. */
  setExit: (code: number) => void;
  /** A client of the chosen daemon (src/guides/remote.md: --host, --context, AMUX_HOST). */
  client: () => Client;
  /** Routes references that may name a host (HOST:ID). */
  router: () => import('../refs.js').Router;
  /** The client and the plain reference for one reference. */
  routed: (ref: string) => [Client, string];
}
