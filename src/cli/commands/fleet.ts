import { AmuxError, toAmuxError } from '../../errors.js';
import { amuxPaths } from '../../paths.js';
import type { SessionView } from '../../protocol/sessions.js';
import { contextHost, listContexts, readConfigFile, validContextName } from '../contexts.js';
import { printJson, writeOut } from '../output.js';
import { contextClient } from '../target.js';
import { printSessions, sessionQuery, type PsOptions } from './ps.js';

/**
 * `amux ps --context a,b` / `--all-contexts` (src/guides/remote.md): the hosts are asked at once;
 * one table with a HOST column, newest first per host in the order given. A host that fails (its
 * ssh connect timeout, AMUX_CLIENT_TIMEOUT) is one line on stderr and an entry of `errors`; the
 * others are listed. Exit 1 only when every host failed.
 */
export async function fleetPs(opts: PsOptions): Promise<number> {
  const config = readConfigFile(amuxPaths());
  const names = opts.allContexts
    ? listContexts(config).map((c) => c.name)
    : [...new Set((opts.context ?? '').split(',').map((n) => n.trim()).filter(Boolean))];
  if (names.length === 0) throw new AmuxError('usage', '--context needs one or more context names (comma-separated); see amux context ls');
  for (const n of names) contextHost(config, validContextName(n)); // every name known before any host is asked
  // The same query as a local ps (statuses, filters, -n), asked of each host.
  const query = { ...sessionQuery(opts), limit: opts.last, usage: opts.usage, ...(opts.attention ? { attention: true } : {}) };
  const answers = await Promise.all(names.map(async (host) => {
    try {
      return { host, sessions: await contextClient(host).sessions.list(query) };
    } catch (err) {
      return { host, error: toAmuxError(err) };
    }
  }));
  const sessions: (SessionView & { host: string })[] = [];
  const errors: { host: string; message: string }[] = [];
  for (const a of answers) {
    if (a.error) {
      errors.push({ host: a.host, message: a.error.message });
      process.stderr.write(`amux: ${a.host}: ${a.error.message}\n`);
    } else for (const s of a.sessions!) sessions.push({ host: a.host, ...s });
  }
  if (opts.last !== undefined && sessions.length > opts.last) {
    // -n N: the newest N of all hosts, still listed host by host.
    const keep = new Set([...sessions].sort((x, y) => Date.parse(y.createdAt) - Date.parse(x.createdAt)).slice(0, opts.last));
    sessions.splice(0, sessions.length, ...sessions.filter((s) => keep.has(s)));
  }
  if (opts.json) printJson({ sessions, errors });
  else if (opts.quiet) await writeOut(sessions.map((s) => `${s.host}:${s.id}\n`).join(''));
  else await printSessions(sessions, opts.trunc !== false, undefined, (s) => (s as SessionView & { host: string }).host);
  return errors.length === names.length ? 1 : 0;
}
