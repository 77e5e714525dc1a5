import type { SessionRecord } from '../../core/records.js';
import { isAlive } from '../../process/process-table.js';
import { listPanesArgs, parsePanes, tmuxSessionName, type PaneInfo } from '../../tmux/commands.js';
import { runtimeOf, type DaemonContext } from '../context.js';

/** The oldest a listing of the panes may be for a refresh to stand on it (ADR 0043). */
const LIST_MAX_MS = 10_000;

/** The panes as tmux lists them, asked for only when something they show can have changed (ADR 0043). */
export class PaneListing {
  /** When the last `tmux list-panes` was asked for. */
  private listedAt = 0;

  constructor(private readonly ctx: DaemonContext) {}

  /**
   * The panes of the live sessions, by tmux session name, and whether they stood (no tmux call):
   * from one `tmux list-panes`, or as the last listing showed them when nothing it shows can have
   * changed since: no log grew (a program's output reaches the log through pipe-pane, so its cursor
   * and scrollback stand still), every pane's process lives (a pane dies with it), every session was
   * listed and has its baseline screen, and that listing is younger than LIST_MAX_MS (what only tmux
   * knows: a session killed in tmux whose process ignored the hangup, a resize). `fresh`: list
   * anyway. `quiet`: whether none of a session's processes has run since its settled look
   * (ADR 0044): their shell lives (a process runs to exit), and so does its pane's process, which
   * waits on it, but for that process killed by itself, which the listing every LIST_MAX_MS finds.
   */
  async panesOf(live: readonly SessionRecord[], sizes: Map<string, number>, fresh: boolean, quiet: (s: SessionRecord) => boolean): Promise<{ panes: Map<string, PaneInfo>; stood: boolean }> {
    const { ctx } = this;
    const stands = !fresh && Date.now() - this.listedAt < LIST_MAX_MS
      && live.every((s) => {
        const rt = runtimeOf(ctx, s.id);
        return rt.pane !== undefined && !rt.pane.dead && rt.screenHash !== undefined && rt.logEnd === sizes.get(s.id);
      })
      // Only then the processes: whether they ran, or else whether the pane's process lives.
      && live.every((s) => quiet(s) || isAlive(runtimeOf(ctx, s.id).pane!.panePid));
    if (stands) return { panes: new Map(live.map((s) => [tmuxSessionName(s.id), runtimeOf(ctx, s.id).pane!])), stood: true };
    const listedAt = Date.now();
    const panes = new Map(parsePanes(await ctx.tmux.runIfServer(listPanesArgs())).map((p) => [p.sessionName, p]));
    for (const s of live) runtimeOf(ctx, s.id).pane = panes.get(tmuxSessionName(s.id));
    this.listedAt = listedAt;
    return { panes, stood: false };
  }
}
