import type { Stream } from '../client/client.js';
import { CrlfToLf } from '../core/log-render.js';
import type { InterruptForwarder } from './interrupt.js';

/**
 * Copies a followed terminal stream (`run -w`, `exec --tty`) to `sink` until it ends, CRLF turned
 * into LF when `toLf` (the reader is not a terminal). A second Ctrl-C leaves it: then the answer is
 * false, and an error of the broken stream is not one.
 */
export async function pipeFollowed(res: Stream, sigint: InterruptForwarder, toLf: boolean, sink: (data: Buffer) => Promise<void>): Promise<boolean> {
  const crlf = toLf ? new CrlfToLf() : null;
  try {
    for await (const chunk of res) {
      const data = crlf ? crlf.push(chunk) : chunk;
      if (data.length) await sink(data);
    }
  } catch (err) {
    if (sigint.count < 2) throw err;
  }
  if (sigint.count > 1) return false;
  const tail = crlf?.end();
  if (tail?.length) await sink(tail);
  return true;
}
