import { execFile } from 'node:child_process';
import { closeSync, constants, existsSync, fstatSync, openSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { JobRecord } from '../../core/records.js';
import { AmuxError } from '../../errors.js';
import type { StdinAnswer } from '../../protocol/jobs.js';
import type { DaemonContext } from '../context.js';

/** The name of a job's stdin FIFO in its stream directory (gone once the shell has opened it). */
export const STDIN_FIFO = 'stdin';

/** One job's stdin: the daemon's end of its FIFO. */
interface Pipe {
  path: string;
  /** The FIFO, opened read-write and non-blocking: writes never block the daemon, and it never waits for a reader. */
  socket: Socket;
  /** Resolves once the shell holds the FIFO's read end (its start notice came), or the pipe was closed. */
  started: Promise<void>;
  markStarted: () => void;
  /** A request is writing its body into it. */
  taken: boolean;
  /** Called once when the pipe closes (EOF for the job, or the job ended). */
  onClose: Array<() => void>;
}

function mkfifoPath(): string {
  for (const dir of ['/usr/bin', '/bin', '/usr/local/bin']) if (existsSync(`${dir}/mkfifo`)) return `${dir}/mkfifo`;
  return 'mkfifo';
}

/**
 * The stdin of `exec -i` jobs (ADR 0017). Before the job is typed, the daemon makes a FIFO (0600)
 * in the job's stream directory and opens it read-write and non-blocking (O_NOFOLLOW), so the
 * shell's open of its read end never blocks and no write of the daemon ever does. The shell opens
 * the read end before its start notice; the daemon then unlinks the FIFO, and `POST
 * /v1/jobs/{id}/stdin` pipes a request body into it, with backpressure. The daemon's descriptor is
 * the only writer: closing it is the job's EOF (at the end of the body, when its client goes away,
 * or when the job ends).
 */
export class JobStdin {
  private readonly pipes = new Map<string, Pipe>();
  private readonly mkfifo = mkfifoPath();

  constructor(private readonly ctx: DaemonContext) {
    ctx.bus.on('job', (id: string) => {
      if (this.pipes.has(id) && ctx.store.getJob(id)?.status !== 'running') this.close(id);
    });
  }

  /** Makes and opens the FIFO of job `jobId` in `dir`; returns its path, for the job script. */
  async open(jobId: string, dir: string): Promise<string> {
    const path = join(dir, STDIN_FIFO);
    rmSync(path, { force: true });
    await new Promise<void>((resolve, reject) => {
      // No shell: the path is one argument.
      execFile(this.mkfifo, ['-m', '600', '--', path], (err, _out, stderr) => {
        if (err) reject(new AmuxError('operation_failed', `cannot make the stdin FIFO of job ${jobId}: ${String(stderr).trim() || err.message}`));
        else resolve();
      });
    });
    let fd: number;
    try {
      fd = openSync(path, constants.O_RDWR | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    } catch (err) {
      rmSync(path, { force: true });
      throw err;
    }
    if (!fstatSync(fd).isFIFO()) {
      closeSync(fd);
      throw new AmuxError('operation_failed', `${path} is not the FIFO amux made for job ${jobId}'s stdin`);
    }
    const socket = new Socket({ fd, readable: false, writable: true });
    let markStarted!: () => void;
    const started = new Promise<void>((resolve) => {
      markStarted = resolve;
    });
    this.pipes.set(jobId, { path, socket, started, markStarted, taken: false, onClose: [] });
    // Nothing reads what the daemon writes but the job: a failed write only ends its stdin.
    socket.on('error', () => this.close(jobId));
    return path;
  }

  /** The shell started the job, so it holds the read end: the FIFO's name is no longer needed. */
  started(jobId: string): void {
    const p = this.pipes.get(jobId);
    if (!p) return;
    rmSync(p.path, { force: true });
    p.markStarted();
  }

  /** Closes the job's stdin (EOF once the job has read what is in the pipe), if open. */
  close(jobId: string): void {
    const p = this.pipes.get(jobId);
    if (!p) return;
    this.pipes.delete(jobId);
    p.socket.destroy();
    rmSync(p.path, { force: true });
    p.markStarted();
    for (const fn of p.onClose.splice(0)) fn();
  }

  /**
   * The client that held a job's whole run (`exec -i`'s one streamed request) went away: a stdin
   * nobody took yet never will be, so the job gets its EOF (after 0 bytes) and its record says so,
   * as for a body cut short, instead of waiting on its stdin for ever. One being written is left to
   * its own request.
   */
  abandoned(jobId: string): void {
    const p = this.pipes.get(jobId);
    if (!p || p.taken) return;
    p.taken = true;
    recordCut(this.ctx, jobId, 0);
    void p.started.then(() => {
      if (this.pipes.get(jobId) === p) this.close(jobId);
    });
  }

  /**
   * Pipes `source` (a request body) into the stdin of job `j`, at the pace the job reads it, then
   * closes it: at the end of the body (EOF for the job, once the shell holds the read end), when the
   * source fails or its client goes away (EOF too), or when the job ends (the rest is not taken).
   */
  pump(j: JobRecord, source: Readable): Promise<StdinAnswer> {
    const p = this.take(j);
    return new Promise<StdinAnswer>((resolve) => {
      let bytes = 0;
      let settled = false;
      const resume = () => source.resume();
      const finish = (eof: boolean) => {
        if (settled) return;
        settled = true;
        source.off('data', onData).off('end', onEnd).off('close', onGone).off('error', onGone);
        p.socket.off('drain', resume);
        source.resume(); // what is left of the body is read and dropped
        resolve({ bytes, eof });
      };
      const onData = (chunk: Buffer) => {
        bytes += chunk.length;
        if (!p.socket.write(chunk)) {
          source.pause();
          p.socket.once('drain', resume);
        }
      };
      const onEnd = () => {
        // Every byte handed to the pipe first, and never before the shell holds the read end
        // (closing the only other end before that would drop what the pipe holds).
        p.socket.write(Buffer.alloc(0), () => {
          void p.started.then(() => {
            const open = this.pipes.get(j.id) === p;
            finish(open);
            this.close(j.id);
          });
        });
      };
      const onGone = () => {
        if (source.readableEnded || settled) return;
        finish(false);
        recordCut(this.ctx, j.id, bytes);
        // What came is the job's, as at the end of a body: handed over first, then the EOF.
        p.socket.write(Buffer.alloc(0), () => {
          void p.started.then(() => {
            if (this.pipes.get(j.id) === p) this.close(j.id);
          });
        });
      };
      p.onClose.push(() => finish(false));
      source.on('data', onData).on('end', onEnd).on('close', onGone).on('error', onGone);
    });
  }

  /** The stdin of a running job that has one and no writer yet; a clear refusal otherwise. */
  private take(j: JobRecord): Pipe {
    if (j.status !== 'running') throw new AmuxError('invalid_state', `job ${j.id} has ended (${j.status}); it has no stdin to write`);
    const p = this.pipes.get(j.id);
    if (!p) {
      throw new AmuxError('invalid_state', `job ${j.id} has no open stdin: it was started without stdin ('amux exec -i', "stdin": true), or its stdin has ended`);
    }
    if (p.taken) throw new AmuxError('invalid_state', `the stdin of job ${j.id} is already being written by another request`);
    p.taken = true;
    return p;
  }
}

/**
 * A body that stopped before its end while the job ran (its client went away, or a second Ctrl-C
 * left the job): the job has its EOF like any other, and its record says so (ADR 0017): an
 * `error` event now, and the job's `error`, kept at its end (state.ts `finish`).
 */
function recordCut(ctx: DaemonContext, id: string, bytes: number): void {
  const j = ctx.store.getJob(id);
  if (j?.status !== 'running') return;
  const message = `stdin cut after ${bytes} bytes: its client went away before the end of its stdin`;
  ctx.store.tx(() => {
    ctx.store.updateJob(id, { error: message });
    ctx.store.addEvent({ sessionId: j.sessionId, jobId: id, type: 'error', data: { message, stdinBytes: bytes }, createdAt: Date.now() });
  });
  ctx.bus.emit('change', j.sessionId);
}
