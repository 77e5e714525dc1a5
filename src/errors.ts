/**
 * The one error model of amux: a stable `code`, the CLI exit code it maps to (SPEC §4),
 * the HTTP status it maps to on the daemon API, and the original error as `cause`.
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, daemon: 3, tmux: 4 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Stable error codes; tests and API clients match on these, never on message text. */
export const ERROR_CODES = {
  usage: { exit: EXIT.usage, http: 400 },
  invalid_argument: { exit: EXIT.usage, http: 400 },
  session_not_found: { exit: EXIT.failed, http: 404 },
  job_not_found: { exit: EXIT.failed, http: 404 },
  ambiguous_id: { exit: EXIT.failed, http: 409 },
  name_in_use: { exit: EXIT.failed, http: 409 },
  invalid_state: { exit: EXIT.failed, http: 409 },
  not_found: { exit: EXIT.failed, http: 404 },
  operation_failed: { exit: EXIT.failed, http: 500 },
  storage_error: { exit: EXIT.failed, http: 507 },
  not_a_tty: { exit: EXIT.failed, http: 400 },
  daemon_unreachable: { exit: EXIT.daemon, http: 503 },
  tmux_unavailable: { exit: EXIT.tmux, http: 503 },
  timeout: { exit: EXIT.failed, http: 504 },
  internal: { exit: EXIT.failed, http: 500 },
} as const satisfies Record<string, { exit: ExitCode; http: number }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export class AmuxError extends Error {
  readonly code: ErrorCode;
  readonly exitCode: ExitCode;
  readonly httpStatus: number;

  constructor(code: ErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AmuxError';
    this.code = code;
    this.exitCode = ERROR_CODES[code].exit;
    this.httpStatus = ERROR_CODES[code].http;
  }

  toJSON(): { code: ErrorCode; message: string } {
    return { code: this.code, message: this.message };
  }
}

/** Whether `code` is one of ours (an API answer may carry a code from a newer daemon). */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);
}

/** Turns anything thrown into an AmuxError, keeping the original as `cause`. */
export function toAmuxError(err: unknown): AmuxError {
  if (err instanceof AmuxError) return err;
  const e = err as NodeJS.ErrnoException;
  if (e && (e.code === 'ENOSPC' || e.code === 'EDQUOT')) {
    return new AmuxError('storage_error', `disk full while writing ${e.path ?? 'amux state'}; free some space and retry`, { cause: err });
  }
  if (e && typeof e.code === 'string' && /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN)/.test(e.code)) {
    const why = e.code.startsWith('SQLITE_FULL') ? 'disk full' : `storage error ${e.code}`;
    return new AmuxError('storage_error', `${why} while writing the amux database; free some space or check AMUX_HOME, then retry`, { cause: err });
  }
  if (e && (e.code === 'EACCES' || e.code === 'EROFS' || e.code === 'EPERM') && e.path) {
    return new AmuxError('storage_error', `cannot write ${e.path} (${e.code}); check the permissions of AMUX_HOME`, { cause: err });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new AmuxError('internal', message, { cause: err });
}
