import type { SessionRecord } from '../../core/records.js';
import { AmuxError } from '../../errors.js';
import { capturePaneArgs, paneTarget } from '../../tmux/commands.js';
import type { DaemonContext } from '../context.js';

/** What the session's terminal shows now (`amux screen`, `wait --until output:`); escapes kept on request. */
export async function captureScreen(ctx: DaemonContext, s: SessionRecord, escapes = false): Promise<string> {
  if (!s.paneId || s.status === 'pending') throw new AmuxError('invalid_state', `session ${s.id} has no screen yet (${s.status})`);
  try {
    return await ctx.tmux.run(capturePaneArgs(paneTarget(s.id), escapes));
  } catch {
    throw new AmuxError('invalid_state', `session ${s.id}: its tmux session is closed, so there is no screen; use 'amux logs ${s.id}'`);
  }
}
