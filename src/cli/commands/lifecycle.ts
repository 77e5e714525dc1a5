import type { Client } from '../../client/client.js';
import { printJson, writeOut } from '../output.js';
import { forEach } from './kill-rm.js';
import type { Router } from '../refs.js';

/** `amux pause` / `amux resume`: SIGSTOP / SIGCONT every process of each session. */
export function pauseCommand(router: Router, refs: string[], action: 'pause' | 'resume'): Promise<number> {
  return forEach(router, refs, (client, ref) => client.sessions[action](ref));
}

/** `amux prune`: remove finished sessions that ended at least `--older-than` ago; prints their ids. */
export async function pruneCommand(client: Client, opts: { olderThan?: number; json?: boolean }): Promise<number> {
  const { removed } = await client.prune({ olderThanMs: opts.olderThan ?? 0 });
  if (opts.json) printJson(removed);
  else await writeOut(removed.map((s) => `${s.id}\n`).join(''));
  return 0;
}
