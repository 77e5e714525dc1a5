import { AmuxError, EXIT } from '../errors.js';
import { VERSION } from '../version.js';
import { parseFast } from './fast-path.js';
import { writeOut } from './output.js';
import { reportError as report } from './report.js';
import { newClient, takeTargetOptions } from './target.js';

/** Runs the CLI for this process and sets its exit code (bin/amux). */
export function run(): void {
  main(process.argv).then((code) => {
    process.exitCode = code;
  });
}

/**
 * The CLI entry: it decides the process exit code (src/guides/sessions.md: exit codes; ADR 0006). The one
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
  if (raw[0] === '__complete') return (require('./complete-command.js') as typeof import('./complete-command.js')).completeCommand(raw.slice(1));
  let fast: ReturnType<typeof parseFast>;
  let args: string[] = raw;
  try {
    args = takeTargetOptions(raw); // --host, --context (src/guides/remote.md)
    // `amux` alone prints a short overview of the common commands (exit 0), not the full reference (ADR 0023).
    if (args.length === 0) return (require('./overview.js') as typeof import('./overview.js')).overviewCommand();
    fast = parseFast(args);
  } catch (err) {
    // e.g. a bad --env: the same usage error commander would give; `exec ID -w DIR` gets the habit's hint
    const habit = (require('./habits.js') as typeof import('./habits.js')).habitHint(args);
    return report(habit === null ? err : new AmuxError('usage', habit));
  }
  if (fast) {
    // HOST:ID names a session of another context (src/guides/remote.md).
    const router = () => new (require('./refs.js') as typeof import('./refs.js')).Router();
    const routed = (ref: string) => router().route(ref);
    try {
      if (fast.command === 'version') {
        await writeOut(`${VERSION}\n`);
        return EXIT.ok;
      }
      if (fast.command === 'dial-stdio') return await (require('./dial-stdio.js') as typeof import('./dial-stdio.js')).dialStdio();
      if (fast.command === 'ps') return await (require('./commands/ps.js') as typeof import('./commands/ps.js')).psCommand(newClient(), fast.opts);
      if (fast.command === 'state') return await (require('./commands/state.js') as typeof import('./commands/state.js')).stateCommand(newClient, fast.state, fast.opts);
      if (fast.command === 'wait') return await (require('./commands/wait.js') as typeof import('./commands/wait.js')).waitCommand(router(), fast.refs, fast.opts);
      if (fast.command === 'send') {
        const target = routed(fast.ref);
        return await (require('./commands/send.js') as typeof import('./commands/send.js')).sendCommand(target.client, target.ref, fast.words, fast.opts);
      }
      if (fast.command === 'logs') {
        const target = routed(fast.ref);
        return await (require('./commands/logs.js') as typeof import('./commands/logs.js')).logsCommand(target.client, target.ref, fast.opts);
      }
      if (fast.command === 'exec') {
        const target = fast.ref.includes(':') ? routed(fast.ref) : { client: newClient(), ref: fast.ref };
        return await (require('./commands/exec.js') as typeof import('./commands/exec.js')).execCommand(target.client, target.ref, fast.cmd, fast.opts);
      }
      return await (require('./commands/run.js') as typeof import('./commands/run.js')).runCommand(newClient(), fast.cmd, fast.opts);
    } catch (err) {
      return report(err);
    }
  }
  return (require('./full.js') as typeof import('./full.js')).fullMain(argv);
}
