import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '../../client/client.js';
import { STACK_FILES, stackName } from './load.js';
import { SERVICE_LABEL, STACK_LABEL } from './spec.js';

/**
 * A session of the stack of the current directory, by its key in the file (`amux restart api` in
 * the directory of an amux.yaml; src/guides/stacks.md): the id of the newest one, or null when there is
 * no stack file here or it has no such session.
 */
export async function serviceSession(client: Client, key: string, cwd = process.cwd()): Promise<string | null> {
  if (!STACK_FILES.some((f) => existsSync(join(cwd, f)))) return null;
  let name: string;
  try {
    name = stackName(cwd);
  } catch {
    return null;
  }
  const [s] = await client.sessions.list({ label: [`${STACK_LABEL}=${name}`, `${SERVICE_LABEL}=${key}`] });
  return s?.id ?? null;
}
