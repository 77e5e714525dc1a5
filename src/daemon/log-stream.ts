import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerResponse } from 'node:http';
import { MAX_MARK, MarkerStream } from '../core/markers.js';
import type { SessionRecord } from '../core/records.js';
import { isTerminal } from '../core/types.js';
import { sessionPaths } from '../paths.js';
import type { DaemonContext } from './context.js';
import { readLog } from './log-files.js';

export interface LogQuery {
  sinceOffset: number;
  limit: number;
  follow: boolean;
  /** Only the bytes of job `job`, between its start and end markers (e.g. `run -w`). */
  job: number | null;
}

const PAGE = 1024 * 1024;
const SETTLE_MS = 300;
const MAX_DRAIN_MS = 3000;

/** Filters marker pieces to output bytes, honouring a job range. */
class JobFilter {
  inJob: boolean;
  ended = false;

  constructor(private readonly job: number | null, startedMidway: boolean) {
    this.inJob = job === null || startedMidway;
  }

  take(stream: MarkerStream, data: Buffer, final: boolean): Buffer[] {
    const out: Buffer[] = [];
    for (const p of stream.feed(data, final)) {
      if (this.ended) break;
      if ('data' in p) {
        if (this.inJob) out.push(p.data);
      } else if (this.job !== null && p.mark.seq === this.job) {
        if (p.mark.kind === 'start') this.inJob = true;
        else {
          this.inJob = false;
          this.ended = true;
        }
      }
    }
    return out;
  }
}

/**
 * Writes a session's terminal output (markers removed) from `sinceOffset`. Headers carry the
 * absolute offsets: `x-amux-offset` (first byte sent), `x-amux-next-offset` (non-follow), and
 * `x-amux-truncated`. With `follow`, it streams until the session has ended and its output settled.
 */
export async function streamLogs(ctx: DaemonContext, s: SessionRecord, q: LogQuery, res: ServerResponse): Promise<void> {
  const dir = sessionPaths(ctx.paths, s.id).logDir;
  const chunk = s.logChunkBytes;
  const stream = new MarkerStream(s.nonce);
  const first = readLog(dir, chunk, q.sinceOffset, q.follow ? PAGE : Math.min(q.limit, PAGE * 64));
  // Job 1 starts with the log: when its start was dropped, the kept log is inside it. A later job's
  // start marker is further on; when it was dropped, nothing of the job is known to be left.
  const filter = new JobFilter(q.job, first.offset > 0 && q.job === 1);
  const headers: Record<string, string> = {
    'content-type': 'application/octet-stream',
    'x-amux-offset': String(first.offset),
    'x-amux-truncated': String(first.extent.truncated),
  };

  if (!q.follow) {
    let page = first;
    // A page that holds only the start of a job marker would not advance; it extends to the end of
    // the marker (at most MAX_MARK bytes more), which is then stripped.
    if (page.data.length > 0 && page.data.length < MAX_MARK && page.nextOffset < page.extent.end) {
      const longer = readLog(dir, chunk, q.sinceOffset, page.data.length + MAX_MARK);
      const probe = new MarkerStream(s.nonce);
      probe.feed(page.data);
      if (probe.offset === 0) page = longer;
    }
    const final = page.nextOffset >= page.extent.end && isTerminal(ctx.store.getSession(s.id)?.status ?? 'failed');
    const body = Buffer.concat(filter.take(stream, page.data, final));
    headers['x-amux-next-offset'] = String(page.offset + stream.offset);
    res.writeHead(200, { ...headers, 'content-length': String(body.length) });
    res.end(body);
    return;
  }

  // Close-delimited, not chunked: the body ends when the daemon closes the connection (the CLI's
  // small HTTP client reads exactly that; curl does too).
  res.useChunkedEncodingByDefault = false;
  res.shouldKeepAlive = false;
  res.writeHead(200, headers);
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  let read = first;
  let endedAt: number | null = null;
  let quietSince = Date.now();
  for (;;) {
    for (const b of filter.take(stream, read.data, false)) res.write(b);
    if (filter.ended || closed) break;
    if (read.data.length > 0) quietSince = Date.now();
    else {
      const cur = ctx.store.getSession(s.id);
      if (!cur || isTerminal(cur.status) || cur.removedAt) {
        endedAt ??= Date.now();
        const now = Date.now();
        if (now - quietSince >= SETTLE_MS || now - endedAt >= MAX_DRAIN_MS) break;
      }
      await sleep(25);
    }
    read = readLog(dir, chunk, read.nextOffset, PAGE);
  }
  for (const b of filter.take(stream, Buffer.alloc(0), true)) if (!closed) res.write(b);
  res.end();
}
