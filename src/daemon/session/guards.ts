import type { SessionRecord } from '../../core/records.js';
import { isTerminal } from '../../core/status.js';
import { AmuxError } from '../../errors.js';
import { sessionRemoved } from '../../core/removed.js';
import type { DaemonContext } from '../context.js';

/** The session of `id`, unless it was removed: what every operation on a session starts from. */
export function openSession(ctx: DaemonContext, id: string): SessionRecord {
  const s = ctx.store.getSession(id);
  if (!s) throw new AmuxError('session_not_found', `no such session: ${id}`);
  if (s.removedAt) throw sessionRemoved(s.id, s.removedAt);
  return s;
}

/** What an operation needs of a running session: `exec` needs it not paused. */
export type RunningAction = 'exec' | 'pause' | 'resume' | 'send' | 'state';

const DONE: Record<RunningAction, string> = { exec: 'run a job', pause: 'be paused', resume: 'be resumed', send: 'be sent input', state: 'declare a state' };

/**
 * A session that has started and not finished, with its shell known: what `exec`, `pause`,
 * `resume` and `send` act on. Every refusal says why and what to do.
 */
export function runningSession(ctx: DaemonContext, id: string, action: RunningAction): SessionRecord {
  const s = openSession(ctx, id);
  const only = `only a running session can ${DONE[action]}`;
  if (isTerminal(s.status)) throw new AmuxError('invalid_state', `session ${id} has finished (${s.status}); ${only}${action === 'exec' ? ": start one with 'amux run'" : ''}`);
  if (s.status === 'pending') throw new AmuxError('invalid_state', `session ${id} is pending (waiting for a slot, see maxLive); ${only}; try again once it runs`);
  if (action === 'exec' && s.status === 'paused') throw new AmuxError('invalid_state', `session ${id} is paused; 'amux resume ${id}' first`);
  if (action === 'send' ? !s.paneId : !s.pid) {
    throw new AmuxError('operation_failed', `session ${id}: its ${action === 'send' ? 'pane' : 'shell'} is unknown, so it cannot ${DONE[action]}; 'amux kill ${id}' still works`);
  }
  return s;
}
