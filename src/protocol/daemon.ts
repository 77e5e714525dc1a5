// The daemon itself on the wire (src/guides/api.md).
import type { Settings } from '../core/settings.js';

/** The answer of `GET /v1/health` (`amux daemon status --json`). */
export interface Health {
  pid: number;
  socket: string;
  version: string;
  uptimeMs: number;
  /** Sessions not removed, and of those the live and pending ones. */
  sessions: number;
  live: number;
  pending: number;
  home: string;
  /** The settings in force (read when the daemon started). */
  settings: Settings;
  /** tmux calls since the daemon started: as `tmux` processes, and through the control client (ADR 0037). */
  tmuxCalls: { spawned: number; control: number };
}

/** The answer of `POST /v1/daemon/stop`. */
export interface StopAnswer {
  stopping: boolean;
  pid: number;
}
