import { DECLARED_STATES, isDeclaredState } from '../../core/attention.js';
import { AmuxError } from '../../errors.js';
import type { Client } from '../../client/client.js';
import { readFileSync } from 'node:fs';
import { printJson } from '../output.js';

export interface StateFlags {
  message?: string;
  ttl?: number;
  session?: string;
  json?: boolean;
}

/**
 * `amux state working|waiting|ready` (src/guides/statuses.md: declared states; ADR 0034): the program in
 * a session declares its state. The session is AMUX_SESSION_ID (set in every session), or --session.
 */
export async function stateCommand(client: () => Client, state: string, opts: StateFlags, env = process.env): Promise<number> {
  if (!isDeclaredState(state)) throw new AmuxError('usage', `unknown state '${state}': use ${DECLARED_STATES.join(', ')}`);
  const ref = opts.session ?? env.AMUX_SESSION_ID;
  if (!ref) {
    throw new AmuxError('usage', 'not inside an amux session (AMUX_SESSION_ID is not set): run it from a program in a session, or give --session ID');
  }
  // Run as a step of the session's own command line (`run -- 'amux state working; make'`), this
  // process is the terminal's foreground job and ends at once: the declaration is the session's.
  const scope = opts.session === undefined && foregroundJobItself() ? 'session' : undefined;
  const session = await client().sessions.declareState(ref, { state, ...(opts.message === undefined ? {} : { message: opts.message }), ttlMs: opts.ttl, ...(scope ? { scope } : {}) });
  if (opts.json) printJson(session);
  return 0;
}

/**
 * Whether this process leads the terminal's foreground process group: a shell with job control
 * started it as a job of its own (a command line's step), not as part of a program (a hook, a
 * script), whose group it would share. From /proc/self/stat: pgrp and tpgid (proc(5)).
 */
function foregroundJobItself(): boolean {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const pgrp = Number(f[2]);
    return pgrp === process.pid && Number(f[5]) === pgrp;
  } catch {
    return false;
  }
}
