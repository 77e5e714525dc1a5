import type { Client } from '../../client/client.js';
import { printJson, writeOut } from '../output.js';
import { forEach } from './kill-rm.js';
import type { Router } from '../refs.js';

/** `amux pause` / `amux resume`: SIGSTOP / SIGCONT every process of each session. */
export function pauseCommand(router: Router, refs: string[], action: 'pause' | 'resume'): Promise<number> {
  return forEach(router, refs, (client, ref) => client.sessions[action](ref));
}

/** `amux restart`: each session again as a new one (stopped first when live); prints the new ids (ADR 0033). */
export function restartCommand(router: Router, refs: string[], opts: { grace?: number }): Promise<number> {
  return forEach(router, refs, async (client, ref) => {
    try {
      return await client.sessions.restart(ref, { graceMs: opts.grace });
    } catch (err) {
      // In the directory of a stack, a session's key in the file names it too (src/guides/stacks.md).
      if ((err as { code?: string }).code !== 'session_not_found') throw err;
      const id = await (require('../stack/service-ref.js') as typeof import('../stack/service-ref.js')).serviceSession(client, ref);
      if (id === null) throw err;
      return client.sessions.restart(id, { graceMs: opts.grace });
    }
  });
}

/** `amux rename ID NAME` (`--clear`: no name). */
export async function renameCommand(client: Client, ref: string, name: string | undefined, opts: { clear?: boolean }): Promise<number> {
  if ((name === undefined) === (opts.clear !== true)) {
    const { AmuxError } = require('../../errors.js') as typeof import('../../errors.js');
    throw new AmuxError('usage', name === undefined ? 'rename needs a NAME (or --clear to remove the name)' : 'give a NAME or --clear, not both');
  }
  const s = await client.sessions.rename(ref, { name: name ?? null });
  await writeOut(`${s.id}\n`);
  return 0;
}

/** `amux prune`: remove finished sessions that ended at least `--older-than` ago; prints their ids. */
export async function pruneCommand(client: Client, opts: { olderThan?: number; status?: string; json?: boolean }): Promise<number> {
  const { removed } = await client.prune({ olderThanMs: opts.olderThan ?? 0, ...(opts.status ? { status: opts.status.split(',').filter(Boolean) } : {}) });
  if (opts.json) printJson(removed);
  else await writeOut(removed.map((s) => `${s.id}\n`).join(''));
  return 0;
}
