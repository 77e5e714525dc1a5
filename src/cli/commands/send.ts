import { AmuxError } from '../../errors.js';
import type { Client } from '../../client/client.js';

/** `amux send`: type text (and Enter) into the session, or tmux key names with --keys. */
export async function sendCommand(client: Client, ref: string, words: string[], opts: { enter?: boolean; keys?: boolean }): Promise<number> {
  if (words.length === 0) throw new AmuxError('usage', 'nothing to send: amux send ID TEXT… (or --keys KEY…)');
  const body = opts.keys ? { keys: words, enter: false } : { text: words.join(' '), enter: opts.enter !== false };
  await client.sessions.send(ref, body);
  return 0;
}
