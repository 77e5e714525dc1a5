import { dirname } from 'node:path';
import type { Client } from '../../client/client.js';
import { EXIT } from '../../errors.js';
import { findStackFile, stackName } from '../stack/load.js';
import { STACK_LABEL } from '../stack/spec.js';
import { stopSessions } from '../stack/stop.js';

export interface DownOptions {
  file?: string;
  project?: string;
}

/** `amux down` (README "Stacks"): stops and removes every session of the stack, dependents first (ADR 0036). */
export async function downCommand(client: Client, opts: DownOptions): Promise<number> {
  let name: string;
  if (opts.project !== undefined && opts.file === undefined) name = stackName('', opts.project);
  else {
    // The file's directory names the stack; the file is not read, so that a broken one can still be brought down.
    name = stackName(dirname(findStackFile(process.cwd(), opts.file)), opts.project);
  }
  const sessions = await client.sessions.list({ label: [`${STACK_LABEL}=${name}`] });
  if (sessions.length === 0) {
    process.stderr.write(`down: stack ${name} has no sessions\n`);
    return EXIT.ok;
  }
  await stopSessions(client, sessions, (s) => process.stderr.write(`down: ${s.labels.service ?? s.name} removed (${s.name} ${s.id})\n`));
  return EXIT.ok;
}
