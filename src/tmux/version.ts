import type { execa as Execa } from 'execa';
import { AmuxError } from '../errors.js';
import { badSetting } from '../core/settings.js';

/**
 * How the daemon's tmux calls use a control-mode client (ADR 0037, ADR 0046, ADR 0067):
 * - `off`: a `tmux` process per call;
 * - `own-server`: a client only on a server it starts itself, as that server's first client and
 *   before any session; on a server it did not start, a process per call. Before tmux 3.7 a control
 *   client that is still identifying when another client, or a session, makes a notification
 *   crashes the server (ADR 0067): this keeps anything else from being there while it identifies;
 * - `any-server`: a client on whichever server a call found (tmux 3.7 has the fixes).
 */
export type ControlUse = 'off' | 'own-server' | 'any-server';

/** The major and minor of a `tmux -V` line (`tmux 3.3a`, `tmux next-3.7`); null when it names none. */
export function tmuxRelease(version: string): [number, number] | null {
  const m = /(\d+)\.(\d+)/.exec(version);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/** Whether a `tmux -V` line names release `major`.`minor` or a later one. */
export function tmuxAtLeast(version: string, major: number, minor: number): boolean {
  const r = tmuxRelease(version);
  return r !== null && (r[0] > major || (r[0] === major && r[1] >= minor));
}

/**
 * How the daemon's tmux calls go (ADR 0046, amended by ADR 0067): `AMUX_TMUX_CONTROL=off` gives a
 * process per call; `on` or unset (or empty) the control-mode client: on any server from tmux 3.7,
 * the first release with the fixes for the control-mode crashes, and only on a server of its own
 * before (`own-server`). A `tmux -V` that names no release keeps processes unless `on`. Another
 * value is a bad setting: the daemon does not start.
 */
export function controlClientWanted(setting: string | undefined, version: string): ControlUse {
  if (setting === 'off') return 'off';
  if (setting && setting !== 'on') throw badSetting('AMUX_TMUX_CONTROL', setting, 'must be on or off (unset: the control-mode client)');
  if (tmuxAtLeast(version, 3, 7)) return 'any-server';
  if (setting === 'on' || tmuxRelease(version) !== null) return 'own-server';
  return 'off';
}

/** Checks that tmux exists and is at least 3.2 (new-session -e, argv commands, pane_dead_status). */
export async function checkTmuxVersion(bin = 'tmux'): Promise<string> {
  const { execa } = (await import('execa')) as { execa: typeof Execa };
  const res = await execa(bin, ['-V'], { reject: false });
  if (res.failed) {
    throw new AmuxError('tmux_unavailable', 'tmux is not installed or not on PATH; install tmux 3.2 or newer (e.g. apt-get install tmux)');
  }
  const version = String(res.stdout).trim();
  if (!tmuxAtLeast(version, 3, 2)) {
    throw new AmuxError('tmux_unavailable', `${version || 'tmux'} is too old; amux needs tmux 3.2 or newer`);
  }
  return version;
}
