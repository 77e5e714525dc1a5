// Groups and live settings on the wire (src/guides/sessions.md "Restart, labels, groups", src/guides/configuration.md).
import type { Settings } from '../core/settings.js';

/** A group as `GET /v1/groups` lists it. */
export interface GroupView {
  name: string;
  /** At most this many of its sessions working, idle or paused at once; 0 = no limit of its own. */
  parallel: number;
  live: number;
  pending: number;
}

/** The body of `POST /v1/groups`: creates the group, or changes its limit (it takes effect at once). */
export interface GroupRequest {
  name: string;
  parallel: number;
}

/** The body of `POST /v1/config`: one setting by its config.json key, written to config.json and in force at once. */
export interface SetConfigRequest {
  key: string;
  /** The value as config.json holds it; null removes the key (back to the default). */
  value: string | number | null;
}

export interface SetConfigAnswer {
  settings: Settings;
  /** An AMUX_* variable of the daemon's environment that wins over config.json for this key, if any. */
  overriddenBy: string | null;
}
