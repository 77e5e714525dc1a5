import { ERROR_CODES, type ErrorCode, type ExitCode } from './protocol/errors.js';

export { EXIT, isErrorCode, type ErrorCode, type ExitCode } from './protocol/errors.js';

/**
 * The one error model of amux (ADR 0006): a stable `code`, the CLI exit code and the HTTP status
 * it maps to (protocol/errors.ts), and the original error as `cause`.
 */
export class AmuxError extends Error {
  readonly code: ErrorCode;
  readonly exitCode: ExitCode;
  readonly httpStatus: number;

  constructor(code: ErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(boundMessage(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AmuxError';
    this.code = code;
    this.exitCode = ERROR_CODES[code].exit;
    this.httpStatus = ERROR_CODES[code].http;
  }

  toJSON(): { code: ErrorCode; message: string } {
    return { code: this.code, message: this.message };
  }
}

/** The longest message an error carries: a value it quotes (a 7 MiB name, a setting) is cut in its middle. */
export const MAX_MESSAGE_CHARS = 2000;

/** `message`, or its start and its end (which says how to fix it) around a note of what was left out. */
export function boundMessage(message: string): string {
  if (message.length <= MAX_MESSAGE_CHARS) return message;
  const head = message.slice(0, 1200);
  const tail = message.slice(-500);
  return `${head}… (${message.length - head.length - tail.length} characters left out) …${tail}`;
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
