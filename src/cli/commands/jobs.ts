import { formatDuration } from '../../core/duration.js';
import type { Client } from '../../client/client.js';
import type { JobView } from '../../protocol/jobs.js';
import { formatTable, printJson, writeOut } from '../output.js';
import { visible } from '../../core/visible.js';

export interface JobsOptions {
  status?: string;
  background?: boolean;
  n?: number;
  json?: boolean;
  format?: string;
}

/** The fields of a job for `--format`: every field of `--json`, keyed by JobView so none is forgotten. */
const JOB_FIELD_SET: Record<keyof JobView, true> = {
  id: true, sessionId: true, seq: true, command: true, background: true, status: true, exitCode: true, signal: true, pid: true,
  startedAt: true, endedAt: true, durationMs: true, tty: true, timeoutMs: true, error: true, stdoutBytes: true, stderrBytes: true,
  stdoutTruncated: true, stderrTruncated: true,
};
export const JOB_FIELDS = Object.keys(JOB_FIELD_SET) as readonly (keyof JobView)[];

/** `amux jobs ID`: the session's jobs, newest first. */
export async function jobsCommand(client: Client, ref: string, opts: JobsOptions): Promise<number> {
  const jobs = await client.jobs.list(ref, { status: opts.status, background: opts.background, limit: opts.n });
  if (opts.json) {
    printJson(jobs);
    return 0;
  }
  if (opts.format !== undefined) {
    await (require('../format.js') as typeof import('../format.js')).printFormatted(opts.format, jobs, JOB_FIELDS);
    return 0;
  }
  await writeOut(formatTable(JOB_HEAD, jobRows(jobs)));
  return 0;
}

export const JOB_HEAD = ['JOB', 'STATUS', 'EXIT', 'MODE', 'PID', 'DURATION', 'COMMAND'];

/** The rows of `amux jobs` (and of `inspect` on a terminal). */
export function jobRows(jobs: readonly JobView[]): string[][] {
  return jobs.map((j) => [
    j.id,
    j.status,
    j.exitCode === null ? '' : String(j.exitCode),
    j.background ? 'bg' : j.tty ? 'tty' : 'fg',
    j.pid === null ? '' : String(j.pid),
    j.durationMs === null ? '' : formatDuration(j.durationMs),
    visible(j.command.replace(/\s*\n\s*/g, ' ↵ ')),
  ]);
}
