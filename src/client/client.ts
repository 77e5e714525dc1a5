import { AmuxError } from '../errors.js';
import { amuxPaths, MAX_SOCKET_PATH, type AmuxPaths } from '../paths.js';
import { errorFrom, isNotRunning, readBody, send, type Response } from './http.js';

/** The CLI's only way to the daemon: its HTTP API, starting the daemon when it is not running. */
export class Client {
  readonly paths: AmuxPaths;

  constructor(paths: AmuxPaths = amuxPaths(), private readonly autostart = true) {
    this.paths = paths;
    if (Buffer.byteLength(paths.socket) > MAX_SOCKET_PATH) {
      throw new AmuxError('daemon_unreachable', `AMUX_HOME ${paths.home} is too long for a Unix socket path; use a shorter AMUX_HOME`);
    }
  }

  /** A raw response (2xx), for streams. Errors become AmuxError. */
  async raw(method: string, path: string, body?: unknown): Promise<Response> {
    let res: Response;
    try {
      res = await send(this.paths.socket, method, path, body);
    } catch (err) {
      if (!isNotRunning(err)) throw err;
      if (!this.autostart) throw new AmuxError('daemon_unreachable', `the amux daemon is not running (socket ${this.paths.socket}); start it with 'amux daemon start'`);
      // Loaded only here: it brings child_process, which a running daemon's callers never need.
      const { launchDaemon } = require('./launcher.js') as typeof import('./launcher.js');
      await launchDaemon(this.paths);
      res = await send(this.paths.socket, method, path, body).catch((e) => {
        throw isNotRunning(e) ? new AmuxError('daemon_unreachable', `the amux daemon did not answer after starting; see ${this.paths.daemonLog}`) : e;
      });
    }
    if (res.status >= 400) throw await errorFrom(res);
    return res;
  }

  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.raw(method, path, body);
    const buf = await readBody(res);
    return (buf.length ? JSON.parse(buf.toString('utf8')) : undefined) as T;
  }
}
