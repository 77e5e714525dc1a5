import { EXIT, toAmuxError } from '../errors.js';
import { parseFast } from './fast-path.js';
import { newClient, takeTargetOptions } from './target.js';

/** Runs the CLI for this process and sets its exit code (bin/amux). */
export function run(): void {
  main(process.argv).then((code) => {
    process.exitCode = code;
  });
}

/**
 * The CLI entry: it decides the process exit code (README "Commands": exit codes; ADR 0006). The one
 * other exit is `exec`'s Ctrl-C before its job started, which must close the request at once.
 */
export async function main(argv: string[]): Promise<number> {
  // `amux logs ID | head`: the reader went away; stop quietly like other Unix tools.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(EXIT.ok);
    throw err;
  });
  const raw = argv.slice(2);
  // Shell completion asks on every Tab: no commander parse (ADR 0021).
  if (raw[0] === '__complete') return (require('./complete.js') as typeof import('./complete.js')).completeCommand(raw.slice(1));
  let fast: ReturnType<typeof parseFast>;
  let args: string[];
  try {
    args = takeTargetOptions(raw); // --host, --context (README "Remote hosts")
    // `amux` alone prints a short overview of the common commands (exit 0), not the full reference (ADR 0023).
    if (args.length === 0) return (require('./overview.js') as typeof import('./overview.js')).overviewCommand();
    fast = parseFast(args);
  } catch (err) {
    return report(err); // e.g. a bad --env: the same usage error commander would give
  }
  if (fast) {
    try {
      if (fast.command === 'dial-stdio') return await (require('./dial-stdio.js') as typeof import('./dial-stdio.js')).dialStdio();
      if (fast.command === 'ps') return await (require('./commands/ps.js') as typeof import('./commands/ps.js')).psCommand(newClient(), fast.opts);
      if (fast.command === 'exec') {
        const target = fast.ref.includes(':') ? new (require('./refs.js') as typeof import('./refs.js')).Router().route(fast.ref) : { client: newClient(), ref: fast.ref };
        return await (require('./commands/exec.js') as typeof import('./commands/exec.js')).execCommand(target.client, target.ref, fast.cmd, fast.opts);
      }
      return await (require('./commands/run.js') as typeof import('./commands/run.js')).runCommand(newClient(), fast.cmd, fast.opts);
    } catch (err) {
      return report(err);
    }
  }
  const { CommanderError } = require('commander') as typeof import('commander');
  const { buildProgram } = require('./program.js') as typeof import('./program.js');
  let code: number = EXIT.ok;
  const program = buildProgram((c) => {
    code = c;
  });
  // commander's own errors (unknown option, missing argument) in our one-line form, for every command.
  // A suggestion ("(Did you mean logs?)") joins the line: every error is one line (ADR 0006).
  const outputError = (str: string, write: (s: string) => void) => write(`amux: ${str.replace(/^error: /, '').trim().replace(/\s*\n\s*/g, ' ')}\n`);
  for (const cmd of [program, ...program.commands]) {
    cmd.exitOverride();
    cmd.configureOutput({ outputError });
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
    return report(err);
  }
}

/** One line on stderr, and the exit code of the error (ADR 0006). */
function report(err: unknown): number {
  const e = toAmuxError(err);
  process.stderr.write(`amux: ${e.message}\n`);
  if (e.code === 'internal' && process.env.AMUX_DEBUG) process.stderr.write(`${(err as Error).stack}\n`);
  return e.exitCode;
}
