import { StringDecoder } from 'node:string_decoder';
import { parseJobId } from '../../core/ids.js';
import { PlainRenderer, renderPlain, tailLines } from '../../core/log-render.js';
import { AmuxError, EXIT } from '../../errors.js';
import { isTerminal, type SessionView } from '../../core/types.js';
import type { Client } from '../../client/client.js';
import { printJson, writeOut } from '../output.js';
import { readBody } from '../../client/http.js';

export interface LogsOptions {
  follow?: boolean;
  tail?: number;
  raw?: boolean;
  screen?: boolean;
  sinceOffset?: number;
  limit?: number;
  json?: boolean;
}

/** `amux logs`: plain text by default, exact bytes with --raw, the visible pane with --screen. */
export async function logsCommand(client: Client, ref: string, opts: LogsOptions): Promise<number> {
  const job = parseJobId(ref);
  const target = encodeURIComponent(job ? job.sessionId : ref);
  if (job && job.seq !== 1) throw new AmuxError('job_not_found', `no such job: ${ref}`);
  if (opts.screen) {
    const { screen } = await client.json<{ screen: string }>('GET', `/v1/sessions/${target}/screen${opts.raw ? '?escapes=1' : ''}`);
    await writeOut(screen);
    return 0;
  }
  const q = new URLSearchParams();
  if (opts.sinceOffset !== undefined) q.set('sinceOffset', String(opts.sinceOffset));
  if (opts.limit !== undefined) q.set('limit', String(opts.limit));
  if (job) q.set('job', String(job.seq));
  const base = `/v1/sessions/${target}/logs`;

  if (!opts.follow || opts.tail !== undefined || opts.json) {
    const res = await client.raw('GET', `${base}?${q}`);
    const data = await readBody(res);
    const next = Number(res.headers['x-amux-next-offset']);
    if (opts.json) {
      printJson({
        offset: Number(res.headers['x-amux-offset']), nextOffset: next, truncated: res.headers['x-amux-truncated'] === 'true',
        data: opts.raw ? data.toString('utf8') : renderPlain(data.toString('utf8')),
      });
      return 0;
    }
    let out: string | Buffer = opts.raw ? data : renderPlain(data.toString('utf8'));
    if (opts.tail !== undefined) out = tailLines(out.toString(opts.raw ? 'latin1' : 'utf8'), opts.tail);
    await writeOut(typeof out === 'string' && opts.raw ? Buffer.from(out, 'latin1') : out);
    if (!opts.follow) return 0;
    q.set('sinceOffset', String(next));
  }

  q.set('follow', '1');
  const res = await client.raw('GET', `${base}?${q}`);
  const decoder = new StringDecoder('utf8');
  const renderer = new PlainRenderer();
  for await (const chunk of res) {
    if (opts.raw) await writeOut(chunk);
    else {
      const text = renderer.push(decoder.write(chunk));
      if (text) await writeOut(text);
    }
  }
  if (!opts.raw) await writeOut(renderer.push(decoder.end()) + renderer.end());
  return followEnded(client, target);
}

/** A follow ends when the session has; if it is still live, the daemon went away under us. */
async function followEnded(client: Client, target: string): Promise<number> {
  const { session } = await client.json<{ session: SessionView }>('GET', `/v1/sessions/${target}`);
  if (session.removed || isTerminal(session.status)) return 0;
  process.stderr.write(`amux: the daemon stopped while following ${session.id}; the session keeps running ('amux logs -f ${session.id}' to go on)\n`);
  return EXIT.daemon;
}
