import type { Client } from '../client/client.js';
import type { SessionView } from '../protocol/sessions.js';
import { waitWithin, type Extra } from './wait.js';

/*
 * `run {wait: true}` and `exec` block until their command ends, within the budget; but a command
 * that waits for input (`read -p`, a password prompt) would only burn the budget. amux knows when
 * it does: its session turns `idle` while the job still runs. The call then answers (once the job has had SETTLE_MS to end),
 * done: false, with what the screen asks, so that the agent can answer with `send` (src/guides/agents.md, ADR 0053).
 */

/**
 * The reason of a shell at its prompt (src/guides/statuses.md), and how long its job's end is waited for
 * there before the session is looked at again.
 */
const AT_PROMPT = 'at prompt';
const JUST_ENDED_MS = 2000;

/**
 * How long a job is given to end once its session looks idle before the call says it waits for
 * input: a job that ends as its session turns idle (its shell between the job's end and its
 * prompt, seen on a loaded machine) is not asking for anything.
 */
const SETTLE_MS = 500;

/** The screen's last lines shown with an answer that waits for input. */
const SCREEN_LINES = 10;

/** What a job that waits for input shows: its session's status and reason, and the screen's last lines. */
export interface InputWait {
  status: string;
  reason: string | null;
  screen: string;
}

export type EndOrInput =
  | { kind: 'ended' | 'budget'; cursor: string }
  | { kind: 'input'; cursor: string; session: SessionView; input: InputWait };

/** The last `n` lines of a screen, the empty rows below the last line written not counted. */
export function lastLines(screen: string, n: number): string {
  const lines = screen.replace(/(\s*\n)+$/, '').split('\n');
  return lines.length === 1 && lines[0] === '' ? '' : `${lines.slice(-n).join('\n')}\n`;
}

/**
 * Waits until `target` (a session, or a job of `sessionId`) has ended, the budget ran out, or its
 * session is idle while the target still runs (`running` tells) and it is not a shell at its
 * prompt: a job the shell has not taken yet, or one that has just ended (its end is waited for
 * JUST_ENDED_MS, then the session looked at again).
 */
export async function untilEndOrInput(
  client: Client, extra: Extra, target: string, sessionId: string, budget: number, running: (c: Client) => Promise<boolean>,
): Promise<EndOrInput> {
  const stop = new AbortController();
  const c = client.withSignal(stop.signal);
  const deadline = Date.now() + budget;
  const end = waitWithin(c, extra, { ids: [target] }, budget).then((w) => ({ kind: w.done ? 'ended' as const : 'budget' as const, cursor: w.cursor }));
  const input = (async (): Promise<EndOrInput | null> => {
    let after: number | undefined;
    for (;;) {
      const left = () => Math.max(0, deadline - Date.now());
      if (left() <= 0) return null;
      const a = await c.wait({ ids: [sessionId], until: 'idle', after, timeoutMs: left() });
      if (a.timedOut || !a.results[0]?.reached) return null; // out of budget, or the session ended
      const asks = async () => {
        const { session } = await c.sessions.inspect(sessionId);
        return { session, asks: session.status === 'idle' && session.reason !== AT_PROMPT && (await running(c)) };
      };
      let { session, asks: asking } = await asks();
      if (asking) {
        const ended = await c.wait({ ids: [target], timeoutMs: Math.min(SETTLE_MS, left()) });
        if (!ended.timedOut) return null;
        ({ session, asks: asking } = await asks());
      }
      if (asking) {
        const { screen } = await c.sessions.screen(sessionId);
        return { kind: 'input', cursor: `e${a.cursor}`, session, input: { status: session.status, reason: session.reason, screen: lastLines(screen, SCREEN_LINES) } };
      }
      if (session.status === 'idle') {
        // At the prompt (idle → idle changes no status, so no event tells when the job takes it).
        const ended = await c.wait({ ids: [target], timeoutMs: Math.min(JUST_ENDED_MS, left()) });
        if (!ended.timedOut) return null;
        after = undefined;
      } else after = a.cursor; // busy again: its next change to idle
    }
  })();
  // The loser is aborted with its connection: its rejection is expected.
  end.catch(() => undefined);
  input.catch(() => undefined);
  try {
    return await Promise.race([end, input.then((r) => r ?? end)]);
  } finally {
    stop.abort();
  }
}
