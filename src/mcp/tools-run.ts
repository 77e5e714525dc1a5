import { Readable } from 'node:stream';
import { z } from 'zod';
import type { Client } from '../client/client.js';
import type { StdinAnswer } from '../protocol/jobs.js';
import { waitsForTmux } from '../protocol/sessions.js';
import { toAmuxError } from '../errors.js';
import { brief, type ToolContext } from './context.js';
import { DEFAULT_MAX_BYTES, readPage } from './paging.js';
import { argv, budgetMs, command, execOut, maxBytes, runOut, sessionRef } from './schemas.js';
import { sessionPages, streamTail } from './sources.js';
import { defineTool, type ToolSpec } from './toolkit.js';
import { untilEndOrInput } from './input-wait.js';
import { DEFAULT_BUDGET_MS, waitWithin } from './wait.js';

/* The tools that start things: `run` (a session) and `exec` (a job in a session's shell). src/guides/agents.md. */

const destructive = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };

/**
 * Feeds `text` to a job's stdin; never fails: a job that ended before reading it all (or before it
 * began) is an answer, not an error (src/guides/agents.md: exec). Stops when `signal` aborts.
 */
async function feedStdin(client: Client, jobId: string, text: string, signal: AbortSignal) {
  const given = Buffer.from(text);
  let answer: StdinAnswer | null;
  let failure: string | undefined;
  try {
    answer = await client.jobs.stdin(jobId, Readable.from([given]), signal);
  } catch (err) {
    answer = null;
    failure = toAmuxError(err).message;
  }
  // Bytes handed to the job's stdin pipe: what a job that ended early had not read yet may be among them.
  const written = answer?.bytes ?? 0;
  const eof = answer?.eof === true && written === given.length;
  const note = eof ? {} : { note: failure ?? `the job ended before it took all of its stdin: ${written} of ${given.length} bytes were written to its stdin pipe, of which it may not have read the last 64 KiB` };
  return { written, bytes: written, of: given.length, eof, ...note };
}

export function runTools(ctx: ToolContext): ToolSpec[] {
  return [
    defineTool({
      name: 'run',
      title: 'Start a session',
      description: 'Start a command (or, with neither command nor argv, an interactive bash) as a new amux session in tmux. '
        + 'With wait: true, block until it exits or budgetMs runs out; a finished run answers its exit code and the tail of its output; '
        + 'one that waits for input (a prompt) answers done: false within about a second, with input (what the screen asks): answer with send. '
        + 'Otherwise answer at once with the session id: then use wait, read_output, send.',
      input: z.strictObject({
        command, argv,
        name: z.string().optional().describe('a unique name to refer to the session by'),
        cwd: z.string().optional().describe("absolute working directory (default: this server's; on a remote host, its HOME)"),
        env: z.record(z.string(), z.string()).optional().describe("variables added to this server's environment"),
        wait: z.boolean().optional().describe('block until it exits (within budgetMs)'),
        timeoutMs: z.number().int().positive().optional().describe('expire the session after this long'),
        idleTimeoutMs: z.number().int().positive().optional().describe('expire the session after this long without output'),
        budgetMs, maxBytes,
      }),
      output: runOut,
      annotations: destructive,
      async run(a, { client, extra, text }) {
        const s = await client.sessions.create({
          command: a.command, argv: a.argv, name: a.name,
          // Served from another machine (amux --host … mcp): its directory and environment there (src/guides/remote.md).
          ...(client.remote ? { cwd: a.cwd, env: a.env, hostEnv: true } : { cwd: a.cwd ?? ctx.cwd, env: { ...ctx.env, ...a.env } }),
          timeoutMs: a.timeoutMs, idleTimeoutMs: a.idleTimeoutMs,
        });
        if (!a.wait) {
          if (!waitsForTmux(s)) return { session: brief(s) };
          // Every start slot was taken (ADR 0040): answered once it runs (or the budget ran out), as `amux run` does.
          await waitWithin(client, extra, { ids: [s.id], until: 'started' }, a.budgetMs ?? DEFAULT_BUDGET_MS);
          return { session: brief((await client.sessions.inspect(s.id)).session) };
        }
        const w = await untilEndOrInput(client, extra, s.id, s.id, a.budgetMs ?? DEFAULT_BUDGET_MS, async () => true);
        if (w.kind === 'input') return { done: false, cursor: w.cursor, session: brief(w.session), input: w.input };
        const session = brief((await client.sessions.inspect(s.id)).session);
        if (w.kind === 'budget') return { done: false, cursor: w.cursor, session };
        const { text: out, ...page } = await readPage(sessionPages(client, s.id), { tailLines: 10_000, maxBytes: a.maxBytes ?? DEFAULT_MAX_BYTES });
        return { done: true, session, exitCode: session.exitCode, output: { textIn: text(out), ...page } };
      },
    }),

    defineTool({
      name: 'exec',
      title: 'Run a job in a session',
      description: "Run a command in a live session's shell as a job with separate stdout and stderr (exact exit code, no markers on screen), "
        + 'and block until it ends or budgetMs runs out. Answers the exit code and at most maxBytes of each stream (the newest; '
        + 'omittedBytes says how much came before: read_output with the jobId and stream pages through it); their text is in content blocks of their own (textIn). '
        + 'The newest 1 MiB of each stream is kept. '
        + 'With stdin, stdin says how much of it was written to the job. When the budget runs out: done: false with the jobId; call wait with [jobId] and the cursor. '
        + 'A job that waits for input (a prompt on the terminal) answers done: false within about a second, with input (what the screen asks): answer with send. '
        + "The job runs in the session's shell itself: `exit N` in it ends that shell, and so the session.",
      input: z.strictObject({
        session: sessionRef, command, argv,
        stdin: z.string().optional().describe("text for the job's stdin, then EOF (without it, the job reads the terminal)"),
        timeoutMs: z.number().int().positive().optional().describe('kill the job after this long (it then ends killed, exit code 124)'),
        budgetMs, maxBytes,
      }),
      output: execOut,
      annotations: destructive,
      async run(a, { client, extra, text }) {
        const started = await client.jobs.exec(a.session, { command: a.command, argv: a.argv, timeoutMs: a.timeoutMs, stdin: a.stdin !== undefined });
        // The job reads it at its own pace; the upload ends with the text (EOF), with the job, or when this server's client leaves.
        const fed = a.stdin === undefined ? null : feedStdin(client, started.id, a.stdin, AbortSignal.any([extra.signal, ctx.closing]));
        const runs = async (c: Client) => {
          const j = await c.jobs.get(started.id);
          return j.status === 'running' && j.startedAt !== null;
        };
        const w = await untilEndOrInput(client, extra, started.id, started.sessionId, a.budgetMs ?? DEFAULT_BUDGET_MS, runs);
        const pending = { done: false, cursor: w.cursor, jobId: started.id, sessionId: started.sessionId, status: 'running' };
        if (w.kind === 'input') return { ...pending, input: w.input };
        if (w.kind === 'budget') return pending;
        const job = await client.jobs.get(started.id);
        const max = a.maxBytes ?? DEFAULT_MAX_BYTES;
        const tail = async (stream: 'stdout' | 'stderr') => {
          const { text: out, ...rest } = await streamTail(client, job, stream, max);
          return { textIn: text(out), ...rest };
        };
        return {
          done: true, jobId: job.id, sessionId: job.sessionId, status: job.status, exitCode: job.exitCode, signal: job.signal, error: job.error,
          durationMs: job.durationMs, stdout: await tail('stdout'), stderr: await tail('stderr'), ...(fed ? { stdin: await fed } : {}),
        };
      },
    }),
  ];
}
