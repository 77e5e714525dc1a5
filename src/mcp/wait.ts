import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '../client/client.js';
import { AmuxError } from '../errors.js';
import type { WaitAnswer, WaitRequest } from '../protocol/wait.js';

/*
 * How the MCP tools wait (src/guides/agents.md): within a budget, with progress notifications, and with
 * a cursor that the next call continues from.
 */

/** What a tool handler gets besides its arguments (progress token, notifications). */
export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** No call blocks past its budget (src/guides/agents.md). */
export const DEFAULT_BUDGET_MS = 25_000;
export const MAX_BUDGET_MS = 10 * 60_000;
/** A progress notification this often while a call waits, when the client asked for progress. */
const PROGRESS_EVERY_MS = 5_000;

/** Awaits `p`, sending a progress notification every few seconds when the client gave a progress token. */
export async function withProgress<T>(extra: Extra, budget: number, what: string, p: Promise<T>): Promise<T> {
  const token = extra._meta?.progressToken;
  if (token === undefined) return p;
  const started = Date.now();
  const timer = setInterval(() => {
    const progress = Date.now() - started;
    extra.sendNotification({
      method: 'notifications/progress',
      params: { progressToken: token, progress, total: budget, message: `${what}: ${Math.round(progress / 1000)} s of ${Math.round(budget / 1000)} s` },
    }).catch(() => undefined);
  }, PROGRESS_EVERY_MS);
  try {
    return await p;
  } finally {
    clearInterval(timer);
  }
}

/**
 * A wait's cursor, for the next call (src/guides/agents.md): the newest event id seen, and for
 * output waits the log offset to search from (the smallest of the targets': nothing is skipped).
 */
export function encodeCursor(answer: WaitAnswer, output: boolean): string {
  const offsets = answer.results.map((r) => r.logOffset).filter((o): o is number => o !== null);
  return output && offsets.length > 0 ? `e${answer.cursor}.o${Math.min(...offsets)}` : `e${answer.cursor}`;
}

export function decodeCursor(cursor: string): { after: number; sinceOffset: number | null } {
  const m = /^e(\d+)(?:\.o(\d+))?$/.exec(cursor);
  if (!m) throw new AmuxError('invalid_argument', `cursor '${cursor}' is not one this server gave; pass the cursor of a previous answer as it was`);
  return { after: Number(m[1]), sinceOffset: m[2] === undefined ? null : Number(m[2]) };
}

/** A wait within the call's budget, answered with `done` and the cursor for the next call (src/guides/agents.md). */
export async function waitWithin(client: Client, extra: Extra, req: Omit<WaitRequest, 'timeoutMs'>, budget: number) {
  const answer = await withProgress(extra, budget, `waiting for ${req.ids.join(', ')}`, client.wait({ ...req, timeoutMs: budget }));
  const output = req.until?.startsWith('output:') === true;
  return {
    done: !answer.timedOut,
    cursor: encodeCursor(answer, output),
    results: answer.results.map(({ id, status, reached, exitCode, signal, reason, error, event, match, logOffset }) => ({
      id, status, reached, exitCode, signal, reason, error, event, match, logOffset,
    })),
  };
}
