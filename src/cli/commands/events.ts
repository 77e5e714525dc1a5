import type { Client } from '../../client/client.js';
import { AmuxError, EXIT } from '../../errors.js';
import { writeOut } from '../output.js';

export interface EventsOptions {
  follow?: boolean;
  /** Only events since / before these times (a duration before now, ISO, epoch ms). */
  since?: string;
  until?: string;
  /** Only events after this id. */
  after?: number;
}

/**
 * `amux events [ID]`: the event log as NDJSON, oldest first; with -f, then every new event as it
 * is written, until Ctrl-C (exit 0) or, with an ID, until that session has been removed.
 */
export async function eventsCommand(client: Client, ref: string | undefined, opts: EventsOptions): Promise<number> {
  // -f over all sessions shows what happens from now on, as `docker events` does (--since or --after
  // replay first); -f of one session prints its whole life, as `logs -f` prints its output so far.
  const fromNow = opts.follow === true && ref === undefined && opts.since === undefined && opts.after === undefined;
  if (opts.follow && opts.until !== undefined) throw new AmuxError('usage', '--until ends the events at a time: not with -f');
  const res = await client.events.read({ session: ref, since: opts.since, until: opts.until, after: opts.after, follow: opts.follow, new: fromNow });
  let interrupted = false;
  const onInterrupt = () => {
    interrupted = true;
    res.destroy();
  };
  process.on('SIGINT', onInterrupt);
  // Whole lines only, each as soon as it has arrived: a reader of our stdout never sees half an event.
  let partial = '';
  let lastType: string | null = null;
  try {
    for await (const chunk of res) {
      const text = partial + chunk.toString('utf8');
      const end = text.lastIndexOf('\n') + 1;
      partial = text.slice(end);
      if (end === 0) continue;
      const lines = text.slice(0, end);
      lastType = lastEventType(lines);
      await writeOut(lines);
    }
  } catch (err) {
    if (!interrupted) throw err;
  } finally {
    process.off('SIGINT', onInterrupt);
  }
  if (interrupted || !opts.follow) return EXIT.ok;
  return followEnded(client, ref, lastType);
}

function lastEventType(lines: string): string | null {
  const last = lines.slice(lines.lastIndexOf('\n', lines.length - 2) + 1);
  try {
    return (JSON.parse(last) as { type?: string }).type ?? null;
  } catch {
    return null;
  }
}

/** A follow ends on its own only once its session is removed; otherwise the daemon went away under us. */
async function followEnded(client: Client, ref: string | undefined, lastType: string | null): Promise<number> {
  if (ref !== undefined) {
    if (lastType === 'session_removed') return EXIT.ok;
    const { session } = await client.sessions.inspect(ref).catch(() => ({ session: null }));
    if (session?.removed) return EXIT.ok;
  }
  process.stderr.write(`amux: the daemon stopped while following events; run 'amux events${ref === undefined ? '' : ` ${ref}`} -f' to go on\n`);
  return EXIT.daemon;
}
