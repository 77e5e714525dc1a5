import type { SessionView } from '../../src/protocol/sessions.js';

let seq = 0;

/** A SessionView for unit tests of what shows sessions (top): a working `sleep 100`, each with its own id, pid and creation second, as `p` overrides. */
export function sessionView(p: Partial<SessionView> = {}): SessionView {
  seq++;
  return {
    id: p.id ?? seq.toString(16).padStart(8, '0'),
    name: null, status: 'working', command: 'sleep 100', cwd: '/tmp', exitCode: null, signal: null, error: null, reason: 'sleeping',
    pid: 100 + seq, logBytes: 0, logTruncated: false, autoRemove: false, timeoutMs: null, idleTimeoutMs: null,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(), startedAt: null, endedAt: null, durationMs: 12_000,
    lastActivityAt: null, removed: false, removedAt: null, closedAt: null, foreground: null, cpuPercent: 1.5, rssBytes: 4 << 20,
    labels: {}, restartOf: null, restarts: 0, previousEnd: null, restartPolicy: null, startAfter: null, group: null, after: [], onEnd: null, attention: null, declared: null,
    title: null, progress: null, semanticPrompt: null,
    ...p,
  };
}
