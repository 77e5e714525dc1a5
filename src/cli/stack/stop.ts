import type { Client } from '../../client/client.js';
import type { SessionView } from '../../protocol/sessions.js';
import { LEVEL_LABEL } from './spec.js';

/**
 * Stops and removes sessions of a stack in reverse dependency order (ADR 0036): the deepest level
 * (label stack.level) first, the sessions of one level at once. A session already gone is skipped.
 */
export async function stopSessions(client: Client, sessions: readonly SessionView[], onStopped: (s: SessionView) => void = () => {}): Promise<void> {
  const level = (s: SessionView) => Number(s.labels[LEVEL_LABEL] ?? 0) || 0;
  const depths = [...new Set(sessions.map(level))].sort((a, b) => b - a);
  for (const d of depths) {
    await Promise.all(sessions.filter((s) => level(s) === d).map(async (s) => {
      try {
        await client.sessions.remove(s.id, { force: true });
        onStopped(s);
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code !== 'session_not_found' && code !== 'session_removed') throw err; // another `down` was first
      }
    }));
  }
}
