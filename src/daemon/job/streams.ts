import { rmSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import type { JobRecord } from '../../core/records.js';
import { sessionPaths } from '../../paths.js';
import { encodeFrame, FRAME } from '../../protocol/frames.js';
import type { JobStream } from '../../protocol/jobs.js';
import { jobView } from '../api/views.js';
import type { DaemonContext } from '../context.js';
import { JOB_STREAM_CAP, JOB_STREAM_CHUNK, JOB_STREAM_KEEP, logExtent, pruneChunks, readLog } from '../output/log-files.js';
import { readPage } from '../output/log-page.js';

/**
 * A live reader holds a job's streams: the ring keeps every chunk until the reader has read it,
 * so a fast writer cannot overtake it. Past this many unread bytes the reader lets go (the disk is
 * not an unbounded buffer) and skips what is then dropped.
 */
const HOLD_LIMIT = 64 * 1024 * 1024;
const PREFIX: Record<JobStream, string> = { stdout: 'out.', stderr: 'err.' };
const BOTH: readonly JobStream[] = ['stdout', 'stderr'];

export function streamDirOf(ctx: DaemonContext, sessionId: string, seq: number): string {
  return join(sessionPaths(ctx.paths, sessionId).jobsDir, String(seq));
}

/** The extent of a captured stream: total bytes written, and whether older ones were dropped. */
export function streamTotals(dir: string, stream: JobStream): { bytes: number; truncated: boolean; first: number } {
  const e = logExtent(dir, JOB_STREAM_CHUNK, PREFIX[stream]);
  return { bytes: e.end, truncated: e.end > JOB_STREAM_CAP, first: Math.max(e.first, e.end - JOB_STREAM_CAP) };
}

/**
 * A job as it stands: a running captured job's byte counts are those written so far (the row has
 * them only from its end, state.ts `finish`).
 */
export function withLiveTotals(ctx: DaemonContext, j: JobRecord): JobRecord {
  if (j.status !== 'running' || j.tty) return j;
  const dir = streamDirOf(ctx, j.sessionId, j.seq);
  const out = streamTotals(dir, 'stdout');
  const err = streamTotals(dir, 'stderr');
  return { ...j, stdoutBytes: out.bytes, stderrBytes: err.bytes, stdoutTruncated: out.truncated, stderrTruncated: err.truncated };
}

/** A job's captured stdout and stderr (ADR 0009): holds of live readers, pages, and frames. */
export class JobStreams {
  /** Live readers per job: while there is one, `<streamDir>/hold` exists. */
  private readonly readers = new Map<string, number>();

  constructor(private readonly ctx: DaemonContext) {}

  /** Takes a reader's hold on a job's streams. */
  hold(j: Pick<JobRecord, 'id' | 'sessionId' | 'seq'>): void {
    const n = (this.readers.get(j.id) ?? 0) + 1;
    this.readers.set(j.id, n);
    if (n === 1) writeFileSync(join(streamDirOf(this.ctx, j.sessionId, j.seq), 'hold'), '', { mode: 0o600 });
  }

  /** Lets go of a hold; the last reader out prunes the streams back to their cap. */
  release(j: Pick<JobRecord, 'id' | 'sessionId' | 'seq'>): void {
    const n = (this.readers.get(j.id) ?? 1) - 1;
    if (n > 0) {
      this.readers.set(j.id, n);
      return;
    }
    this.readers.delete(j.id);
    const dir = streamDirOf(this.ctx, j.sessionId, j.seq);
    rmSync(join(dir, 'hold'), { force: true });
    for (const st of BOTH) pruneChunks(dir, PREFIX[st], JOB_STREAM_KEEP);
  }

  /** The newest kept bytes of one captured stream, from `sinceOffset`, at most `limit`. */
  read(j: JobRecord, stream: JobStream, sinceOffset: number, limit: number) {
    const dir = streamDirOf(this.ctx, j.sessionId, j.seq);
    const ended = this.ctx.store.getJob(j.id)?.status !== 'running';
    const t = streamTotals(dir, stream);
    // A page never splits an escape sequence or a character (ADR 0031).
    const r = readPage(dir, JOB_STREAM_CHUNK, Math.max(sinceOffset, t.first), limit, ended, PREFIX[stream]);
    return { data: r.data, offset: r.offset, nextOffset: r.nextOffset, total: t.bytes, truncated: t.truncated, more: r.more };
  }

  /**
   * A job's output as frames (protocol/frames.ts): a start frame (the job), stdout and stderr
   * frames as they are written, until it ends with `follow` (else what is kept now), and an end
   * frame (the job as it ended). `held`: the caller took a hold at launch, so every byte is
   * there; this lets go of it. Bytes dropped before they were read are skipped.
   */
  async *frames(j: JobRecord, follow: boolean, streams: readonly JobStream[] = BOTH, held = false): AsyncGenerator<Buffer> {
    const { ctx } = this;
    const dir = streamDirOf(ctx, j.sessionId, j.seq);
    let holding = held;
    if (!held && follow && j.status === 'running') {
      this.hold(j);
      holding = true;
    }
    const letGo = () => {
      if (holding) this.release(j);
      holding = false;
    };
    let wake: (() => void) | null = null;
    const onJob = (id: string) => {
      if (id === j.id) wake?.();
    };
    let watcher: FSWatcher | null = null;
    if (follow) {
      ctx.bus.on('job', onJob);
      try {
        watcher = watch(dir, () => wake?.());
        watcher.on('error', () => undefined);
      } catch {
        /* polled below */
      }
    }
    try {
      yield encodeFrame(FRAME.start, Buffer.from(JSON.stringify(jobView(withLiveTotals(ctx, j)))));
      const offsets: Record<JobStream, number> = { stdout: 0, stderr: 0 };
      // A reader held from the job's start reads every byte; one that comes later, the kept tail.
      for (const st of streams) offsets[st] = held ? logExtent(dir, JOB_STREAM_CHUNK, PREFIX[st]).first : streamTotals(dir, st).first;
      for (;;) {
        const ended = ctx.store.getJob(j.id)?.status !== 'running';
        // Read after looking at the status: once it ended, its streams were complete (the shell
        // drains them before it writes the exit status), so this read is the last one.
        for (const st of streams) {
          if (streamTotals(dir, st).bytes - offsets[st] > HOLD_LIMIT) letGo();
          for (;;) {
            const r = readLog(dir, JOB_STREAM_CHUNK, offsets[st], 256 * 1024, PREFIX[st]);
            offsets[st] = Math.max(r.nextOffset, offsets[st]);
            if (r.data.length === 0) break;
            yield encodeFrame(FRAME[st], r.data);
          }
        }
        if (ended || !follow) break;
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, 100);
        });
        wake = null;
      }
      yield encodeFrame(FRAME.end, Buffer.from(JSON.stringify(jobView(ctx.store.getJob(j.id)!))));
    } finally {
      ctx.bus.off('job', onJob);
      watcher?.close();
      letGo();
    }
  }
}
