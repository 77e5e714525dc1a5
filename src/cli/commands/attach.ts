import { spawnSync } from 'node:child_process';
import { AmuxError } from '../../errors.js';
import { sessionRemoved } from '../../core/removed.js';
import type { Client } from '../../client/client.js';
import { attachArgs } from '../../tmux/commands.js';

/** `amux attach`: this terminal joins the session's tmux session (`-r` read-only). */
export async function attachCommand(client: Client, ref: string, opts: { readOnly?: boolean }): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new AmuxError('not_a_tty', `cannot attach to ${ref}: stdin and stdout must be a terminal; use 'amux logs -f' or 'amux send' from scripts`);
  }
  const { session } = await client.sessions.inspect(ref);
  const remote = client.remote;
  if (remote) {
    // On a host, its own amux attaches there, on a terminal ssh gives it (src/guides/remote.md).
    const [cmd, ...args] = remote.attachArgv(session.id, opts.readOnly === true);
    const res = spawnSync(cmd!, args, { stdio: 'inherit' });
    if (res.error) throw new AmuxError('host_unreachable', `${remote.url}: cannot run ssh: ${res.error.message}`);
    return res.status === 255 ? 3 : (res.status ?? 1);
  }
  if (session.removedAt) throw sessionRemoved(session.id, Date.parse(session.removedAt));
  if (session.status === 'pending') throw new AmuxError('invalid_state', `session ${session.id} is pending (waiting for a maxLive slot); attach once it runs (see 'amux ps')`);
  if (session.closedAt) throw new AmuxError('invalid_state', `session ${session.id} finished and its tmux session was closed after finishedTtl; see 'amux logs ${session.id}'`);
  const env = { ...process.env };
  delete env.TMUX;
  const res = spawnSync('tmux', ['-S', client.paths.tmuxSocket, ...attachArgs(session.id, opts.readOnly === true)], { stdio: 'inherit', env });
  if (res.error) throw new AmuxError('tmux_unavailable', `cannot run tmux: ${res.error.message}`);
  if (res.status !== 0) throw new AmuxError('invalid_state', `session ${session.id} (${session.status}) has no tmux session to attach to anymore; see 'amux logs ${session.id}'`);
  return 0;
}
