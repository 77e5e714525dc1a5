/**
 * Error codes of the API and the CLI (ADR 0006): each stable `code` maps to the CLI's exit code
 * (src/guides/sessions.md "Durations, exit codes, colour") and to the HTTP status the daemon answers with. Clients match on codes,
 * never on message text.
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, daemon: 3, tmux: 4 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const ERROR_CODES = {
  usage: { exit: EXIT.usage, http: 400 },
  invalid_argument: { exit: EXIT.usage, http: 400 },
  method_not_allowed: { exit: EXIT.usage, http: 405 },
  payload_too_large: { exit: EXIT.usage, http: 413 },
  session_not_found: { exit: EXIT.failed, http: 404 },
  session_removed: { exit: EXIT.failed, http: 410 },
  job_not_found: { exit: EXIT.failed, http: 404 },
  ambiguous_id: { exit: EXIT.failed, http: 409 },
  name_in_use: { exit: EXIT.failed, http: 409 },
  invalid_state: { exit: EXIT.failed, http: 409 },
  not_found: { exit: EXIT.failed, http: 404 },
  operation_failed: { exit: EXIT.failed, http: 500 },
  storage_error: { exit: EXIT.failed, http: 507 },
  not_a_tty: { exit: EXIT.usage, http: 400 },
  daemon_unreachable: { exit: EXIT.daemon, http: 503 },
  // A remote host (src/guides/remote.md, ADR 0024): the CLI's own codes, never answered by a daemon.
  host_unreachable: { exit: EXIT.daemon, http: 503 },
  host_auth_failed: { exit: EXIT.daemon, http: 503 },
  remote_amux_missing: { exit: EXIT.daemon, http: 503 },
  api_version_mismatch: { exit: EXIT.daemon, http: 503 },
  tmux_unavailable: { exit: EXIT.tmux, http: 503 },
  timeout: { exit: EXIT.failed, http: 504 },
  internal: { exit: EXIT.failed, http: 500 },
} as const satisfies Record<string, { exit: ExitCode; http: number }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Every error answer of the API: `{"error": {"code", "message"}}`. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string };
}

/** Whether `code` is one of ours (an answer may carry a code from a newer daemon). */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);
}
