import { request as httpRequest, type IncomingMessage } from 'node:http';
import { AmuxError, isErrorCode } from '../errors.js';

const CONNECT_ERRORS = new Set(['ENOENT', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE']);

/** The daemon is not there (no socket, or a stale one). */
export function isNotRunning(err: unknown): boolean {
  return err instanceof DaemonDownError;
}

export class DaemonDownError extends Error {}

/** Sends one request to the daemon over its Unix socket; resolves with the raw response. */
export function send(socketPath: string, method: string, path: string, body?: unknown): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = httpRequest({
      socketPath, method, path, agent: false,
      headers: payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {},
    }, resolve);
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code && CONNECT_ERRORS.has(err.code)) reject(new DaemonDownError(err.message));
      else if (err.code === 'EACCES') reject(new AmuxError('daemon_unreachable', `permission denied on ${socketPath}; it belongs to another user`));
      else reject(new AmuxError('daemon_unreachable', `cannot reach the daemon at ${socketPath}: ${err.message}`, { cause: err }));
    });
    req.end(payload);
  });
}

export async function readBody(res: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Turns an error response into the AmuxError it carries. */
export async function errorFrom(res: IncomingMessage): Promise<AmuxError> {
  const text = (await readBody(res)).toString('utf8');
  try {
    const { error } = JSON.parse(text) as { error: { code: string; message: string } };
    if (isErrorCode(error.code)) return new AmuxError(error.code, error.message);
    return new AmuxError('operation_failed', error.message);
  } catch {
    return new AmuxError('daemon_unreachable', `unexpected answer from the daemon (HTTP ${res.statusCode})`);
  }
}
