import { formatDuration } from '../../core/duration.js';
import type { Client } from '../../client/client.js';
import type { JobView } from '../../daemon/views.js';
import { formatTable, printJson, writeOut } from '../output.js';

export interface JobsOptions {
  status?: string;
  background?: boolean;
  n?: number;
  json?: boolean;
}

/** `amux jobs ID`: the session's jobs, newest first. */
export async function jobsCommand(client: Client, ref: string, opts: JobsOptions): Promise<number> {
  const q = new URLSearchParams();
  if (opts.status) q.set('status', opts.status);
  if (opts.background) q.set('background', '1');
  if (opts.n !== undefined) q.set('limit', String(opts.n));
  const jobs = await client.json<JobView[]>('GET', `/v1/sessions/${encodeURIComponent(ref)}/jobs?${q}`);
  if (opts.json) {
    printJson(jobs);
    return 0;
  }
  const rows = jobs.map((j) => [
    j.id,
    j.status,
    j.exitCode === null ? '' : String(j.exitCode),
    j.background ? 'bg' : j.tty ? 'tty' : 'fg',
    j.pid === null ? '' : String(j.pid),
    j.durationMs === null ? '' : formatDuration(j.durationMs),
    j.command.replace(/\s*\n\s*/g, ' ↵ '),
  ]);
  await writeOut(formatTable(['JOB', 'STATUS', 'EXIT', 'MODE', 'PID', 'DURATION', 'COMMAND'], rows));
  return 0;
}
