import { Argument, Option } from 'commander';
import type { Client } from '../../client/client.js';
import { SESSION_STATUSES } from '../../core/status.js';
import { hinted, type Hint } from '../hints.js';

// What completion offers for arguments and option values (ADR 0021); commands and flags come from the definitions.
const SESSIONS: Hint = { kind: 'sessions' };
const SESSIONS_OR_JOBS: Hint = { kind: 'sessions', jobs: true };
export const sessionArg = (name: string, description: string) => hinted(new Argument(name, description), SESSIONS);
export const targetArg = (name: string, description: string) => hinted(new Argument(name, description), SESSIONS_OR_JOBS);
export const commandArg = (description: string) => hinted(new Argument('[cmd...]', description), { kind: 'command' });
export const statusOption = (description: string, words: readonly string[] = SESSION_STATUSES) =>
  hinted(new Option('--status <list>', description), { kind: 'words', words, list: true });

/** The shells `amux completion` writes a script for (README "Shell completion"). */
export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;

/** What every command's action uses: the exit code's setter, and the client of the daemon a reference names. */
export interface Wiring {
  /** Each action resolves to the process exit code through it. */
  setExit: (code: number) => void;
  /** A client of the chosen daemon (README "Remote hosts": --host, --context, AMUX_HOST). */
  client: () => Client;
  /** Routes references that may name a host (HOST:ID). */
  router: () => import('../refs.js').Router;
  /** The client and the plain reference for one reference. */
  routed: (ref: string) => [Client, string];
}
