/** Quotes one word for bash so that it is passed literally, whatever it contains. */
export function shellQuote(word: string): string {
  if (word === '') return "''";
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Joins an argv into a bash command line that runs exactly that argv. The first word is always
 * quoted, so that `FOO=bar`, `if` or `time` are run as a command name, never read as an
 * assignment, a reserved word or a keyword.
 */
export function quoteArgv(argv: readonly string[]): string {
  return argv.map((w, i) => (i === 0 ? `'${w.replace(/'/g, `'\\''`)}'` : shellQuote(w))).join(' ');
}
