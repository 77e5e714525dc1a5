/** Quotes one word for bash so that it is passed literally, whatever it contains. */
export function shellQuote(word: string): string {
  if (word === '') return "''";
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Joins an argv into a bash command line that runs exactly that argv. */
export function quoteArgv(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}
