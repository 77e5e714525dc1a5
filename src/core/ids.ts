import { AmuxError } from '../errors.js';

export const SESSION_ID = /^[0-9a-f]{8}$/;
export const SESSION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const JOB_ID = /^job-([0-9a-f]{8})-([1-9][0-9]{0,8})$/;

export function validateName(name: string): string {
  if (!SESSION_NAME.test(name)) {
    throw new AmuxError(
      'invalid_argument',
      `invalid name ${JSON.stringify(name)}: use 1-64 characters from A-Z a-z 0-9 . _ -, starting with a letter or digit`,
    );
  }
  // A reference resolves ids first: a name that is (or could be) an id, or a job id, could never be reached by name.
  if (SESSION_ID.test(name.toLowerCase()) || /^job-/i.test(name)) {
    throw new AmuxError('invalid_argument', `invalid name ${JSON.stringify(name)}: it reads as a session or job id; pick a name that is not 8 hex digits (in either case) and does not start with job-`);
  }
  return name;
}

export function jobId(sessionId: string, seq: number): string {
  return `job-${sessionId}-${seq}`;
}

/** Splits `job-<sessionId>-<seq>`; null when `ref` is not a job id. */
export function parseJobId(ref: string): { sessionId: string; seq: number } | null {
  const m = JOB_ID.exec(ref);
  return m ? { sessionId: m[1]!, seq: Number(m[2]) } : null;
}

export interface Identified {
  id: string;
  name: string | null;
}

/**
 * Resolves a user's reference to one session: full id, then exact name, then unique id prefix
 * (src/guides/sessions.md). Ambiguity is an error that lists the candidates.
 */
export function resolveRef<T extends Identified>(ref: string, candidates: readonly T[]): T {
  if (typeof ref !== 'string' || ref.length === 0 || ref.length > 256 || /[\0-\x1f]/.test(ref)) {
    throw new AmuxError('invalid_argument', `invalid session reference ${JSON.stringify(String(ref).slice(0, 80))}: give an id, a unique id prefix or a name`);
  }
  const byId = candidates.find((c) => c.id === ref);
  if (byId) return byId;
  const byName = candidates.find((c) => c.name === ref);
  if (byName) return byName;
  const lower = ref.toLowerCase();
  const matches = /^[0-9a-f]+$/.test(lower) ? candidates.filter((c) => c.id.startsWith(lower)) : [];
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    const list = matches.slice(0, 10).map((c) => c.id).join(', ');
    throw new AmuxError('ambiguous_id', `session prefix '${ref}' is ambiguous (${list}${matches.length > 10 ? ', …' : ''}); give more characters`);
  }
  throw new AmuxError('session_not_found', `no such session: ${ref} (see 'amux ps')`);
}
