/**
 * What a program announces about itself in escape sequences, besides asking for attention
 * (src/guides/statuses.md: announced states; ADR 0049, ADR 0050): OSC 7501 program status, OSC 9;4
 * progress, OSC 133 semantic-prompt marks, and the window title (OSC 0 and OSC 2). Pure: each
 * function reads one OSC payload (without `ESC ]` and its terminator) and says what it announces,
 * or null for another OSC or a malformed one (ignored, as a terminal ignores it).
 */

/** OSC 7501 states (the Program Status Protocol); `clear` retires the program's report. */
export const PROGRAM_STATES = ['idle', 'working', 'done', 'blocked', 'error', 'clear'] as const;
export type ProgramState = (typeof PROGRAM_STATES)[number];

/** One OSC 7501 report: `7501;state=blocked:kind=permission:app=codex:title=B64:msg=B64`. */
export interface ProgramReport {
  state: ProgramState;
  /** Why it is blocked (`permission`, `question`); null when not said. */
  kind: string | null;
  app: string | null;
  title: string | null;
  message: string | null;
}

/** OSC 9;4 progress states (ConEmu, Windows Terminal): 1 normal, 2 error, 3 indeterminate, 4 paused. */
export type ProgressState = 'normal' | 'error' | 'indeterminate' | 'paused';
const PROGRESS_STATES: Record<string, ProgressState> = { 1: 'normal', 2: 'error', 3: 'indeterminate', 4: 'paused' };

/** A progress bar set (`9;4;1..4[;PERCENT]`), or `clear` (`9;4;0`). */
export type ProgressReport = { state: ProgressState; percent: number | null } | 'clear';

/** OSC 133 marks: A prompt starts, B input starts (the prompt ended), C the command runs, D it finished. */
export type PromptPhase = 'prompt' | 'input' | 'running' | 'finished';
const PHASES: Record<string, PromptPhase> = { A: 'prompt', B: 'input', C: 'running', D: 'finished' };

export interface PromptMark {
  phase: PromptPhase;
  /** The last command's exit status (`133;D;CODE`), kept at the prompt that follows (A, B); null while one runs (C) or when none was given. */
  exitCode: number | null;
}

/** The mark after `mark` when `before` came last: a prompt keeps the exit status of the command before it. */
export function afterMark(before: PromptMark | null | undefined, mark: PromptMark): PromptMark {
  const atPrompt = mark.phase === 'prompt' || mark.phase === 'input';
  return atPrompt && mark.exitCode === null && before && before.phase !== 'running' ? { ...mark, exitCode: before.exitCode } : mark;
}

/** The longest title or message kept, in characters. */
export const MAX_TEXT_CHARS = 1000;

// A string of at most MAX_TEXT_CHARS UTF-16 units has at most as many characters: nothing to count.
const cut = (s: string): string => (s.length <= MAX_TEXT_CHARS ? s : [...s].slice(0, MAX_TEXT_CHARS).join(''));
/** Decoded text as shown: C0 and C1 controls and DEL removed. */
const clean = (s: string): string => cut(s.replace(/[\u0000-\u001f\u007f-\u009f]/g, ''));

/** The code of an OSC payload (`0`, `2`, `9`, `133`, `7501`, …) and the rest after its `;`. */
export function splitOsc(payload: string): [string, string] {
  const semi = payload.indexOf(';');
  return semi < 0 ? [payload, ''] : [payload.slice(0, semi), payload.slice(semi + 1)];
}

/**
 * OSC 0 and OSC 2 set the window title: the text as written (at most MAX_TEXT_CHARS characters;
 * printers escape what is not printable, it is not cleaned here). OSC 1 (icon name) is not a title.
 */
export function titleOf(code: string, rest: string): string | null {
  return code === '0' || code === '2' ? cut(rest) : null;
}

/** OSC 9;4 (`4;STATE[;PERCENT]`, after `9;`): a progress bar, or null for another OSC 9 form. */
export function progressOf(rest9: string): ProgressReport | null {
  const m = /^4;(\d)(?:;(\d{1,3})?)?(?:;|$)/.exec(rest9);
  if (!m) return null;
  if (m[1] === '0') return 'clear';
  const state = PROGRESS_STATES[m[1]!];
  if (!state) return null;
  const pct = m[2] === undefined || state === 'indeterminate' ? null : Math.min(100, Number(m[2]));
  return { state, percent: pct };
}

/** OSC 133 (`A`, `B`, `C`, `D[;CODE]`, each maybe followed by `;key=value` options). */
export function promptMarkOf(rest: string): PromptMark | null {
  const [letter, params] = splitOsc(rest);
  const phase = PHASES[letter];
  if (!phase) return null;
  const code = phase === 'finished' ? /^(\d{1,3})(?:;|$)/.exec(params) : null;
  return { phase, exitCode: code ? Number(code[1]) : null };
}

const decode64 = (v: string): string | null => {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(v)) return null;
  const text = Buffer.from(v, 'base64').toString('utf8');
  return text.includes('\ufffd') ? null : text;
};

/**
 * OSC 7501 (after `7501;`): `key=value` pairs joined by `:`. An unknown or missing `state`, or a
 * title or message that is not base64 of UTF-8, discards the report; unknown keys are skipped.
 * The query (`7501;?`) is not a report (a terminal answers it; amux does not).
 */
export function programReportOf(rest: string): ProgramReport | null {
  const pairs = new Map<string, string>();
  for (const kv of rest.split(':')) {
    const eq = kv.indexOf('=');
    if (eq > 0) pairs.set(kv.slice(0, eq), kv.slice(eq + 1));
  }
  const state = pairs.get('state');
  if (!state || !(PROGRAM_STATES as readonly string[]).includes(state)) return null;
  const text = (key: string): string | null | false => {
    const v = pairs.get(key);
    if (v === undefined || v === '') return null;
    const t = decode64(v);
    return t === null ? false : clean(t) || null;
  };
  const title = text('title');
  const message = text('msg');
  if (title === false || message === false) return null;
  const word = (v: string | undefined): string | null => (v !== undefined && /^[\w.@/-]{1,64}$/.test(v) ? v : null);
  return { state: state as ProgramState, kind: word(pairs.get('kind')), app: word(pairs.get('app')), title, message };
}
