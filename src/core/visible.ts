/**
 * What a terminal acts on instead of showing: C0 controls (ESC starts every escape sequence), DEL,
 * the C1 controls (U+0080–U+009F; CSI and OSC among them) and the bidi overrides and isolates
 * (U+202A–U+202E, U+2066–U+2069) that make text read other than it is.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const SHORT: Record<string, string> = { '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r' };

/**
 * Text from sessions (commands, process names, names, labels, reasons, messages) as the human
 * output shows it (src/guides/sessions.md: ps): each control character written as the JSON writes it
 * (`\u001b`, `\n`), so that no program, and no stack file, can put an escape sequence on the user's
 * terminal through a table. `lines`: keep newlines and tabs (a block of output), escape the rest.
 */
export function visible(text: string, lines = false): string {
  return text.replace(lines ? UNSAFE_BUT_LINES : UNSAFE, (c) => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
