import { StringDecoder } from 'node:string_decoder';
import type { Client } from '../../client/client.js';
import { PlainRenderer, renderPlain } from '../../core/log-render.js';
import { readBody } from '../../client/http.js';
import type { SessionView } from '../../protocol/sessions.js';
import { current, nextOfChain } from './chain.js';
import { LinePrefixer } from './prefix.js';

export type Sink = (text: string) => Promise<void>;

/**
 * Prints a service's output as plain text, each line prefixed, until it has ended for good: through
 * its restarts (the next session of its chain), until it is removed or `stopped()` says so.
 */
export async function followService(client: Client, first: SessionView, prefix: string, sink: Sink, stopped: () => boolean): Promise<SessionView> {
  let s = first;
  for (;;) {
    const lines = new LinePrefixer(prefix);
    const decoder = new StringDecoder('utf8');
    const renderer = new PlainRenderer();
    try {
      const res = await client.sessions.logs(s.id, { follow: true });
      for await (const chunk of res) {
        const out = lines.push(renderer.push(decoder.write(chunk as Buffer)));
        if (out) await sink(out);
        if (stopped()) break;
      }
    } catch {
      // The session was removed (down) or the daemon went away: nothing more to print.
    }
    const tail = lines.push(renderer.push(decoder.end()) + renderer.end()) + lines.end();
    if (tail) await sink(tail);
    if (stopped()) return s;
    const now = await current(client, s.id);
    const next = now && !now.removed ? await nextOfChain(client, now) : null;
    if (!next || stopped()) return now ?? s;
    await sink(`${prefix}(restarted: ${next.id})\n`);
    s = next;
  }
}

/** A service's output so far as plain text, each line prefixed (`logs --stack` without -f). */
export async function printService(client: Client, s: SessionView, prefix: string, sink: Sink): Promise<void> {
  const text = renderPlain((await readBody(await client.sessions.logs(s.id))).toString('utf8'));
  const lines = new LinePrefixer(prefix);
  await sink(lines.push(text) + lines.end());
}
