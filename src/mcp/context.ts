import type { Client } from '../client/client.js';
import { parseJobId } from '../core/ids.js';
import { AmuxError } from '../errors.js';
import type { SessionView } from '../protocol/sessions.js';

/** What the tools act with besides each call's client: where this server runs (src/guides/agents.md). */
export interface ToolContext {
  /** The session this server runs in (AMUX_SESSION_ID, its own or an ancestor's): it never kills or removes it. */
  ownSession: string | null;
  /** Defaults of `run`: this server's working directory and environment. */
  cwd: string;
  env: Record<string, string>;
  /** Aborts when the server's client has left: work a call leaves going (a stdin upload) stops then. */
  closing: AbortSignal;
}

/** A session as an agent needs it: what it is, where it stands, and how much output it has. */
export function brief(s: SessionView) {
  return {
    id: s.id, name: s.name, status: s.status, reason: s.reason, foreground: s.foreground, command: s.command, cwd: s.cwd,
    exitCode: s.exitCode, signal: s.signal, error: s.error, createdAt: s.createdAt, endedAt: s.endedAt, logBytes: s.logBytes,
    attention: s.attention, declared: s.declared, title: s.title, progress: s.progress, semanticPrompt: s.semanticPrompt,
  };
}

/** Refuses to end the session this server runs in (or its job 1, which stands for it). */
export async function notOwn(ctx: ToolContext, client: Client, ref: string, what: 'kill' | 'remove'): Promise<void> {
  if (!ctx.ownSession) return;
  const job = parseJobId(ref);
  const id = job ? (job.seq === 1 ? job.sessionId : null) : (await client.sessions.inspect(ref)).session.id;
  if (id === ctx.ownSession) {
    throw new AmuxError('invalid_argument', `refusing to ${what} ${ref}: it is the session this MCP server runs in (AMUX_SESSION_ID=${ctx.ownSession})`);
  }
}
