import type { Client } from '../../client/client.js';
import { printJson } from '../output.js';

/** `amux inspect`: the whole record as JSON (session, jobs, recent events). */
export async function inspectCommand(client: Client, ref: string): Promise<number> {
  printJson(await client.sessions.inspect(ref));
  return 0;
}
