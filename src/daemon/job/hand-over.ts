import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sessionPaths } from '../../paths.js';
import { paneTarget, typeJobArgs, wakePromptArgs } from '../../tmux/commands.js';
import { runtimeOf, type DaemonContext } from '../context.js';

/**
 * Hands job `seq` to the shell of session `id` at its prompt (ADR 0031): its number goes to
 * `jobs/go` (written whole, then renamed), and one tmux call presses Enter on the cleared prompt
 * line, so nothing is typed that the pane or the log would show. A shell started by a daemon
 * before this (its rcfile has no `__amux_take`) gets the number typed as before (ADR 0009).
 */
export async function handOver(ctx: DaemonContext, id: string, seq: number): Promise<void> {
  const sp = sessionPaths(ctx.paths, id);
  const rt = runtimeOf(ctx, id);
  rt.readsGo ??= rcfileReadsGo(sp.rcfile);
  if (!rt.readsGo) {
    await ctx.tmux.run(typeJobArgs(paneTarget(id), seq));
    return;
  }
  const go = join(sp.jobsDir, 'go');
  writeFileSync(`${go}.tmp`, `${seq}\n`, { mode: 0o600 });
  renameSync(`${go}.tmp`, go);
  await ctx.tmux.run(wakePromptArgs(paneTarget(id)));
}

function rcfileReadsGo(rcfile: string): boolean {
  try {
    return readFileSync(rcfile, 'utf8').includes('__amux_take');
  } catch {
    return true; // no rcfile left: the session is being removed; either way nothing runs
  }
}
