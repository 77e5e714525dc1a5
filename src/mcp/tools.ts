import { Readable } from 'node:stream';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Client } from '../client/client.js';
import { parseJobId } from '../core/ids.js';
import { SESSION_STATUSES } from '../core/status.js';
import { AmuxError, toAmuxError } from '../errors.js';
import { ERROR_CODES } from '../protocol/errors.js';
import type { SessionView } from '../protocol/sessions.js';
import { DEFAULT_MAX_BYTES, MAX_MAX_BYTES, readPage, type OutputPage } from './paging.js';
import { jobPages, sessionPages, streamTail } from './sources.js';
import { decodeCursor, DEFAULT_BUDGET_MS, MAX_BUDGET_MS, waitWithin, withProgress, type Extra } from './wait.js';

/** What the tools act with: the typed client, and where this server runs (README "Agents"). */
export interface ToolContext {
  client: Client;
  /** The session this server runs in (AMUX_SESSION_ID): it never kills or removes it. */
  ownSession: string | null;
  /** Defaults of `run`: this server's working directory and environment. */
  cwd: string;
  env: Record<string, string>;
}

const budgetMs = z.number().int().min(0).max(MAX_BUDGET_MS).optional()
  .describe(`the longest this call may block, in ms (default ${DEFAULT_BUDGET_MS}, max ${MAX_BUDGET_MS}); when it runs out the answer has done: false and a cursor: call wait with it`);
const maxBytes = z.number().int().min(1).max(MAX_MAX_BYTES).optional()
  .describe(`at most this many bytes of output in the answer (default ${DEFAULT_MAX_BYTES})`);
const sessionRef = z.string().min(1).describe('a session id, name or unique id prefix');
const command = z.string().min(1).optional().describe('a shell command line, run by bash (pipes, &&, globs work)');
const argv = z.array(z.string()).min(1).optional().describe('an exact argv instead of command: each word is passed literally');

function ok(result: object): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(result, null, 2) }], structuredContent: result as Record<string, unknown> };
}

/** An amux error as a tool error: its message and code, and the exit code the CLI would give. */
export function toolError(err: unknown): CallToolResult {
  const e = toAmuxError(err);
  const exitCode = ERROR_CODES[e.code].exit;
  return {
    isError: true,
    content: [{ type: 'text', text: `${e.message} (amux error ${e.code})` }],
    structuredContent: { error: { code: e.code, message: e.message, exitCode } },
  };
}

/** Runs `fn`, answering its result, or its failure as a tool error. */
function tool<A>(fn: (args: A, extra: Extra) => Promise<object>) {
  return async (args: A, extra: Extra): Promise<CallToolResult> => {
    try {
      return ok(await fn(args, extra));
    } catch (err) {
      return toolError(err);
    }
  };
}

/** A session as an agent needs it: what it is, where it stands, and how much output it has. */
function brief(s: SessionView) {
  return {
    id: s.id, name: s.name, status: s.status, reason: s.reason, foreground: s.foreground, command: s.command, cwd: s.cwd,
    exitCode: s.exitCode, signal: s.signal, error: s.error, createdAt: s.createdAt, endedAt: s.endedAt, logBytes: s.logBytes,
    attention: s.attention, declared: s.declared,
  };
}

/** Refuses to end the session this server runs in (or its job 1, which stands for it). */
async function notOwn(ctx: ToolContext, ref: string, what: 'kill' | 'remove'): Promise<void> {
  if (!ctx.ownSession) return;
  const job = parseJobId(ref);
  const id = job ? (job.seq === 1 ? job.sessionId : null) : (await ctx.client.sessions.inspect(ref)).session.id;
  if (id === ctx.ownSession) {
    throw new AmuxError('invalid_argument', `refusing to ${what} ${ref}: it is the session this MCP server runs in (AMUX_SESSION_ID=${ctx.ownSession})`);
  }
}

const untilText = z.string().optional()
  .describe("what to wait for: 'exited' (default; sessions and jobs), 'idle' (waiting for input), 'working', 'attention' (it asks for a person: a bell, a notification, amux state waiting), 'waiting' or 'ready' (declared by its program with amux state), or 'output:REGEX' (a match in the plain-text output, or on the screen); answered at once when it already holds");

/** Registers amux's tools (README "Agents": the tool list). */
export function registerTools(server: McpServer, ctx: ToolContext): void {
  const { client } = ctx;
  const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

  server.registerTool('run', {
    title: 'Start a session',
    description: 'Start a command (or, with neither command nor argv, an interactive bash) as a new amux session in tmux. '
      + 'With wait: true, block until it exits or budgetMs runs out; a finished run answers its exit code and the tail of its output. '
      + 'Otherwise answer at once with the session id: then use wait, read_output, send.',
    inputSchema: {
      command, argv,
      name: z.string().optional().describe('a unique name to refer to the session by'),
      cwd: z.string().optional().describe("absolute working directory (default: this server's; on a remote host, its HOME)"),
      env: z.record(z.string(), z.string()).optional().describe("variables added to this server's environment"),
      wait: z.boolean().optional().describe('block until it exits (within budgetMs)'),
      timeoutMs: z.number().int().positive().optional().describe('expire the session after this long'),
      idleTimeoutMs: z.number().int().positive().optional().describe('expire the session after this long without output'),
      budgetMs, maxBytes,
    },
    annotations: { title: 'Start a session', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  }, tool(async (a, extra) => {
    const s = await client.sessions.create({
      command: a.command, argv: a.argv, name: a.name,
      // Served from another machine (amux --host … mcp): its directory and environment there (README "Remote hosts").
      ...(client.remote ? { cwd: a.cwd, env: a.env, hostEnv: true } : { cwd: a.cwd ?? ctx.cwd, env: { ...ctx.env, ...a.env } }),
      timeoutMs: a.timeoutMs, idleTimeoutMs: a.idleTimeoutMs,
    });
    if (!a.wait) return { session: brief(s) };
    const w = await waitWithin(ctx.client, extra, { ids: [s.id] }, a.budgetMs ?? DEFAULT_BUDGET_MS);
    const session = brief((await client.sessions.inspect(s.id)).session);
    if (!w.done) return { done: false, cursor: w.cursor, session };
    const output = await readPage(sessionPages(client, s.id), { tailLines: 10_000, maxBytes: a.maxBytes ?? DEFAULT_MAX_BYTES });
    return { done: true, session, exitCode: session.exitCode, output };
  }));

  server.registerTool('exec', {
    title: 'Run a job in a session',
    description: "Run a command in a live session's shell as a job with separate stdout and stderr (exact exit code, no markers on screen), "
      + 'and block until it ends or budgetMs runs out. Answers the exit code and at most maxBytes of each stream (the newest; '
      + 'omittedBytes says how much came before: read_output with the jobId and stream pages through it). '
      + 'When the budget runs out: done: false with the jobId; call wait with [jobId] and the cursor.',
    inputSchema: {
      session: sessionRef, command, argv,
      stdin: z.string().optional().describe("text for the job's stdin, then EOF (without it, the job reads the terminal)"),
      timeoutMs: z.number().int().positive().optional().describe('kill the job after this long (it then ends killed, exit code 124)'),
      budgetMs, maxBytes,
    },
    annotations: { title: 'Run a job in a session', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  }, tool(async (a, extra) => {
    const started = await client.jobs.exec(a.session, { command: a.command, argv: a.argv, timeoutMs: a.timeoutMs, stdin: a.stdin !== undefined });
    // The job reads it at its own pace; the upload ends with the text (EOF) or with the job.
    if (a.stdin !== undefined) void client.jobs.stdin(started.id, Readable.from([Buffer.from(a.stdin)]));
    const w = await waitWithin(ctx.client, extra, { ids: [started.id] }, a.budgetMs ?? DEFAULT_BUDGET_MS);
    if (!w.done) return { done: false, cursor: w.cursor, jobId: started.id, sessionId: started.sessionId, status: 'running' };
    const job = await client.jobs.get(started.id);
    const max = a.maxBytes ?? DEFAULT_MAX_BYTES;
    return {
      done: true, jobId: job.id, sessionId: job.sessionId, status: job.status, exitCode: job.exitCode, signal: job.signal, error: job.error,
      durationMs: job.durationMs, stdout: await streamTail(client, job, 'stdout', max), stderr: await streamTail(client, job, 'stderr', max),
    };
  }));

  server.registerTool('list', {
    title: 'List sessions',
    description: 'The sessions, newest first, with their status (pending, working, idle = waiting for input, paused, completed, failed, stopped, expired), '
      + 'why (reason), the foreground program, and exit codes.',
    inputSchema: {
      status: z.array(z.enum(SESSION_STATUSES)).optional().describe('only these statuses'),
      all: z.boolean().optional().describe('removed sessions too'),
    },
    annotations: { title: 'List sessions', ...readOnly },
  }, tool(async (a) => ({ sessions: (await client.sessions.list({ status: a.status, all: a.all })).map(brief) })));

  server.registerTool('inspect', {
    title: 'Inspect a session',
    description: "A session's whole record: the session, its jobs, its newest 50 events (each with its id, usable as a wait cursor 'e<id>').",
    inputSchema: { session: sessionRef },
    annotations: { title: 'Inspect a session', ...readOnly },
  }, tool(async (a) => client.sessions.inspect(a.session)));

  server.registerTool('read_output', {
    title: 'Read output',
    description: "A page of a session's terminal output, or of a job's stdout or stderr, within maxBytes: plain text (escapes removed) unless raw. "
      + 'Page with sinceOffset = the previous nextOffset while truncated is true; skippedBytes counts bytes before offset that are not in the answer '
      + '(dropped by the log cap, or before a tail). tailLines gives the last lines of the newest maxBytes instead. Offsets are absolute: '
      + "a send receipt's offset reads the reply to that input.",
    inputSchema: {
      target: z.string().min(1).describe('a session reference, or a job id job-<session>-<n>'),
      sinceOffset: z.number().int().min(0).optional().describe('absolute byte offset to start at (default: the oldest byte kept)'),
      maxBytes,
      tailLines: z.number().int().min(1).optional().describe('only the last N lines'),
      stream: z.enum(['stdout', 'stderr']).optional().describe('for a job whose streams were captured: which one (default stdout)'),
      raw: z.boolean().optional().describe('the exact bytes, escape sequences kept (encoding utf8, or base64 when they are not UTF-8)'),
    },
    annotations: { title: 'Read output', ...readOnly },
  }, tool(async (a): Promise<OutputPage & { target: string; stream?: string }> => {
    const q = { sinceOffset: a.sinceOffset, maxBytes: a.maxBytes, tailLines: a.tailLines, raw: a.raw };
    const job = parseJobId(a.target);
    if (!job) {
      if (a.stream) throw new AmuxError('invalid_argument', `stream is for job ids (job-<session>-<n>); '${a.target}' is a session, whose output is one terminal stream`);
      return { target: a.target, ...(await readPage(sessionPages(client, a.target), q)) };
    }
    const view = await client.jobs.get(a.target);
    if (view.tty) {
      if (a.stream) throw new AmuxError('invalid_argument', `job ${view.id} ran on the terminal, so its stdout and stderr are one stream: drop stream`);
      return { target: view.id, ...(await readPage(sessionPages(client, view.sessionId, view.seq), q)) };
    }
    const stream = a.stream ?? 'stdout';
    return { target: view.id, stream, ...(await readPage(jobPages(client, view.id, stream), q)) };
  }));

  server.registerTool('screen', {
    title: 'Show the screen',
    description: "What a live session's terminal shows right now (full-screen programs, prompts, menus), as text.",
    inputSchema: { session: sessionRef, escapes: z.boolean().optional().describe('keep colours and attributes as escape sequences') },
    annotations: { title: 'Show the screen', ...readOnly },
  }, tool(async (a) => client.sessions.screen(a.session, { escapes: a.escapes })));

  server.registerTool('send', {
    title: 'Type into a session',
    description: 'Type text (then Enter, unless enter is false) or key names (keys: ["C-c"], ["Up", "Enter"]; a key is never typed as text) into a live session. '
      + 'Multi-line text goes in as one paste, bracketed when the program asked for it, so a REPL or agent takes it as one submission. '
      + "when: 'idle' holds the input until the session waits for input (at most budgetMs), instead of typing into a busy program. "
      + "Answers a receipt: delivered, offset (read the reply from there with read_output sinceOffset), eventId (wait until idle with cursor 'e<eventId>' for the reply to finish).",
    inputSchema: {
      session: sessionRef,
      text: z.string().optional().describe('text to type'),
      keys: z.array(z.string()).min(1).optional().describe('tmux key names, e.g. C-c, Enter, Up, Escape, F1'),
      enter: z.boolean().optional().describe('press Enter after the text (default true; never after keys)'),
      when: z.enum(['now', 'idle', 'ready']).optional().describe("'idle': hold the input until the session is idle; 'ready': until its program declared ready (amux state ready)"),
      budgetMs,
    },
    annotations: { title: 'Type into a session', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  }, tool(async (a, extra) => {
    if ((a.text === undefined) === (a.keys === undefined)) throw new AmuxError('invalid_argument', 'give either text or keys, not both or neither');
    const when = a.when ?? 'now';
    const input = a.keys ? { keys: a.keys, enter: false } : { text: a.text!, enter: a.enter !== false };
    const budget = a.budgetMs ?? DEFAULT_BUDGET_MS;
    try {
      const r = await withProgress(extra, budget, `holding input until ${when}`, client.sessions.send(a.session, { ...input, when, timeoutMs: when === 'now' ? undefined : budget }));
      return { delivered: r.delivered, offset: r.offset, eventId: r.eventId, cursor: `e${r.eventId}`, heldMs: r.heldMs, pasted: r.pasted, session: brief(r.session) };
    } catch (err) {
      if (err instanceof AmuxError && err.code === 'timeout') return { delivered: false, message: err.message };
      throw err;
    }
  }));

  server.registerTool('wait', {
    title: 'Wait for sessions or jobs',
    description: 'Block until the targets get where until says (all of them, or with any: the first), at most budgetMs. '
      + 'Answers done: true with each result (reached, status, exit code, the event that decided it and its reason, an output match), '
      + 'or done: false when the budget ran out: call wait again with the same ids and the answer\'s cursor, so that no change in between is missed. '
      + 'A target that ended without getting there has reached: false.',
    inputSchema: {
      ids: z.array(z.string().min(1)).min(1).describe('session references or job ids'),
      until: untilText,
      any: z.boolean().optional().describe('answer when the first target gets there'),
      cursor: z.string().optional().describe("a previous answer's cursor (or 'e<eventId>' of a send receipt): only changes after it count"),
      sinceOffset: z.number().int().min(0).optional().describe('output:REGEX only: search from this log offset (a send receipt offset)'),
      budgetMs,
    },
    annotations: { title: 'Wait for sessions or jobs', ...readOnly },
  }, tool(async (a, extra) => {
    const c = a.cursor === undefined ? null : decodeCursor(a.cursor);
    const output = a.until?.startsWith('output:') === true;
    const sinceOffset = a.sinceOffset ?? (output ? c?.sinceOffset ?? undefined : undefined);
    return waitWithin(ctx.client, extra, { ids: a.ids, until: a.until, any: a.any, after: c?.after, sinceOffset }, a.budgetMs ?? DEFAULT_BUDGET_MS);
  }));

  server.registerTool('kill', {
    title: 'Kill a session or job',
    description: 'Signal every process of a session (default TERM, then KILL after graceMs) and close it (status stopped), or kill one job by its id '
      + '(status killed; the shell lives on). Never the session this server runs in.',
    inputSchema: {
      target: z.string().min(1).describe('a session reference or a job id'),
      signal: z.string().optional().describe('signal name or number (default TERM)'),
      graceMs: z.number().int().min(0).optional().describe('time before SIGKILL (default 5000)'),
    },
    annotations: { title: 'Kill a session or job', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  }, tool(async (a) => {
    await notOwn(ctx, a.target, 'kill');
    const killed = await client.sessions.kill(a.target, { signal: a.signal, graceMs: a.graceMs });
    return 'seq' in killed ? { job: killed } : { session: brief(killed) };
  }));

  server.registerTool('remove', {
    title: 'Remove a session',
    description: 'Remove a finished session (its history row stays); force: true kills a live one first. Never the session this server runs in.',
    inputSchema: { session: sessionRef, force: z.boolean().optional().describe('kill a live session first') },
    annotations: { title: 'Remove a session', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  }, tool(async (a) => {
    await notOwn(ctx, a.session, 'remove');
    return { session: brief(await client.sessions.remove(a.session, { force: a.force })) };
  }));

  server.registerTool('jobs', {
    title: 'List jobs',
    description: "A session's jobs (exec runs; job 1 is a command session's own command), newest first, with status, exit code and output sizes.",
    inputSchema: {
      session: sessionRef,
      status: z.array(z.enum(['running', 'completed', 'failed', 'killed'])).optional().describe('only these statuses'),
      limit: z.number().int().min(1).optional(),
    },
    annotations: { title: 'List jobs', ...readOnly },
  }, tool(async (a) => ({ jobs: await client.jobs.list(a.session, { status: a.status, limit: a.limit }) })));
}
