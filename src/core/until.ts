import { AmuxError } from '../errors.js';

/**
 * What `amux wait --until` waits for (src/guides/sessions.md: wait; ADR 0018):
 * - `exited`: the target ended (the default; sessions and jobs);
 * - `idle` / `working`: the session is in that status (or, with `after`, got there after that event);
 * - `output:REGEX`: REGEX matches the plain-text output after the cursor, or the screen;
 * - `attention`: the session asks for a person (or, with `after`, asked after that event; ADR 0034);
 * - `waiting` / `ready`: its program declared that state with `amux state` (with `after`: after that event);
 * - `started`: the session is no longer `pending` (it runs, or ended without running; ADR 0040).
 */
export type Until =
  | { kind: 'exited' }
  | { kind: 'idle' }
  | { kind: 'working' }
  | { kind: 'attention' }
  | { kind: 'waiting' }
  | { kind: 'ready' }
  | { kind: 'started' }
  | { kind: 'output'; regex: RegExp; source: string };

/** Longest REGEX taken: the daemon runs it on every new piece of output. */
export const MAX_UNTIL_REGEX = 1000;

/** Parses `--until` text; a bad one is one `invalid_argument` line saying what is accepted. */
export function parseUntil(text: string | undefined): Until {
  if (text === undefined || text === 'exited') return { kind: 'exited' };
  if (text === 'idle' || text === 'working' || text === 'attention' || text === 'waiting' || text === 'ready' || text === 'started') return { kind: text };
  if (text.startsWith('output:')) {
    const source = text.slice('output:'.length);
    if (source === '') throw new AmuxError('invalid_argument', "--until output: needs a regular expression, e.g. --until 'output:ready|listening'");
    if (source.length > MAX_UNTIL_REGEX) throw new AmuxError('invalid_argument', `--until output: the regular expression is longer than ${MAX_UNTIL_REGEX} characters`);
    let regex: RegExp;
    try {
      regex = new RegExp(source, 'm');
    } catch (e) {
      throw new AmuxError('invalid_argument', `--until output: not a valid regular expression: ${(e as Error).message}`);
    }
    return { kind: 'output', regex, source };
  }
  throw new AmuxError('invalid_argument', `unknown --until '${text}': use exited, idle, working, attention, waiting, ready, started or output:REGEX`);
}

/** The status an `idle`/`working` wait looks for; null for the others. */
export function untilStatus(u: Until): 'idle' | 'working' | null {
  return u.kind === 'idle' || u.kind === 'working' ? u.kind : null;
}

/** The declared state a `waiting`/`ready` wait looks for; null for the others. */
export function untilDeclared(u: Until): 'waiting' | 'ready' | null {
  return u.kind === 'waiting' || u.kind === 'ready' ? u.kind : null;
}
