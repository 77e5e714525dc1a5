import type { Client } from '../../client/client.js';
import { AmuxError, EXIT } from '../../errors.js';
import { useColor, writeOut } from '../output.js';
import { followService, printService } from '../stack/follow.js';
import { prefixes } from '../stack/prefix.js';
import { LEVEL_LABEL, SERVICE_LABEL, STACK_LABEL } from '../stack/spec.js';

export interface StackLogsOptions {
  stack: string;
  follow?: boolean;
}

/**
 * `amux logs --stack NAME` (src/guides/stacks.md): each session's output as plain text, each line
 * prefixed by its session; one session after the other in dependency order, or with -f merged as
 * it comes, until they have all ended.
 */
export async function stackLogsCommand(client: Client, ref: string | undefined, opts: StackLogsOptions): Promise<number> {
  if (ref !== undefined) throw new AmuxError('usage', `give a session id or --stack ${opts.stack}, not both`);
  const sessions = (await client.sessions.list({ label: [`${STACK_LABEL}=${opts.stack}`] }))
    .sort((a, b) => Number(a.labels[LEVEL_LABEL] ?? 0) - Number(b.labels[LEVEL_LABEL] ?? 0) || a.createdAt.localeCompare(b.createdAt));
  if (sessions.length === 0) throw new AmuxError('not_found', `stack ${opts.stack} has no sessions (see amux ps --filter label=stack)`);
  const key = (s: (typeof sessions)[number]) => s.labels[SERVICE_LABEL] ?? s.name ?? s.id;
  const pre = prefixes(sessions.map(key), useColor(process.stdout));
  const sink = (text: string) => writeOut(text);
  if (!opts.follow) {
    for (const s of sessions) await printService(client, s, pre.get(key(s))!, sink);
    return EXIT.ok;
  }
  await Promise.all(sessions.map((s) => followService(client, s, pre.get(key(s))!, sink, () => false)));
  return EXIT.ok;
}
