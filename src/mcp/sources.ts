import type { Client } from '../client/client.js';
import { readBody } from '../client/http.js';
import type { JobView } from '../protocol/jobs.js';
import { pageInfo } from '../protocol/logs.js';
import { readPage, type FetchPage } from './paging.js';

/* Where the MCP tools read output from: a session's log pages and a job's captured streams, through the client. */

/** The pages of a session's terminal output (optionally of one `--tty` job's run). */
export function sessionPages(client: Client, ref: string, job?: number): FetchPage {
  return async (sinceOffset, limit) => {
    const res = await client.sessions.logs(ref, { sinceOffset, limit, job });
    const data = await readBody(res);
    const p = pageInfo(res.headers);
    return { data, offset: p.offset, nextOffset: p.nextOffset, more: p.more };
  };
}

/** The pages of one captured stream of a job. */
export function jobPages(client: Client, id: string, stream: 'stdout' | 'stderr'): FetchPage {
  return async (sinceOffset, limit) => {
    const res = await client.jobs.output(id, { stream, sinceOffset, limit });
    const data = await readBody(res);
    const p = pageInfo(res.headers);
    return { data, offset: p.offset, nextOffset: p.nextOffset, more: p.more };
  };
}

/** The newest `max` bytes of a job's stream, and where the rest is. */
export async function streamTail(client: Client, job: JobView, stream: 'stdout' | 'stderr', max: number) {
  const total = (stream === 'stdout' ? job.stdoutBytes : job.stderrBytes) ?? 0;
  const page = await readPage(jobPages(client, job.id, stream), { sinceOffset: Math.max(0, total - max), maxBytes: max });
  // Not all of the stream is in the answer: older bytes were left out, or a newer page follows.
  return { text: page.text, bytes: total, offset: page.offset, omittedBytes: page.offset, truncated: page.offset > 0 || page.more };
}
