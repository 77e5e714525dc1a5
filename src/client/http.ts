import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { AmuxError, isErrorCode } from '../errors.js';
import { setLongTimeout } from '../core/long-timeout.js';
import { DEADLINE_HEADER } from '../protocol/routes.js';

/**
 * A minimal HTTP/1.1 client over the daemon's Unix socket. `node:http` costs ~7 ms to load,
 * a fifth of `amux ps`'s whole budget (scripts/PERFORMANCE.md, ADR 0008); the daemon's answers are simple: a
 * `content-length` body, or a stream that ends when the daemon closes the connection.
 */
export class DaemonDownError extends Error {}

/** No answer came within the request's deadline (the daemon is stopped, hung or swamped). */
export class NoAnswerError extends Error {}

/** The daemon is not there (no socket, or a stale one). */
export function isNotRunning(err: unknown): boolean {
  return err instanceof DaemonDownError;
}

/** The daemon's socket belongs to someone else (its home is not ours). */
export class PermissionDeniedError extends AmuxError {}

export function isPermissionDenied(err: unknown): boolean {
  return err instanceof PermissionDeniedError;
}

const CONNECT_ERRORS = new Set(['ENOENT', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE']);

/**
 * Where a request goes: a byte stream to one daemon. The local daemon's Unix socket (a path), or
 * anything else that carries the same HTTP, such as `ssh … amux daemon dial-stdio` (ADR 0024).
 * `open` may be written to at once; an error it emits as an AmuxError is passed on as it is.
 */
export interface Dialer {
  open(): Duplex;
}

function dial(target: string | Dialer): Duplex {
  return typeof target === 'string' ? connect(target) : target.open();
}

/** A response whose body is read as an async iterable of chunks. */
export class Response implements AsyncIterable<Buffer> {
  constructor(
    readonly status: number,
    /** Header names in lower case. */
    readonly headers: Record<string, string>,
    private readonly socket: Duplex,
    private readonly first: Buffer,
  ) {}

  async *[Symbol.asyncIterator](): AsyncIterator<Buffer> {
    const length = this.headers['content-length'];
    let left = length === undefined ? Infinity : Number(length);
    if (this.first.length) {
      const part = this.first.subarray(0, Math.min(this.first.length, left));
      left -= part.length;
      yield part;
    }
    if (left <= 0) return this.destroy();
    for await (const chunk of this.socket) {
      const part = (chunk as Buffer).subarray(0, Math.min((chunk as Buffer).length, left));
      left -= part.length;
      if (part.length) yield part;
      if (left <= 0) break;
    }
    this.destroy();
  }

  destroy(): void {
    this.socket.destroy();
  }

  /**
   * The body of a request sent with `upload` (chunked), written from `source` at the pace the
   * daemon takes it, then ended. Resolves when `source` has ended and its last byte is written, or
   * as soon as the connection closes or `signal` aborts (the rest of `source` is not read then).
   */
  upload(source: NodeJS.ReadableStream, signal?: AbortSignal): Promise<void> {
    const socket = this.socket;
    return new Promise<void>((resolve) => {
      let done = false;
      const resume = () => source.resume();
      const finish = () => {
        if (done) return;
        done = true;
        source.off('data', onData).off('end', onEnd).off('error', finish);
        socket.off('drain', resume).off('close', finish);
        signal?.removeEventListener('abort', finish);
        source.pause();
        resolve();
      };
      const onData = (chunk: Buffer | string) => {
        const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        if (data.length === 0 || socket.destroyed) return;
        // One chunk of HTTP/1.1 chunked encoding: size in hex, CRLF, the bytes, CRLF.
        socket.write(`${data.length.toString(16)}\r\n`, 'latin1');
        socket.write(data);
        if (!socket.write('\r\n', 'latin1')) {
          source.pause();
          socket.once('drain', resume);
        }
      };
      const onEnd = () => {
        if (!socket.destroyed) socket.write('0\r\n\r\n', 'latin1', finish);
        else finish();
      };
      if (signal?.aborted) return finish();
      signal?.addEventListener('abort', finish);
      socket.on('close', finish);
      source.on('data', onData).on('end', onEnd).on('error', finish);
      source.resume();
    });
  }
}

/** Parses `HTTP/1.1 200 OK\r\nName: value…` (no body). */
export function parseHead(head: string): { status: number; headers: Record<string, string> } {
  const lines = head.split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
  if (!m) throw new AmuxError('daemon_unreachable', `unexpected answer from the daemon: ${JSON.stringify((lines[0] ?? '').slice(0, 60))}`);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(m[1]), headers };
}

/**
 * Sends one request; resolves once the response head has arrived, or fails after `deadlineMs` without it.
 * With `upload`, the request says its body is chunked and sends none yet: the caller writes it with
 * `Response.upload` once the head has come (an error answer comes before any byte is sent).
 */
export function send(target: string | Dialer, method: string, path: string, body?: unknown, deadlineMs?: number, upload = false): Promise<Response> {
  // Only to the local daemon, whose clock is ours (ADR 0030); a remote one sees the connection close.
  const until = deadlineMs !== undefined && typeof target === 'string' ? Date.now() + deadlineMs : null;
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? null : Buffer.from(JSON.stringify(body));
    const socket = dial(target);
    const socketPath = typeof target === 'string' ? target : 'the daemon';
    let head: Buffer = Buffer.alloc(0);
    let settled = false;
    // An answer that is already in the socket when the deadline comes wins (read in this turn's
    // poll phase, before the check phase gives up): the daemon answers just before it (ADR 0055).
    const giveUp = () => setImmediate(() => fail(new NoAnswerError(`no answer within ${deadlineMs} ms`)));
    const cancel = deadlineMs === undefined ? null : setLongTimeout(giveUp, deadlineMs);
    const fail = (err: Error) => {
      cancel?.();
      if (settled) return;
      settled = true;
      socket.destroy();
      reject(err);
    };
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err instanceof AmuxError) fail(err);
      else if (err.code && CONNECT_ERRORS.has(err.code)) fail(new DaemonDownError(err.message));
      else if (err.code === 'EACCES') fail(new PermissionDeniedError('daemon_unreachable', `permission denied on ${socketPath}; it belongs to another user`));
      else fail(new AmuxError('daemon_unreachable', `cannot reach the daemon at ${socketPath}: ${err.message}`, { cause: err }));
    });
    {
      // Written at once: a socket keeps it until it has connected.
      const lines = [`${method} ${path} HTTP/1.1`, 'Host: amux', 'Connection: close'];
      if (until !== null) lines.push(`${DEADLINE_HEADER}: ${until}`);
      if (payload) lines.push('Content-Type: application/json', `Content-Length: ${payload.length}`);
      else if (upload) lines.push('Content-Type: application/octet-stream', 'Transfer-Encoding: chunked');
      const headText = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
      socket.write(payload ? Buffer.concat([headText, payload]) : headText);
    }
    const onData = (chunk: Buffer) => {
      head = head.length ? Buffer.concat([head, chunk]) : chunk;
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      socket.pause();
      try {
        const { status, headers } = parseHead(head.subarray(0, end).toString('latin1'));
        if (headers['transfer-encoding'] === 'chunked') throw new AmuxError('daemon_unreachable', 'the daemon answered with chunked encoding, which this client does not read');
        settled = true;
        cancel?.();
        resolve(new Response(status, headers, socket, head.subarray(end + 4)));
      } catch (err) {
        fail(err as Error);
      }
    };
    socket.on('data', onData);
    socket.on('end', () => fail(new DaemonDownError('the daemon closed the connection without an answer')));
  });
}

export async function readBody(res: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c);
  return Buffer.concat(chunks);
}

/** Turns an error response into the AmuxError it carries. */
export async function errorFrom(res: Response): Promise<AmuxError> {
  const text = (await readBody(res)).toString('utf8');
  try {
    const { error } = JSON.parse(text) as { error: { code: string; message: string } };
    if (isErrorCode(error.code)) return new AmuxError(error.code, error.message);
    return new AmuxError('operation_failed', error.message);
  } catch {
    return new AmuxError('daemon_unreachable', `unexpected answer from the daemon (HTTP ${res.status})`);
  }
}
