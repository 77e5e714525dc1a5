/**
 * When `amux send` presses Enter after its text, and whether the program took the Enter (src/guides/sessions.md: send; ADR 0047). Pure rules over marks of the session's terminal that
 * `process/terminal-reads.ts` reads: what the pane printed (the log's size), what the terminal's
 * foreground group read (`rchar` per process), and which group that is.
 */

/** One look at the session's terminal. */
export interface InputMark {
  at: number;
  /** The session log's size: the program's echo and redraws. */
  printed: number;
  /** Bytes read so far (`rchar`) per process of the terminal's foreground group; empty when unreadable. */
  reads: ReadonlyMap<number, number>;
  /** The terminal's foreground process group (`tpgid`); null when the shell is gone. */
  group: number | null;
}

/** The times of ADR 0047, in ms. */
export const SUBMIT = {
  /**
   * After the last sign that the program is taking the text, this long with no new sign before
   * Enter goes in: past the windows in which the agent CLIs take an Enter for part of a paste
   * (Gemini CLI: 40 ms after a paste; Codex: none after a bracketed paste, 120 ms after a burst of
   * typed keys, which a bracketed paste is not).
   */
  settleMs: 60,
  /** No sign at all (no echo, no read), or a read with no echo after it, for this long: Enter goes in all the same. */
  unseenMs: 400,
  /** Enter goes in at the latest this long after the text, whatever keeps changing (a redraw that never stops). */
  textDeadlineMs: 2000,
  /** How long `send` watches for the program to read the Enter before it answers `submitted: false`. */
  enterWaitMs: 2000,
  /** How often the marks are read meanwhile. */
  pollMs: 4,
} as const;

/** Bytes read since `before` by the processes in both marks (a process that came or went counts nothing). */
export function readSince(before: InputMark, now: InputMark): number {
  let n = 0;
  for (const [pid, bytes] of now.reads) {
    const was = before.reads.get(pid);
    if (was !== undefined && bytes > was) n += bytes - was;
  }
  return n;
}

/** Whether anything a person would call "the program took it" happened between two marks. */
export function changed(before: InputMark, now: InputMark): boolean {
  return now.printed !== before.printed || now.group !== before.group || readSince(before, now) > 0;
}

/** The text phase so far: the mark before the text went in, the latest, and when a change was last seen. */
export interface TextWatch {
  start: InputMark;
  last: InputMark;
  /** When the last change was seen; null: none yet. */
  changedAt: number | null;
  /** When the program was last seen reading; null: not yet. */
  readAt: number | null;
  /** When the pane last printed (the program's echo or redraw); null: not yet. */
  printedAt: number | null;
}

export function watchText(start: InputMark): TextWatch {
  return { start, last: start, changedAt: null, readAt: null, printedAt: null };
}

/** The watch after one more mark. */
export function nextMark(w: TextWatch, mark: InputMark): TextWatch {
  const read = readSince(w.last, mark) > 0;
  const printed = mark.printed !== w.last.printed;
  return {
    start: w.start, last: mark,
    changedAt: read || printed || mark.group !== w.last.group ? mark.at : w.changedAt,
    readAt: read ? mark.at : w.readAt,
    printedAt: printed ? mark.at : w.printedAt,
  };
}

/**
 * Whether the session's own shell owns the terminal (at its prompt, or running a builtin such as
 * `read`): its readline has no paste burst to mistake an Enter for (the rcfile turns bracketed
 * paste off), so text and Enter go in one call (ADR 0047).
 */
export function shellOwns(m: InputMark, shell: number): boolean {
  return m.group === shell;
}

/** Why Enter goes in now (ADR 0047); null: not yet. */
export type EnterCause = 'settled' | 'unechoed' | 'unseen' | 'deadline';

/**
 * Whether Enter goes in now, after the text (another program than the session's shell):
 * - `settled`: the program read the text and printed after it (its echo: it has handled what it
 *   read, not only read it), then nothing changed for `settleMs`. A program whose event loop lags
 *   (Gemini CLI on a loaded machine) reads at once and handles the keys later: an Enter timed from
 *   the read alone reaches it within its paste guard of the keys, and becomes a newline;
 * - `unechoed`: it read, and printed nothing after for `unseenMs` (a prompt that does not echo);
 * - `unseen`: nothing changed at all for `unseenMs` (a program that neither echoes nor reads yet);
 * - `deadline`: `textDeadlineMs` after the text, whatever keeps changing.
 */
export function enterDue(w: TextWatch, now: number): EnterCause | null {
  const echoed = w.readAt === null || (w.printedAt !== null && w.printedAt >= w.readAt);
  if (w.changedAt !== null && echoed && now - w.changedAt >= SUBMIT.settleMs) return 'settled';
  if (w.changedAt !== null && !echoed && now - w.readAt! >= SUBMIT.unseenMs) return 'unechoed';
  if (w.changedAt === null && now - w.start.at >= SUBMIT.unseenMs) return 'unseen';
  if (now - w.start.at >= SUBMIT.textDeadlineMs) return 'deadline';
  return null;
}

/**
 * Whether the program took the Enter pressed after `before` (what `submitted` says): its
 * foreground group read from the terminal since (`bytes`: what went in after `before`, the Enter
 * included, all read), or the terminal has another foreground group now (the shell started the
 * line as a job, or the program ended and the shell took over).
 */
export function enterTaken(before: InputMark, now: InputMark, bytes = 1): boolean {
  if (before.group !== null && now.group !== null && now.group !== before.group) return true;
  return readSince(before, now) >= bytes;
}
