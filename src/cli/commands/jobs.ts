import type { Client } from '../../client/client.js';
import type { JobView } from '../../daemon/views.js';
import { formatTable, printJson, writeOut } from '../output.js';

export interface JobsOptions {
  status?: string;
  background?: boolean;
  n?: number;
  json?: boolean;
}

function formatMs(ms: number | null): string {
  if (ms === null) return '';
  if (ms < 1000) return `${ms}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.floor(ms / 1000);
  return s < 3600 ? `${Math.floor(s / 60)}m${s % 60}s` : `${Math.floor(s / 3600)}h${Math.floor((s % 3600) / 60)}m`;
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
    formatMs(j.durationMs),
    j.command.replace(/\s*\n\s*/g, ' ↵ '),
  ]);
  await writeOut(formatTable(['JOB', 'STATUS', 'EXIT', 'MODE', 'PID', 'DURATION', 'COMMAND'], rows));
  return 0;
}
