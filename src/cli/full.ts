import type { Command } from 'commander';
import { EXIT, toAmuxError } from '../errors.js';
import type { Spec } from './complete.js';
import { reportError } from './report.js';
import { takeTargetOptions } from './target.js';

/**
 * Every command the fast paths of `main.ts` do not take: commander parses it (ADR 0008). The build
 * bundles this module apart from the fast paths (ADR 0025), so `ps`, `run` and `exec` never load
 * it; nothing but argv and the exit code crosses between the two, and it reports its own errors.
 */
export async function fullMain(argv: string[]): Promise<number> {
  let args: string[];
  try {
    args = takeTargetOptions(argv.slice(2)); // --host, --context (src/guides/remote.md)
  } catch (err) {
    return reportError(err);
  }
  const { habitHint, killSignalWords } = require('./habits.js') as typeof import('./habits.js');
  // What other tools' users type by habit gets the amux way to say it, not just a refusal (src/guides/sessions.md).
  const habit = habitHint(args);
  if (habit !== null) {
    process.stderr.write(`amux: ${habit}\n`);
    return EXIT.usage;
  }
  args = killSignalWords(args); // `kill -9 NAME`, as kill(1) reads it
  if (args[0] === 'help' && args.length === 2 && (args[1] === '--help' || args[1] === '-h')) args = ['--help'];
  const { CommanderError } = require('commander') as typeof import('commander');
  const { buildProgram } = require('./program.js') as typeof import('./program.js');
  let code: number = EXIT.ok;
  const program = buildProgram((c) => {
    code = c;
  });
  // commander's own errors (unknown option, missing argument) in our one-line form, for every command.
  // A suggestion ("(Did you mean logs?)") joins the line: every error is one line (ADR 0006).
  // A missing argument shows the command's usage line, as `logs` does: `inspect needs <id>: amux inspect [options] <id>`.
  const outputError = (cmd: Command) => (str: string, write: (s: string) => void) => {
    let line = str.replace(/^error: /, '').trim().replace(/\s*\n\s*/g, ' ');
    const missing = /^missing required argument '([^']+)'$/.exec(line);
    if (missing) line = `${commandPath(cmd)} needs <${missing[1]}>: amux ${commandPath(cmd)} ${cmd.usage()}`;
    write(`amux: ${line}\n`);
  };
  const each = (cmd: Command) => {
    cmd.exitOverride();
    cmd.configureOutput({ outputError: outputError(cmd) });
    cmd.commands.forEach(each);
  };
  each(program);
  // `amux help [COMMAND [ACTION] | TOPIC]`: a page of the reference (ADR 0063); a name that is neither is a usage error.
  const words = args.filter((a) => a !== '--no-color');
  if (words[0] === 'help') {
    // A bundle of its own (scripts/bundle.ts), which reports its own errors.
    return (require('./reference/help-command.js') as typeof import('./reference/help-command.js')).helpCommand(program, words.slice(1).filter((w) => w !== '--help' && w !== '-h'));
  }
  try {
    await program.parseAsync([...argv.slice(0, 2), ...args]);
    return code;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT.ok;
      if (err.code === 'commander.executeSubCommandAsync') return EXIT.ok;
      // commander already printed its one line; an AmuxError thrown from an option parser lands here too.
      const cause = (err as { cause?: unknown }).cause;
      if (cause) process.stderr.write(`amux: ${toAmuxError(cause).message}\n`);
      return EXIT.usage;
    }
    return reportError(err);
  }
}

/** `group add`: the words after `amux` that name a command. */
function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c && c.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The completion spec of the commands, from commander: `__complete`'s fallback in a build without completion-spec.json (ADR 0021). */
export function commandSpec(): Spec {
  const { specOf } = require('./completion-spec.js') as typeof import('./completion-spec.js');
  const { buildProgram } = require('./program.js') as typeof import('./program.js');
  return specOf(buildProgram(() => undefined));
}
