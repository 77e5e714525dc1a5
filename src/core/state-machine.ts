import { AmuxError } from '../errors.js';
import { type SessionStatus, isTerminal } from './status.js';

/** Allowed transitions (ADR 0010). Anything else is a programming error. */
const TRANSITIONS: Record<SessionStatus, readonly SessionStatus[]> = {
  // pending → failed: a `run --after` dependency failed, so it never starts (ADR 0033).
  pending: ['working', 'idle', 'failed', 'stopped', 'expired'],
  working: ['idle', 'paused', 'completed', 'failed', 'stopped', 'expired'],
  idle: ['working', 'paused', 'completed', 'failed', 'stopped', 'expired'],
  paused: ['working', 'idle', 'failed', 'stopped', 'expired'],
  completed: [],
  failed: [],
  stopped: [],
  expired: [],
};

export function canTransition(from: SessionStatus, to: SessionStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** Throws when `from → to` is not in the table; terminal states are final. */
export function assertTransition(from: SessionStatus, to: SessionStatus): void {
  if (!canTransition(from, to)) {
    const why = isTerminal(from) ? `${from} is terminal` : 'not an allowed transition';
    throw new AmuxError('internal', `illegal status transition ${from} → ${to} (${why})`);
  }
}
