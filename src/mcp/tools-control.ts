import { z } from 'zod';
import { AmuxError } from '../errors.js';
import { brief, notOwn, type ToolContext } from './context.js';
import { budgetMs, killOut, removeOut, sendOut, sessionRef, untilText, waitOut } from './schemas.js';
import { defineTool, type ToolSpec } from './toolkit.js';
import { MAX_WAIT_IDS } from '../protocol/wait.js';
import { decodeCursor, DEFAULT_BUDGET_MS, waitWithin, withProgress } from './wait.js';

/* The tools that act on what runs: send, wait, kill, remove (src/guides/agents.md). */

const destructive = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };

export function controlTools(ctx: ToolContext): ToolSpec[] {
  return [
    defineTool({
      name: 'send',
      title: 'Type into a session',
      description: 'Type text (then Enter, unless enter is false) or key names (keys: ["C-c"], ["Up", "Enter"]; a key is never typed as text) into a live session. '
        + 'Text goes in as one paste, bracketed when the program asked for it, so a REPL or agent takes it as one submission; Enter follows once the program has taken the text. '
        + "when: 'idle' holds the input until the session waits for input (at most budgetMs), instead of typing into a busy program; "
        + 'when the budget runs out first the input is dropped (delivered: false) and cursor waits from there. '
        + "Answers a receipt: delivered, submitted (the program read the Enter; false: no sign of it within 2 s, e.g. a busy program), offset (read the reply from there with read_output sinceOffset), cursor (wait until idle with it for the reply to finish).",
      input: z.strictObject({
        session: sessionRef,
        text: z.string().optional().describe('text to type'),
        keys: z.array(z.string()).min(1).optional().describe('tmux key names, e.g. C-c, Enter, Up, Escape, F1'),
        enter: z.boolean().optional().describe('press Enter after the text (default true; never after keys)'),
        when: z.enum(['now', 'idle', 'ready']).optional().describe("'idle': hold the input until the session is idle; 'ready': until its program declared ready (amux state ready)"),
        budgetMs,
      }),
      output: sendOut,
      annotations: destructive,
      async run(a, { client, extra }) {
        if ((a.text === undefined) === (a.keys === undefined)) throw new AmuxError('invalid_argument', 'give either text or keys, not both or neither');
        const when = a.when ?? 'now';
        const input = a.keys ? { keys: a.keys, enter: false } : { text: a.text!, enter: a.enter !== false };
        const budget = a.budgetMs ?? DEFAULT_BUDGET_MS;
        try {
          const r = await withProgress(extra, budget, `holding input until ${when}`,
            client.sessions.send(a.session, { ...input, when, timeoutMs: when === 'now' ? undefined : budget }));
          return { delivered: r.delivered, submitted: r.submitted, offset: r.offset, eventId: r.eventId, cursor: `e${r.eventId}`, heldMs: r.heldMs, pasted: r.pasted, session: brief(r.session) };
        } catch (err) {
          if (!(err instanceof AmuxError) || err.code !== 'timeout') throw err;
          // Not typed: the cursor of now, so that a wait from it misses nothing that comes next.
          const now = await client.wait({ ids: [a.session], timeoutMs: 0 });
          return { delivered: false, cursor: `e${now.cursor}`, message: err.message };
        }
      },
    }),

    defineTool({
      name: 'wait',
      title: 'Wait for sessions or jobs',
      description: 'Block until the targets get where until says (all of them, or with any: the first), at most budgetMs. '
        + 'Answers done: true with each result (reached, status, exit code, the event that decided it and its reason, an output match), '
        + 'or done: false when the budget ran out: call wait again with the same ids and the answer\'s cursor, so that no change in between is missed. '
        + 'A target that ended without getting there has reached: false.',
      input: z.strictObject({
        ids: z.array(z.string().min(1)).min(1).max(MAX_WAIT_IDS).describe(`session references or job ids (at most ${MAX_WAIT_IDS})`),
        until: untilText,
        any: z.boolean().optional().describe('answer when the first target gets there'),
        cursor: z.string().optional().describe("a previous answer's cursor (or 'e<eventId>' of a send receipt): only changes after it count"),
        sinceOffset: z.number().int().min(0).optional().describe('output:REGEX only: search from this log offset (a send receipt offset)'),
        budgetMs,
      }),
      output: waitOut,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      async run(a, { client, extra }) {
        const c = a.cursor === undefined ? null : decodeCursor(a.cursor);
        const output = a.until?.startsWith('output:') === true;
        const sinceOffset = a.sinceOffset ?? (output ? c?.sinceOffset ?? undefined : undefined);
        return waitWithin(client, extra, { ids: a.ids, until: a.until, any: a.any, after: c?.after, sinceOffset }, a.budgetMs ?? DEFAULT_BUDGET_MS);
      },
    }),

    defineTool({
      name: 'kill',
      title: 'Kill a session or job',
      description: 'Signal every process of a session (default TERM, then KILL after graceMs) and close it (status stopped), or kill one job by its id '
        + '(status killed; the shell lives on). Never the session this server runs in.',
      input: z.strictObject({
        target: z.string().min(1).describe('a session reference or a job id'),
        signal: z.string().optional().describe('signal name or number (default TERM); not STOP, TSTP, TTIN, TTOU or CONT: use pause and resume'),
        graceMs: z.number().int().min(0).optional().describe('time before SIGKILL (default 5000)'),
      }),
      output: killOut,
      annotations: { ...destructive, idempotentHint: true },
      async run(a, { client }) {
        await notOwn(ctx, client, a.target, 'kill');
        const killed = await client.sessions.kill(a.target, { signal: a.signal, graceMs: a.graceMs });
        return 'seq' in killed ? { job: killed } : { session: brief(killed) };
      },
    }),

    defineTool({
      name: 'remove',
      title: 'Remove a session',
      description: 'Remove a finished session (its history row stays); force: true kills a live one first. Never the session this server runs in.',
      input: z.strictObject({ session: sessionRef, force: z.boolean().optional().describe('kill a live session first') }),
      output: removeOut,
      annotations: destructive,
      async run(a, { client }) {
        await notOwn(ctx, client, a.session, 'remove');
        return { session: brief(await client.sessions.remove(a.session, { force: a.force })) };
      },
    }),
  ];
}
