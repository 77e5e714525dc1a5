import { toAmuxError } from '../../errors.js';
import type { Client } from '../../client/client.js';
import { writeOut } from '../output.js';
import { Router } from '../refs.js';

/**
 * Applies `op` to every reference, each on its host (`HOST:ID`, src/guides/remote.md); prints the
 * ids done (qualified as they were named), one error line per failure, exit 1 if any failed.
 */
export async function forEach(router: Router, refs: string[], op: (client: Client, ref: string) => Promise<{ id: string }>): Promise<number> {
  const results = await Promise.allSettled(refs.map(async (ref) => {
    const r = router.route(ref);
    return Router.show(r.host, (await op(r.client, r.ref)).id);
  }));
  let code = 0;
  for (const [i, r] of results.entries()) {
    if (r.status === 'fulfilled') await writeOut(`${r.value}\n`);
    else {
      const e = toAmuxError(r.reason);
      process.stderr.write(`amux: ${refs[i]}: ${e.message}\n`);
      code = Math.max(code, e.exitCode);
    }
  }
  return code;
}

/** `amux kill`: signal, grace, SIGKILL, close; a finished session is a no-op. */
export function killCommand(router: Router, refs: string[], opts: { signal: string; grace?: number }): Promise<number> {
  return forEach(router, refs, (client, ref) =>
    // A job id answers with the job (its id), a session reference with the session.
    client.sessions.kill(ref, { signal: opts.signal, graceMs: opts.grace }));
}

/** `amux rm`: remove finished sessions (`-f`: kill live ones first). */
export function rmCommand(router: Router, refs: string[], opts: { force?: boolean; grace?: number }): Promise<number> {
  return forEach(router, refs, (client, ref) => client.sessions.remove(ref, { force: opts.force, graceMs: opts.grace }));
}

