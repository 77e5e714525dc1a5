import { AmuxError } from '../../errors.js';
import type { Client } from '../../client/client.js';
import { printJson } from '../output.js';

export interface SendFlags {
  enter?: boolean;
  keys?: boolean;
  when?: string;
  timeout?: number;
  json?: boolean;
}

/**
 * `amux send`: type text (and Enter) into the session, or tmux key names with --keys. `--when idle`
 * holds it until the session is idle, `--when ready` until its program declared ready (124 when
 * `--timeout` ran out first: nothing was typed).
 * `--json` prints the receipt: where the reply starts, and whether the program read the Enter (`submitted`, ADR 0047).
 */
export async function sendCommand(client: Client, ref: string, words: string[], opts: SendFlags): Promise<number> {
  if (words.length === 0) throw new AmuxError('usage', 'nothing to send: amux send ID TEXT… (or --keys KEY…)');
  const when = opts.when ?? 'now';
  if (when !== 'now' && when !== 'idle' && when !== 'ready') throw new AmuxError('usage', `unknown --when '${when}': use idle, ready (or now, the default)`);
  if (opts.timeout !== undefined && when === 'now') throw new AmuxError('usage', '--timeout is for --when idle or ready: how long to hold the input');
  const input = opts.keys ? { keys: words, enter: false } : { text: words.join(' '), enter: opts.enter !== false };
  try {
    const receipt = await client.sessions.send(ref, { ...input, when, timeoutMs: opts.timeout });
    if (opts.json) printJson({ delivered: receipt.delivered, submitted: receipt.submitted, offset: receipt.offset, eventId: receipt.eventId, heldMs: receipt.heldMs, pasted: receipt.pasted, sessionId: receipt.session.id });
    else if (input.enter && receipt.submitted === false) {
      // Typed all the same (exit 0): the program takes the line when it reads its terminal (ADR 0047).
      process.stderr.write(`amux: typed into ${receipt.session.id}, but its program did not read the Enter within 2 s (busy?); it gets the line when it reads\n`);
    }
    return 0;
  } catch (e) {
    if (e instanceof AmuxError && e.code === 'timeout') {
      process.stderr.write(`amux: ${e.message}\n`);
      return 124;
    }
    throw e;
  }
}
