import { z } from 'zod';
import { SESSION_STATUSES } from '../core/status.js';
import { DEFAULT_MAX_BYTES, MAX_MAX_BYTES } from './paging.js';
import { DEFAULT_BUDGET_MS, MAX_BUDGET_MS } from './wait.js';

/*
 * The schemas of amux's MCP tools (src/guides/agents.md): strict inputs (an unknown key is refused, naming
 * it) and the outputs their `structuredContent` conforms to. Records of the API are open objects
 * here: their fields are src/guides/api.md's.
 */

export const budgetMs = z.number().int().min(0).max(MAX_BUDGET_MS).optional()
  .describe(`the longest this call may block, in ms (default ${DEFAULT_BUDGET_MS}, max ${MAX_BUDGET_MS}); when it runs out the answer has done: false and a cursor: call wait with it`);
export const maxBytes = z.number().int().min(1).max(MAX_MAX_BYTES).optional()
  .describe(`at most this many bytes of output in the answer (default ${DEFAULT_MAX_BYTES})`);
export const sessionRef = z.string().min(1).describe('a session id, name or unique id prefix');
export const command = z.string().min(1).optional().describe('a shell command line, run by bash (pipes, &&, globs work)');
export const argv = z.array(z.string()).min(1).optional().describe('an exact argv instead of command: each word is passed literally');
export const untilText = z.string().optional()
  .describe("what to wait for: 'exited' (default; sessions and jobs), 'idle' (waiting for input), 'working', 'attention' (it asks for a person: a bell, a notification, amux state waiting), 'waiting' or 'ready' (declared by its program with amux state), 'started' (no longer pending), or 'output:REGEX' (a match in the plain-text output, or on the screen); answered at once when it already holds");
export const sessionStatuses = z.array(z.enum(SESSION_STATUSES));

const nullableString = z.string().nullable();
const nullableInt = z.number().int().nullable();

/** A session as the tools answer it (`brief` in tools.ts). */
export const sessionOut = z.looseObject({
  id: z.string(), name: nullableString, status: z.string(), reason: nullableString, foreground: nullableString, command: nullableString,
  cwd: z.string(), exitCode: nullableInt, signal: nullableString, error: nullableString, createdAt: z.string(), endedAt: nullableString,
  logBytes: z.number(),
  attention: z.looseObject({}).nullable().optional().describe('it asks for a person: {at, source, title, message} (amux help statuses)'),
  declared: z.looseObject({}).nullable().optional().describe('the state its program declared (amux state, or an OSC 7501 report): {state, source, message, at, until}'),
  title: nullableString.optional().describe('the window title its program set (OSC 0/2), as written; not a status'),
  progress: z.looseObject({}).nullable().optional().describe('a progress bar its program set (OSC 9;4): {state, percent, at}'),
  semanticPrompt: z.looseObject({}).nullable().optional().describe('the last OSC 133 mark of a program that has the terminal: {phase, exitCode, at}'),
});
/** A job record (src/guides/api.md: jobs). */
export const jobOut = z.looseObject({ id: z.string(), sessionId: z.string(), seq: z.number().int(), status: z.string(), exitCode: nullableInt });
const record = z.looseObject({});

/**
 * Where the output text of an answer is: its own text content block, not `structuredContent`, so
 * that a page goes over the wire once (src/guides/agents.md).
 */
export const textIn = z.string().describe("where this output's text is: 'content[N]', the N-th content block of the answer");

/** A page of output without its text (that is in a content block of its own). */
export const pageOut = z.object({
  textIn,
  encoding: z.enum(['utf8', 'base64']),
  offset: z.number().int(), nextOffset: z.number().int(),
  more: z.boolean().describe('more output can be read from nextOffset now: page while it is true'),
  truncated: z.boolean().describe('the old name of more, kept for one release'),
  skippedBytes: z.number().int(),
});
/** The newest bytes of a job stream (exec), without their text. */
export const tailOut = z.object({
  textIn, bytes: z.number().int(), offset: z.number().int(), omittedBytes: z.number().int(),
  truncated: z.boolean().describe('not all of the stream is in this answer: older bytes were left out (omittedBytes), or newer ones follow'),
});

const waitResult = z.object({
  id: z.string(), status: z.string(), reached: z.boolean(), exitCode: nullableInt, signal: nullableString, reason: nullableString,
  error: nullableString, event: record.nullable(), match: nullableString, logOffset: nullableInt,
});
export const waitOut = z.object({ done: z.boolean(), cursor: z.string(), results: z.array(waitResult) });

const done = z.boolean().describe('false: budgetMs ran out first, or (with input) the command waits for input; call wait with cursor. true: finished');
const cursor = z.string().optional().describe('with done: false, pass to wait to go on without missing a change');

/** A run or job that waits for input: it still runs, its session is idle (src/guides/agents.md). */
const inputOut = z.object({
  status: z.string(), reason: nullableString, screen: z.string().describe("the screen's last lines: what it asks"),
}).optional().describe('with done: false, the command waits for input (a prompt): answer with send, then wait with cursor');

export const runOut = z.object({
  done: done.optional(), cursor, session: sessionOut, exitCode: nullableInt.optional(), output: pageOut.optional(), input: inputOut,
});
export const execOut = z.object({
  done, cursor, jobId: z.string(), sessionId: z.string(), status: z.string(), exitCode: nullableInt.optional(),
  signal: nullableString.optional(), error: nullableString.optional(), durationMs: z.number().optional(),
  stdout: tailOut.optional(), stderr: tailOut.optional(), input: inputOut,
  stdin: z.object({
    written: z.number().int().describe("bytes written to the job's stdin pipe: all of them once it read to the end (eof); a job that ended early may not have read the last 64 KiB"),
    bytes: z.number().int().describe('the old name of written, kept for one release'),
    of: z.number().int().describe('bytes given'),
    eof: z.boolean().describe('the job got all of it and then EOF'), note: z.string().optional(),
  }).optional(),
});
export const listOut = z.object({ sessions: z.array(sessionOut) });
export const inspectOut = z.looseObject({ session: record, jobs: z.array(record), events: z.array(record), lastOutput: nullableString });
export const readOutputOut = pageOut.extend({ target: z.string(), stream: z.enum(['stdout', 'stderr']).optional() });
export const screenOut = z.object({ screen: z.string() });
export const sendOut = z.object({
  delivered: z.boolean(),
  submitted: z.boolean().optional().describe('the program read from the terminal after the Enter (its text was submitted, not only typed); false: no sign of it within 2 s, or no Enter was pressed'),
  cursor: z.string().describe("'e<eventId>': wait with it (until idle) for the reply, or, when not delivered, from here on"),
  offset: z.number().int().optional(), eventId: z.number().int().optional(), heldMs: z.number().optional(), pasted: z.boolean().optional(),
  session: sessionOut.optional(), message: z.string().optional(),
});
export const killOut = z.object({ session: sessionOut.optional(), job: jobOut.optional() });
export const removeOut = z.object({ session: sessionOut });
export const jobsOut = z.object({ jobs: z.array(jobOut) });
