import { EventEmitter } from 'node:events';
import type { Settings } from '../core/settings.js';
import type { AmuxPaths } from '../paths.js';
import type { Store } from '../store/session-store.js';
import type { Tmux } from '../tmux/tmux.js';

/** What the daemon keeps in memory per live session, next to the SQLite row. */
export interface Runtime {
  /** Cursor position and scrollback size at the last refresh (`x,y,history`). */
  place?: string;
  /** Log size at the last refresh. */
  logEnd?: number;
  /** FNV-1a of the last captured screen. */
  screenHash?: string;
  /** Current log chunk index (a hint for logSize); unknown until first looked up. */
  logIndex?: number;
  /** The last problem reported as an `error` event (not repeated at every refresh). */
  lastError?: string;
}

/** Everything the daemon's parts share. */
export interface DaemonContext {
  paths: AmuxPaths;
  settings: Settings;
  store: Store;
  tmux: Tmux;
  bash: string;
  startedAt: number;
  runtime: Map<string, Runtime>;
  /** Emits `change` (sessionId) after any status change or new session, and `event` after new event rows committed. */
  bus: EventEmitter;
}

export function runtimeOf(ctx: DaemonContext, id: string): Runtime {
  let rt = ctx.runtime.get(id);
  if (!rt) {
    rt = {};
    ctx.runtime.set(id, rt);
  }
  return rt;
}
