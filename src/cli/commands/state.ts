import { DECLARED_STATES, isDeclaredState } from '../../core/attention.js';
import { AmuxError } from '../../errors.js';
import type { Client } from '../../client/client.js';
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
  const session = await client().sessions.declareState(ref, { state, ...(opts.message === undefined ? {} : { message: opts.message }), ttlMs: opts.ttl });
  if (opts.json) printJson(session);
  return 0;
}
