import { CommanderError } from 'commander';
import { EXIT, toAmuxError } from '../errors.js';
import { buildProgram } from './program.js';

/** The CLI entry: the only place that decides the process exit code (SPEC §4). */
export async function main(argv: string[]): Promise<number> {
  // `amux logs ID | head`: the reader went away; stop quietly like other Unix tools.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(EXIT.ok);
    throw err;
  });
  let code: number = EXIT.ok;
  const program = buildProgram((c) => {
    code = c;
  });
  program.exitOverride();
  program.configureOutput({ outputError: (str, write) => write(`amux: ${str.replace(/^error: /, '').trim()}\n`) });
  for (const cmd of program.commands) {
    cmd.exitOverride();
    cmd.configureOutput({ outputError: (str, write) => write(`amux: ${str.replace(/^error: /, '').trim()}\n`) });
  }
  try {
    await program.parseAsync(argv);
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
    const e = toAmuxError(err);
    process.stderr.write(`amux: ${e.message}\n`);
    if (e.code === 'internal' && process.env.AMUX_DEBUG) process.stderr.write(`${(err as Error).stack}\n`);
    return e.exitCode;
  }
}
