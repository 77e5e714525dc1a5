import { StringDecoder } from 'node:string_decoder';
import { parseJobId } from '../../core/ids.js';
import { PlainRenderer, renderPlain, tailLines } from '../../core/log-render.js';
import { AmuxError, EXIT } from '../../errors.js';
import { isTerminal, type SessionView } from '../../core/types.js';
import type { Client } from '../../client/client.js';
import { printJson, writeOut } from '../output.js';
import { readBody } from '../../client/http.js';
import { FRAME, FrameParser } from '../../core/frames.js';
import type { JobView } from '../../daemon/views.js';

export interface LogsOptions {
  stdout?: boolean;
  stderr?: boolean;
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
  if ((opts.stdout || opts.stderr) && !job) throw new AmuxError('usage', `--stdout and --stderr are for job ids (job-<id>-<n>); '${ref}' is a session`);
  if (job && !opts.screen) {
    const view = await client.json<JobView>('GET', `/v1/jobs/${encodeURIComponent(ref)}`);
    if (!view.tty) return jobLogs(client, view, opts);
    if (opts.stdout || opts.stderr) throw new AmuxError('usage', `job ${view.id} ran on the terminal (--tty), so its stdout and stderr are one stream: drop --stdout/--stderr`);
  }
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
  return job ? jobFollowEnded(client, `job-${job.sessionId}-${job.seq}`) : followEnded(client, target);
}

/** A job's follow ends at its end marker; if the job still runs, the daemon went away under us. */
async function jobFollowEnded(client: Client, id: string): Promise<number> {
  const view = await client.json<JobView>('GET', `/v1/jobs/${id}`);
  if (view.status !== 'running') return 0;
  process.stderr.write(`amux: the daemon stopped while following ${id}; the job keeps running ('amux logs -f ${id}' to go on)\n`);
  return EXIT.daemon;
}

/** A follow ends when the session has; if it is still live, the daemon went away under us. */
async function followEnded(client: Client, target: string): Promise<number> {
  const { session } = await client.json<{ session: SessionView }>('GET', `/v1/sessions/${target}`);
  if (session.removed || isTerminal(session.status)) return 0;
  process.stderr.write(`amux: the daemon stopped while following ${session.id}; the session keeps running ('amux logs -f ${session.id}' to go on)\n`);
  return EXIT.daemon;
}

/**
 * Output of a job whose stdout and stderr were captured: both (stdout to ours, stderr to ours),
 * or one with --stdout/--stderr; paged by absolute offsets within that stream.
 */
async function jobLogs(client: Client, job: JobView, opts: LogsOptions): Promise<number> {
  if (opts.stdout && opts.stderr) throw new AmuxError('usage', 'give --stdout or --stderr, not both (without either, both are printed)');
  const stream = opts.stdout ? 'stdout' : opts.stderr ? 'stderr' : null;
  if (!stream && (opts.sinceOffset !== undefined || opts.limit !== undefined || opts.json)) {
    throw new AmuxError('usage', '--since-offset, --limit and --json page one stream: add --stdout or --stderr');
  }
  const base = `/v1/jobs/${job.id}/output`;
  const render = (b: Buffer): string | Buffer => (opts.raw ? b : renderPlain(b.toString('utf8')));
  if (stream && !opts.follow) {
    const q = new URLSearchParams({ stream });
    if (opts.sinceOffset !== undefined) q.set('sinceOffset', String(opts.sinceOffset));
    if (opts.limit !== undefined) q.set('limit', String(opts.limit));
    const res = await client.raw('GET', `${base}?${q}`);
    const data = await readBody(res);
    if (opts.json) {
      printJson({
        offset: Number(res.headers['x-amux-offset']), nextOffset: Number(res.headers['x-amux-next-offset']),
        total: Number(res.headers['x-amux-total']), truncated: res.headers['x-amux-truncated'] === 'true',
        data: opts.raw ? data.toString('utf8') : renderPlain(data.toString('utf8')),
      });
      return 0;
    }
    const out = render(data);
    await writeOut(opts.tail !== undefined ? tailLines(out.toString(), opts.tail) : out);
    return 0;
  }
  const q = new URLSearchParams();
  if (stream) q.set('stream', stream);
  if (opts.follow) q.set('follow', '1');
  const res = await client.raw('GET', `${base}?${q}`);
  const parser = new FrameParser();
  const parts: Record<number, Buffer[]> = { [FRAME.stdout]: [], [FRAME.stderr]: [] };
  let ended = false;
  for await (const chunk of res) {
    for (const f of parser.push(chunk)) {
      if (f.type === FRAME.end) ended = true;
      if (f.type !== FRAME.stdout && f.type !== FRAME.stderr) continue;
      const sink = f.type === FRAME.stdout ? process.stdout : process.stderr;
      // Followed output is printed as it comes; a finished one whole, so that --tail sees all of it.
      if (opts.follow && opts.tail === undefined) await writeOut(render(f.payload), sink);
      else parts[f.type]!.push(f.payload);
    }
  }
  for (const type of [FRAME.stdout, FRAME.stderr]) {
    if (parts[type]!.length === 0) continue;
    const out = render(Buffer.concat(parts[type]!));
    await writeOut(opts.tail !== undefined ? tailLines(out.toString(), opts.tail) : out, type === FRAME.stdout ? process.stdout : process.stderr);
  }
  if (!ended) {
    process.stderr.write(`amux: the daemon stopped while following ${job.id}; the job keeps running ('amux logs -f ${job.id}' to go on)\n`);
    return EXIT.daemon;
  }
  return 0;
}
