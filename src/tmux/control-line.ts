/**
 * A tmux argv (as the builders in `commands.ts` make it for a `tmux …` process) as one line of
 * tmux's command language, for the control-mode client (ADR 0037, ADR 0007). Pure.
 *
 * The argv follows tmux's argument rules: an argument ending in `;` ends a command, and a trailing
 * `\;` stands for a literal `;` (`tmuxLiteral`). In the line, every argument is single-quoted, so
 * that nothing in it is special to tmux's parser (`$`, `~`, `#`, `{`, `;`, spaces); a `'` inside is
 * written `'\''`. A line ends at a newline, so text with a newline, a carriage return or a NUL has
 * no line: `null`, and the caller runs that call as a process instead.
 */
export function controlLine(args: readonly string[]): string | null {
  const words: string[] = [];
  for (const arg of args) {
    if (/[\n\r\0]/.test(arg)) return null;
    if (!arg.endsWith(';')) {
      words.push(quoteWord(arg));
      continue;
    }
    const text = arg.slice(0, -1);
    if (text.endsWith('\\')) {
      words.push(quoteWord(`${text.slice(0, -1)};`));
      continue;
    }
    if (text) words.push(quoteWord(text));
    words.push(';');
  }
  return words.join(' ');
}

/** One argument, single-quoted for tmux's parser. */
export function quoteWord(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
