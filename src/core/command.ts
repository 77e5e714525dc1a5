import { AmuxError } from '../errors.js';
import { quoteArgv, shellQuote } from './quote.js';

/** What a session or job runs: the text shown to users and the bash source that runs it. */
export interface ResolvedCommand {
  /** As shown in `ps` and stored: the shell line, or the argv words quoted for bash and joined by spaces. */
  display: string;
  /** Bash source executed by the session's shell. */
  script: string;
}

/**
 * src/guides/sessions.md (run): one argument after `--` is a shell command line; several are an exact argv,
 * each word passed literally. No argument → no command (a shell session).
 */
export function commandFromArgs(args: readonly string[]): { command?: string; argv?: string[] } {
  if (args.length === 0) return {};
  if (args.length === 1) return { command: args[0]! };
  return { argv: [...args] };
}

export function resolveCommand(req: { command?: string | null; argv?: readonly string[] | null }): ResolvedCommand | null {
  const { command, argv } = req;
  if (command != null && argv != null) throw new AmuxError('invalid_argument', 'give either command or argv, not both');
  if (argv != null) {
    if (!Array.isArray(argv) || argv.length === 0 || argv.some((w) => typeof w !== 'string')) {
      throw new AmuxError('invalid_argument', 'argv must be a non-empty array of strings');
    }
    checkText(argv.join(' '));
    // Shown as a shell line that means the same argv: `printf ''` stays `printf ''`.
    return { display: argv.map(shellQuote).join(' '), script: quoteArgv(argv) };
  }
  if (command != null) {
    if (typeof command !== 'string') throw new AmuxError('invalid_argument', 'command must be a string');
    if (command.trim() === '') throw new AmuxError('invalid_argument', 'command is empty: give a command after --, or none for a shell session');
    checkText(command);
    return { display: command, script: command };
  }
  return null;
}

/** The longest command amux takes (bytes): far beyond any real one, short of what makes every `ps` slow. */
export const MAX_COMMAND_BYTES = 1024 * 1024;

function checkText(text: string): void {
  if (text.includes('\0')) throw new AmuxError('invalid_argument', 'command contains a NUL byte, which no shell can pass');
  if (Buffer.byteLength(text) > MAX_COMMAND_BYTES) {
    throw new AmuxError('invalid_argument', `command is longer than ${MAX_COMMAND_BYTES} bytes; put it in a script file and run that`);
  }
}
