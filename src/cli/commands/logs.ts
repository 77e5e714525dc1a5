import { isUtf8 } from 'node:buffer';
import { parseJobId } from '../../core/ids.js';
import { renderPlain, tailLines } from '../../core/log-render.js';
import { plainPieces } from '../follow.js';
import { AmuxError, EXIT } from '../../errors.js';
import { isTerminal } from '../../core/status.js';
import type { Client } from '../../client/client.js';
import { printJson, writeOut } from '../output.js';
import { readBody } from '../../client/http.js';
import { FRAME, FrameParser } from '../../protocol/frames.js';
import type { JobView } from '../../protocol/jobs.js';
import { pageInfo, type LogsQuery } from '../../protocol/logs.js';

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
  /** Output written since / until this time (ISO, epoch ms, or a duration before now). */
  since?: string;
  until?: string;
  /** `-t`: each line with the time by which it was written. */
  timestamps?: boolean;
}

/** `amux logs`: plain text by default, exact bytes with --raw, the visible pane with --screen. */
export async function logsCommand(client: Client, ref: string, opts: LogsOptions): Promise<number> {
  const job = parseJobId(ref);
  const target = job ? job.sessionId : ref;
  if ((opts.stdout || opts.stderr) && !job) throw new AmuxError('usage', `--stdout and --stderr are for job ids (job-<id>-<n>); '${ref}' is a session`);
  if (job && !opts.screen) {
    const view = await client.jobs.get(ref);
    if (!view.tty) return jobLogs(client, view, opts);
    if (opts.stdout || opts.stderr) throw new AmuxError('usage', `job ${view.id} ran on the terminal (--tty), so its stdout and stderr are one stream: drop --stdout/--stderr`);
  }
  if (opts.screen) return screenLogs(client, target, opts);
  if (opts.timestamps) return stampedLogs(client, target, job !== null, opts);
  if (!job && plainWhole(opts) && !/^[0-9a-f]{8}$/i.test(ref)) {
    // A name that restarted reads as all its runs (src/guides/sessions.md "Restart, labels, groups"); an id is one run.
    const { session } = await client.sessions.inspect(target);
    // -f of a name whose policy may restart it follows into the next run too.
    if (session.name === ref && (session.restartOf !== null || (opts.follow && session.restartPolicy !== null))) {
      return (require('./logs-runs.js') as typeof import('./logs-runs.js')).logsOfRuns(client, session, opts.follow === true);
    }
  }
  const q: LogsQuery = { sinceOffset: opts.sinceOffset, limit: opts.limit, job: job?.seq, since: opts.since, until: opts.until };

  if (!opts.follow || opts.tail !== undefined || opts.json) {
    const res = await client.sessions.logs(target, q);
    const data = await readBody(res);
    const page = pageInfo(res.headers);
    if (opts.json) {
      printJson({ offset: page.offset, nextOffset: page.nextOffset, more: page.more, truncated: page.truncated, ...jsonData(data, opts.raw) });
      return 0;
    }
    let out: string | Buffer = opts.raw ? data : renderPlain(data.toString('utf8'));
    if (opts.tail !== undefined) out = tailLines(out.toString(opts.raw ? 'latin1' : 'utf8'), opts.tail);
    await writeOut(typeof out === 'string' && opts.raw ? Buffer.from(out, 'latin1') : out);
    if (!opts.follow) return 0;
    q.sinceOffset = page.nextOffset;
  }

  const res = await client.sessions.logs(target, { ...q, follow: true });
  if (opts.raw) for await (const chunk of res) await writeOut(chunk);
  else for await (const text of plainPieces(res)) await writeOut(text);
  return job ? jobFollowEnded(client, `job-${job.sessionId}-${job.seq}`) : followEnded(client, target);
}

/** The whole plain output, maybe followed: what `logs NAME` shows across runs. */
function plainWhole(opts: LogsOptions): boolean {
  return !opts.raw && !opts.json && opts.tail === undefined && opts.sinceOffset === undefined && opts.limit === undefined && opts.since === undefined && opts.until === undefined;
}

/**
 * A page's bytes in JSON: plain text by default; with --raw the exact bytes, as UTF-8 text when
 * they are valid UTF-8 and as base64 otherwise (binary output; the daemon never splits a character),
 * so that pages put together are byte-exact.
 */
export function jsonData(data: Buffer, raw: boolean | undefined): { encoding: 'utf8' | 'base64'; data: string } {
  if (!raw) return { encoding: 'utf8', data: renderPlain(data.toString('utf8')) };
  return isUtf8(data) ? { encoding: 'utf8', data: data.toString('utf8') } : { encoding: 'base64', data: data.toString('base64') };
}

/** A job's follow ends at its end marker; if the job still runs, the daemon went away under us. */
async function jobFollowEnded(client: Client, id: string): Promise<number> {
  const view = await client.jobs.get(id);
  return view.status === 'running' ? daemonLeft('job', id) : 0;
}

/** A follow ends when the session has; if it is still live, the daemon went away under us. */
async function followEnded(client: Client, target: string): Promise<number> {
  const { session } = await client.sessions.inspect(target);
  return session.removed || isTerminal(session.status) ? 0 : daemonLeft('session', session.id);
}

/** The follow of a session or job that still runs ended: the daemon stopped (exit 3). */
function daemonLeft(what: 'session' | 'job', id: string): number {
  process.stderr.write(`amux: the daemon stopped while following ${id}; the ${what} keeps running ('amux logs -f ${id}' to go on)\n`);
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
  const render = (b: Buffer): string | Buffer => {
    const out = opts.raw ? b : renderPlain(b.toString('utf8'));
    return opts.tail !== undefined ? tailLines(out.toString(), opts.tail) : out;
  };
  if (stream && !opts.follow) {
    const res = await client.jobs.output(job.id, { stream, sinceOffset: opts.sinceOffset, limit: opts.limit });
    const data = await readBody(res);
    if (opts.json) {
      const { offset, nextOffset, more, total, truncated } = pageInfo(res.headers);
      printJson({ offset, nextOffset, more, total, truncated, ...jsonData(data, opts.raw) });
      return 0;
    }
    await writeOut(render(data));
    return 0;
  }
  const res = await client.jobs.output(job.id, { stream: stream ?? undefined, follow: opts.follow });
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
    await writeOut(render(Buffer.concat(parts[type]!)), type === FRAME.stdout ? process.stdout : process.stderr);
  }
  return ended ? 0 : daemonLeft('job', job.id);
}

/**
 * `logs --screen`: what the pane shows now; `--raw` keeps its escapes, `-n` its last lines (the empty rows below them not counted), `--json`
 * prints `{screen}`. A screen is not a stream: `-f`, `--since-offset` and `--limit` are refused.
 */
async function screenLogs(client: Client, target: string, opts: LogsOptions): Promise<number> {
  const stream = opts.follow ? '-f' : opts.sinceOffset !== undefined ? '--since-offset' : opts.limit !== undefined ? '--limit' : null;
  if (stream) throw new AmuxError('usage', `${stream} reads the output stream, not the screen: drop --screen, or ${stream}`);
  let { screen } = await client.sessions.screen(target, { escapes: opts.raw });
  if (opts.tail !== undefined) {
    // The pane's empty rows below the last line written are not lines of output.
    const lines = screen.replace(/(\s*\n)+$/, '').split('\n');
    screen = opts.tail === 0 ? '' : `${lines.slice(-opts.tail).join('\n')}\n`;
  }
  if (opts.json) printJson({ screen });
  else await writeOut(screen);
  return 0;
}


/**
 * `logs -t`: each line of plain text after the time by which it was in the log (UTC, to the
 * second: the daemon notes the log's size at most once a second), as `docker logs -t` does. With
 * `-f`, the lines written so far, then each new line stamped as it arrives (`journalctl -f`).
 */
async function stampedLogs(client: Client, target: string, job: boolean, opts: LogsOptions): Promise<number> {
  const other = opts.raw ? '--raw' : opts.json ? '--json' : job ? 'a job id' : opts.sinceOffset !== undefined ? '--since-offset' : opts.limit !== undefined ? '--limit' : null;
  if (other) throw new AmuxError('usage', `-t puts a time before each line of a session's plain text: not with ${other}`);
  if (opts.follow && opts.until !== undefined) throw new AmuxError('usage', '--until ends the output at a time: not with -f');
  const { lines, nextOffset } = await client.sessions.logLines(target, { since: opts.since, until: opts.until });
  // Followed, the line still being written is printed once it ends, with the time it did.
  const done = opts.follow ? lines.filter((l) => !l.open) : lines;
  const shown = opts.tail === undefined ? done : opts.tail === 0 ? [] : done.slice(-opts.tail);
  // Followed, a line no mark reaches yet was written within the last second: now is its time.
  const now = opts.follow ? new Date().toISOString() : null;
  await writeOut(shown.map((l) => stamped(l.at ?? now, l.text)).join(''));
  if (!opts.follow) return 0;
  const res = await client.sessions.logs(target, { sinceOffset: nextOffset, follow: true });
  let partial = '';
  const push = async (text: string, end: boolean) => {
    const parts = (partial + text).split('\n');
    partial = parts.pop()!;
    if (end && partial) parts.push(partial);
    const at = new Date().toISOString();
    if (parts.length) await writeOut(parts.map((t) => stamped(at, t)).join(''));
  };
  for await (const text of plainPieces(res)) await push(text, false);
  await push('', true);
  return followEnded(client, target);
}

/** One stamped line: the time to the second, or dashes where no mark reaches it. */
function stamped(at: string | null, text: string): string {
  return `${at === null ? '-'.repeat(20) : at.replace(/\.\d{3}Z$/, 'Z')} ${text}\n`;
}
