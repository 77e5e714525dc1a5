import type { Stream } from '../client/client.js';
import { StringDecoder } from 'node:string_decoder';
import { CrlfToLf, PlainRenderer } from '../core/log-render.js';
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

/** A followed log stream as plain text, each piece as it comes (`logs -f`, `-f -t`, `logs -f NAME`). */
export async function* plainPieces(res: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  const renderer = new PlainRenderer();
  for await (const chunk of res) {
    const text = renderer.push(decoder.write(chunk));
    if (text) yield text;
  }
  const tail = renderer.push(decoder.end()) + renderer.end();
  if (tail) yield tail;
}
