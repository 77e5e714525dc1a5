import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** A streamed answer: written as the data comes, ended by closing the connection. */
export interface StreamWriter {
  /** Writes; resolves once the socket takes more (a slow reader holds the writer back), or the client has gone. */
  write(data: Buffer | string): Promise<void>;
  /** The client has gone. */
  readonly closed: boolean;
  /** Calls `fn` when the client goes (at once if it has). */
  onClose(fn: () => void): void;
  end(): void;
}

/**
 * Starts a close-delimited answer (logs -f, job frames, events): not chunked, because the CLI's
 * small HTTP client (ADR 0008) reads a body to the end of the connection, as curl does.
 */
export function openStream(res: ServerResponse, headers: OutgoingHttpHeaders): StreamWriter {
  res.useChunkedEncodingByDefault = false;
  res.shouldKeepAlive = false;
  res.writeHead(200, headers);
  // Now, not with the first byte: a client waits for the head (and `run -w` of a quiet command
  // must be able to take Ctrl-C before anything is printed).
  res.flushHeaders();
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  return {
    get closed() {
      return closed;
    },
    async write(data) {
      // A gone client never drains: `closed` is checked before waiting.
      if (closed || res.write(data) || closed) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done).off('close', done);
          resolve();
        };
        res.on('drain', done).on('close', done);
      });
    },
    onClose(fn) {
      if (closed) fn();
      else res.on('close', fn);
    },
    end() {
      res.end();
    },
  };
}
