import { z } from 'zod';
import { parseJobId } from '../core/ids.js';
import { AmuxError } from '../errors.js';
import { WORKING_REASONS_TEXT } from '../core/working-reasons.js';
import { brief } from './context.js';
import { readPage } from './paging.js';
import { inspectOut, jobsOut, listOut, maxBytes, readOutputOut, screenOut, sessionRef, sessionStatuses } from './schemas.js';
import { jobPages, sessionPages } from './sources.js';
import { defineTool, type ToolSpec } from './toolkit.js';

/* The read-only tools: list, inspect, read_output, screen, jobs (src/guides/agents.md). */

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export function readTools(): ToolSpec[] {
  return [
    defineTool({
      name: 'list',
      title: 'List sessions',
      description: 'The sessions, newest first, with their status (pending, working, idle = waiting for input, paused, completed, failed, stopped, expired), '
        + `why (reason: ${WORKING_REASONS_TEXT}), the foreground program, and exit codes.`,
      input: z.strictObject({
        status: sessionStatuses.optional().describe('only these statuses'),
        all: z.boolean().optional().describe('removed sessions too'),
      }),
      output: listOut,
      annotations: readOnly,
      run: async (a, { client }) => ({ sessions: (await client.sessions.list({ status: a.status, all: a.all })).map(brief) }),
    }),

    defineTool({
      name: 'inspect',
      title: 'Inspect a session',
      description: "A session's whole record: the session, its jobs, its newest 50 events (each with its id, usable as a wait cursor 'e<id>').",
      input: z.strictObject({ session: sessionRef }),
      output: inspectOut,
      annotations: readOnly,
      run: async (a, { client }) => client.sessions.inspect(a.session),
    }),

    defineTool({
      name: 'read_output',
      title: 'Read output',
      description: "A page of a session's terminal output, or of a job's stdout or stderr, within maxBytes: plain text (escapes removed) unless raw. "
        + 'The text is in a content block of its own (textIn says which). '
        + 'Page with sinceOffset = the previous nextOffset while more is true (truncated is its old name); a page can be shorter than maxBytes, '
        + 'or empty, and still have more after it. skippedBytes counts bytes before offset that are not in the answer '
        + "(dropped by the cap: a session's log keeps its newest logCap bytes, 8 MiB by default; a job's stream its newest 1 MiB; or before a tail). "
        + 'tailLines gives the last lines of the newest maxBytes instead. Offsets are absolute: '
        + "a send receipt's offset reads the reply to that input.",
      input: z.strictObject({
        target: z.string().min(1).describe('a session reference, or a job id job-<session>-<n>'),
        sinceOffset: z.number().int().min(0).optional().describe('absolute byte offset to start at (default: the oldest byte kept)'),
        maxBytes,
        tailLines: z.number().int().min(1).optional().describe('only the last N lines'),
        stream: z.enum(['stdout', 'stderr']).optional().describe('for a job whose streams were captured: which one (default stdout)'),
        raw: z.boolean().optional().describe('the exact bytes, escape sequences kept (encoding utf8, or base64 when they are not UTF-8)'),
      }),
      output: readOutputOut,
      annotations: readOnly,
      async run(a, { client, text }) {
        const q = { sinceOffset: a.sinceOffset, maxBytes: a.maxBytes, tailLines: a.tailLines, raw: a.raw };
        const job = parseJobId(a.target);
        let target = a.target;
        let stream: 'stdout' | 'stderr' | undefined;
        let page;
        if (!job) {
          if (a.stream) throw new AmuxError('invalid_argument', `stream is for job ids (job-<session>-<n>); '${a.target}' is a session, whose output is one terminal stream`);
          page = await readPage(sessionPages(client, a.target), q);
        } else {
          const view = await client.jobs.get(a.target);
          target = view.id;
          if (view.tty) {
            if (a.stream) throw new AmuxError('invalid_argument', `job ${view.id} ran on the terminal, so its stdout and stderr are one stream: drop stream`);
            page = await readPage(sessionPages(client, view.sessionId, view.seq), q);
          } else {
            stream = a.stream ?? 'stdout';
            page = await readPage(jobPages(client, view.id, stream), q);
          }
        }
        const { text: out, ...rest } = page;
        return { target, ...(stream ? { stream } : {}), textIn: text(out), ...rest };
      },
    }),

    defineTool({
      name: 'screen',
      title: 'Show the screen',
      description: "What a live session's terminal shows right now (full-screen programs, prompts, menus), as text.",
      input: z.strictObject({ session: sessionRef, escapes: z.boolean().optional().describe('keep colours and attributes as escape sequences') }),
      output: screenOut,
      annotations: readOnly,
      run: async (a, { client }) => client.sessions.screen(a.session, { escapes: a.escapes }),
    }),

    defineTool({
      name: 'jobs',
      title: 'List jobs',
      description: "A session's jobs (exec runs; job 1 is a command session's own command), newest first, with status, exit code and output sizes "
        + '(bytes written; the newest 1 MiB of each stream is kept: stdoutTruncated and stderrTruncated say when older bytes were dropped).',
      input: z.strictObject({
        session: sessionRef,
        status: z.array(z.enum(['running', 'completed', 'failed', 'killed'])).optional().describe('only these statuses'),
        limit: z.number().int().min(1).optional(),
      }),
      output: jobsOut,
      annotations: readOnly,
      run: async (a, { client }) => ({ jobs: await client.jobs.list(a.session, { status: a.status, limit: a.limit }) }),
    }),
  ];
}
