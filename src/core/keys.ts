import { AmuxError } from '../errors.js';

/**
 * tmux key names for `send --keys` (src/guides/sessions.md: send; tmux(1) "KEY BINDINGS"). tmux types an
 * unknown name as its letters, so a typo (`Ctrl-C`, `Esc`) would be text in the program: amux
 * refuses any word that is not a key. Names are case-insensitive, as in tmux.
 */
const NAMED = [
  'Up', 'Down', 'Left', 'Right', 'Home', 'End', 'PageUp', 'PgUp', 'PageDown', 'PgDn', 'PPage', 'NPage', 'Insert', 'IC', 'Delete', 'DC',
  'Enter', 'Escape', 'Tab', 'BTab', 'Space', 'BSpace', 'Any',
  ...Array.from({ length: 12 }, (_, i) => `F${i + 1}`),
  ...Array.from({ length: 10 }, (_, i) => `KP${i}`), 'KP/', 'KP*', 'KP-', 'KP+', 'KP.', 'KPEnter',
];
const NAMED_LOWER = new Map(NAMED.map((n) => [n.toLowerCase(), n]));
/** What people type for a key and the name tmux knows it by. */
const HINTS: Record<string, string> = { esc: 'Escape', return: 'Enter', backspace: 'BSpace', del: 'DC', ins: 'IC', pageup: 'PageUp', spacebar: 'Space' };

function isKey(word: string): boolean {
  let rest = word;
  // Modifiers: C-, M-, S- in any order (also ^X for C-X), each at most once.
  for (;;) {
    const m = /^([CMS])-(.+)$/i.exec(rest);
    if (!m) break;
    rest = m[2]!;
  }
  if (/^\^.$/.test(rest)) return true;
  if ([...rest].length === 1) return true;
  if (/^0x[0-9a-f]{1,6}$/i.test(rest)) return true;
  return NAMED_LOWER.has(rest.toLowerCase());
}

/** Checks every word; the error names the first that is not a key, with a hint when one is near. */
export function checkKeys(words: readonly string[]): string[] {
  for (const w of words) {
    if (isKey(w)) continue;
    const ctrl = /^ctrl[-+](.)$/i.exec(w);
    const hint = ctrl ? `C-${ctrl[1]!.toLowerCase()}` : HINTS[w.toLowerCase()];
    throw new AmuxError('invalid_argument', `'${w}' is not a tmux key name${hint ? `: did you mean ${hint}?` : ''}; use names such as C-c, Enter, Escape, Up, F1, or send it as text without --keys`);
  }
  return [...words];
}
