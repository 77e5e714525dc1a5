import type { Client } from '../../client/client.js';
import { EXIT } from '../../errors.js';
import { stackOf } from '../stack/load.js';
import { STACK_LABEL } from '../stack/spec.js';
import { stopSessions } from '../stack/stop.js';

export interface DownOptions {
  file?: string;
  project?: string;
}

/** `amux down` (src/guides/stacks.md): stops and removes every session of the stack, dependents first (ADR 0036). */
export async function downCommand(client: Client, opts: DownOptions): Promise<number> {
  const name = stackOf(process.cwd(), opts.file, opts.project);
  const sessions = await client.sessions.list({ label: [`${STACK_LABEL}=${name}`] });
  if (sessions.length === 0) {
    process.stderr.write(`down: stack ${name} has no sessions\n`);
    return EXIT.ok;
  }
  await stopSessions(client, sessions, (s) => process.stderr.write(`down: ${s.labels.service ?? s.name} removed (${s.name} ${s.id})\n`));
  return EXIT.ok;
}
