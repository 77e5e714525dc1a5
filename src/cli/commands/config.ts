import type { Client } from '../../client/client.js';
import { AmuxError } from '../../errors.js';
import { formatTable, printJson, writeOut } from '../output.js';

/** `amux group add|ls|rm` (src/guides/sessions.md "Restart, labels, groups"). */
export async function groupCommand(client: Client, action: string, name: string | undefined, opts: { parallel?: number; json?: boolean }): Promise<number> {
  if (action === 'ls') {
    if (name !== undefined) throw new AmuxError('usage', "'group ls' takes no name");
    const groups = await client.groups();
    if (opts.json) printJson(groups);
    else await writeOut(formatTable(['NAME', 'PARALLEL', 'LIVE', 'PENDING'], groups.map((g) => [g.name, g.parallel === 0 ? 'no limit' : String(g.parallel), String(g.live), String(g.pending)])));
    return 0;
  }
  if (action !== 'add' && action !== 'rm') throw new AmuxError('usage', `unknown group action '${action}': use add, ls or rm`);
  if (name === undefined) throw new AmuxError('usage', `'group ${action}' needs a NAME`);
  if (action === 'rm') {
    if (opts.parallel !== undefined) throw new AmuxError('usage', '--parallel is for group add');
    await client.removeGroup(name);
  } else {
    if (opts.parallel === undefined) throw new AmuxError('usage', `group add needs --parallel N: amux group add ${name} --parallel 2`);
    await client.setGroup({ name, parallel: opts.parallel });
  }
  await writeOut(`${name}\n`);
  return 0;
}

/** `amux config set KEY VALUE` / `unset KEY` (src/guides/configuration.md). */
export async function configCommand(client: Client, action: string, key: string, value: string | undefined): Promise<number> {
  if (action === 'set' && value === undefined) throw new AmuxError('usage', `config set needs a value: amux config set ${key} VALUE`);
  if (action === 'unset' && value !== undefined) throw new AmuxError('usage', 'config unset takes no value');
  if (action !== 'set' && action !== 'unset') throw new AmuxError('usage', `unknown config action '${action}': use set or unset`);
  // A count stays a number in config.json; durations and sizes are text.
  const v = value === undefined ? null : /^\d+$/.test(value) ? Number(value) : value;
  const answer = await client.setConfig({ key, value: v });
  if (answer.overriddenBy) process.stderr.write(`amux: note: ${answer.overriddenBy} is set in the daemon's environment and wins over config.json for ${key}\n`);
  return 0;
}
