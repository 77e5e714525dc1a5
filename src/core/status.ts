/**
 * Session and job statuses and the sets every part of amux asks about (src/guides/statuses.md;
 * ADR 0010 has the state machine). One home: nothing else lists statuses.
 */
export const SESSION_STATUSES = ['pending', 'working', 'idle', 'paused', 'completed', 'failed', 'stopped', 'expired'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** Final: once reached, status, exit code and error never change again. */
export const TERMINAL_STATUSES: ReadonlySet<SessionStatus> = new Set(['completed', 'failed', 'stopped', 'expired']);
/** Started and not finished: what holds a `maxLive` slot and what the monitor refreshes. */
export const LIVE_STATUSES = ['working', 'idle', 'paused'] as const satisfies readonly SessionStatus[];

export function isTerminal(status: SessionStatus): boolean {
  return TERMINAL_STATUSES.has(status);
}

export function isLive(status: SessionStatus): boolean {
  return (LIVE_STATUSES as readonly SessionStatus[]).includes(status);
}

export function isSessionStatus(value: string): value is SessionStatus {
  return (SESSION_STATUSES as readonly string[]).includes(value);
}

export const JOB_STATUSES = ['running', 'completed', 'failed', 'killed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export function isJobStatus(value: string): value is JobStatus {
  return (JOB_STATUSES as readonly string[]).includes(value);
}
