/*
 * Errors in MCP words (src/guides/agents.md: errors): the daemon and the stack loader speak the CLI's
 * flags and commands, which an agent calling tools cannot use. Each spelling an MCP tool can meet
 * is said here once as its tool and argument names (ADR 0053).
 */

const WORDS: readonly [RegExp, string][] = [
  [/'amux kill ([^']+)'/g, 'the kill tool'],
  [/'amux rm -f ([^']+)'/g, 'remove with force: true'],
  [/\('amux logs ([^']+) --screen'\)/g, '(the screen tool)'],
  [/'amux send'/g, 'the send tool'],
  [/--until '?(output:[^'\s;]*)'?/g, "until '$1'"],
  [/unknown --until '([^']*)'/g, "unknown until '$1'"],
  [/--until (\S+)/g, "until '$1'"],
  [/ \(--when\)/g, ' (when)'],
  [/as text without --keys/g, 'as text instead of keys'],
  [/with --keys/g, 'in keys'],
  [/give -f FILE/g, 'give file'],
  [/give -p NAME/g, 'give project'],
];

/** A message of the daemon or the CLI's stack code as an MCP client should read it. */
export function inMcpWords(message: string): string {
  return WORDS.reduce((m, [cli, mcp]) => m.replace(cli, mcp), message);
}
