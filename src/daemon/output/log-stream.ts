import { setTimeout as sleep } from 'node:timers/promises';
import { markerPrefix, MarkerStream } from '../../core/markers.js';
import { moreFollows } from '../../core/page-bounds.js';
import type { JobRecord, SessionRecord } from '../../core/records.js';
import { isTerminal } from '../../core/status.js';
import { sessionPaths } from '../../paths.js';
import type { DaemonContext } from '../context.js';
import { logExtent, readLog, type LogRead } from './log-files.js';
import { readPage } from './log-page.js';

export interface LogQuery {
  sinceOffset: number;
  limit: number;
  follow: boolean;
  /** Only the bytes of job `job`, between its start and end markers (e.g. `run -w`). */
  job: number | null;
  /** Where the asked output ends when before the log's end (a time window's `until`). */
  endOffset?: number;
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
 * Job 1 starts with the log: when its start was dropped, the kept log is inside it. A later job's
 * start marker is further on; when it was dropped, nothing of the job is known to be left.
 */
function jobFilter(q: LogQuery, first: LogRead): JobFilter {
  return new JobFilter(q.job, first.offset > 0 && q.job === 1);
}

/** A page of a session's output: where it lies (absolute offsets; PAGE_HEADERS on the wire) and its bytes, markers removed. */
export interface LogPage {
  offset: number;
  /** Where the next page starts; null on a followed stream. */
  nextOffset: number | null;
  truncated: boolean;
  /** More can be read from `nextOffset` now (`moreFollows`, ADR 0052); false on a followed stream. */
  more: boolean;
}

/**
 * A session's terminal output (markers removed) from `sinceOffset`: `page` tells where it lies
 * before the first byte is read from `body`. With `follow`, the body goes on until the session
 * has ended and its output settled; without, it is one page of at most `limit` bytes.
 */
export function readSessionLog(ctx: DaemonContext, s: SessionRecord, q: LogQuery): { page: LogPage; body: AsyncGenerator<Buffer> } {
  const dir = sessionPaths(ctx.paths, s.id).logDir;
  const chunk = s.logChunkBytes;
  const stream = new MarkerStream(s.nonce);
  // A page never splits an escape sequence, a job marker or a character (ADR 0031).
  const ended = isTerminal(ctx.store.getSession(s.id)?.status ?? 'failed');
  if (q.follow) {
    const first = readLog(dir, chunk, q.sinceOffset, PAGE);
    const page: LogPage = { offset: first.offset, nextOffset: null, truncated: first.extent.truncated, more: false };
    return { page, body: follow(ctx, s, jobFilter(q, first), stream, first) };
  }
  const first = readPage(dir, chunk, q.sinceOffset, Math.min(q.limit, PAGE * 64), ended);
  const filter = jobFilter(q, first);
  const final = first.nextOffset >= first.extent.end && ended;
  const data = Buffer.concat(filter.take(stream, first.data, final));
  const nextOffset = first.offset + stream.offset;
  // A job's run ends at its end marker; a time window at its `until`.
  const more = first.more && !filter.ended && moreFollows(nextOffset, q.endOffset ?? Number.MAX_SAFE_INTEGER);
  const page: LogPage = { offset: first.offset, nextOffset, truncated: first.extent.truncated, more };
  return { page, body: (async function* () { yield data; })() };
}

async function* follow(ctx: DaemonContext, s: SessionRecord, filter: JobFilter, stream: MarkerStream, first: LogRead): AsyncGenerator<Buffer> {
  const dir = sessionPaths(ctx.paths, s.id).logDir;
  let read = first;
  let settled = false;
  for (;;) {
    for (const b of filter.take(stream, read.data, false)) yield b;
    if (filter.ended) break;
    if (read.data.length === 0) {
      const cur = ctx.store.getSession(s.id);
      if (!cur || isTerminal(cur.status) || cur.removedAt) {
        // Ended: tmux may still be copying its last bytes (seconds under load). Once the log holds
        // them (settleLog: the last job's end marker, or quiet after a kill), it is read to its end.
        if (settled) break;
        if (cur) await settleLog(ctx, cur);
        settled = true;
      } else await sleep(25);
    }
    read = readLog(dir, s.logChunkBytes, read.nextOffset, PAGE);
  }
  yield* filter.take(stream, Buffer.alloc(0), true);
}

/** How far back from the end of the log a just-ended session's last end marker is looked for. */
const TAIL_BYTES = 16 * 1024;
/** A session that ended longer ago than this has its whole output in its log. */
const RECENT_MS = 60_000;
/** The longest a read waits for a marker the shell has printed (tmux may lag far behind under load). */
const MARKER_WAIT_MS = 10_000;

/**
 * Output still on its way when a session has just ended. tmux copies a pane's output into the log
 * on its own time, so the exit file (what `wait` answers from) can be there well before the last
 * bytes are: `amux wait ID && amux logs ID` under load read a log short of its end, or empty. A
 * page read of a session that ended in the last minute therefore first waits:
 * - when its last foreground job ended by its own exit status, for that job's end marker, which the
 *   shell printed after the job's last byte (up to MARKER_WAIT_MS);
 * - otherwise (a kill, a shell that died), until the log has not grown for SETTLE_MS (up to
 *   MAX_DRAIN_MS).
 */
export async function settleLog(ctx: DaemonContext, s: SessionRecord): Promise<void> {
  if (!isTerminal(s.status) || s.endedAt === null || Date.now() - s.endedAt >= RECENT_MS) return;
  const last = ctx.store.listJobs(s.id).filter((j) => !j.background).reduce<JobRecord | null>((m, j) => (m && m.seq > j.seq ? m : j), null);
  const marked = last !== null && last.exitCode !== null && (last.status === 'completed' || last.status === 'failed');
  const marker = Buffer.concat([markerPrefix(s.nonce), Buffer.from(`e;${last?.seq ?? 0};`)]);
  const dir = sessionPaths(ctx.paths, s.id).logDir;
  const started = Date.now();
  let end = -1;
  let quietSince = started;
  while (Date.now() - started < (marked ? MARKER_WAIT_MS : MAX_DRAIN_MS)) {
    const now = logExtent(dir, s.logChunkBytes).end;
    if (marked && readLog(dir, s.logChunkBytes, Math.max(0, now - TAIL_BYTES), TAIL_BYTES).data.includes(marker)) return;
    if (now !== end) {
      end = now;
      quietSince = Date.now();
    } else if (!marked && Date.now() - quietSince >= SETTLE_MS) return;
    await sleep(25);
  }
}
