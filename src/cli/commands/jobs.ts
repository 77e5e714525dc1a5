import { formatDuration } from '../../core/duration.js';
import type { Client } from '../../client/client.js';
import { formatTable, printJson, writeOut } from '../output.js';

export interface JobsOptions {
  status?: string;
  background?: boolean;
  n?: number;
  json?: boolean;
}

/** `amux jobs ID`: the session's jobs, newest first. */
export async function jobsCommand(client: Client, ref: string, opts: JobsOptions): Promise<number> {
  const jobs = await client.jobs.list(ref, { status: opts.status, background: opts.background, limit: opts.n });
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
