import { Command } from 'commander';
import { JOB_STATUSES } from '../../core/status.js';
import { examples } from '../hints.js';
import { durationOption, intOption, parseExecWords } from '../parse.js';
import { commandArg, formatOption, sessionArg, statusOption, type Wiring } from './shared.js';

/** Jobs in a shell session: exec, and their list (src/guides/sessions.md). */
export function addJobCommands(program: Command, { setExit, routed }: Wiring): void {
  program
    .command('exec')
    .description("run CMD as a job in a session's shell: foreground (default) streams its stdout and stderr and exits with its code; -b starts it in the background and prints its job id and pid")
    .addArgument(sessionArg('<id>', 'session id, name or prefix'))
    .addArgument(commandArg('the command, after -- (one argument: a shell line; several: an exact argv)'))
    .option('-i, --interactive', "pass stdin on to the job, EOF included, like docker exec -i (not with -b or --tty)")
    .option('-b, --background', 'run in a subshell next to everything else; print the job id and pid')
    .option('--timeout <dur>', 'kill the job after this long (status killed, exit 124)', durationOption('--timeout'))
    .option('--tty', 'run on the terminal (for programs that need one); output goes to the session log')
    .option('--json', 'print {jobId, exitCode, stdout, stderr, durationMs, stdoutTruncated, stderrTruncated, …} (foreground); the job (-b)')
    .addHelpText('after', '\nForeground jobs run in the main shell (cd, export, functions and aliases persist), one at a time per session.\nCtrl-C is passed on to a foreground job (twice: leave it running); SIGTERM and SIGHUP kill it with that signal, and exec exits with its end.\nWithout -i, a foreground job reads the session\'s terminal (answer it with amux send); with -i, it reads amux\'s stdin to its end: echo hi | amux exec -i ID -- \'read x; echo $x\'.')
    .addHelpText('after', examples(
      ["amux exec sh -- 'cd src && make'", "in the shell's own state; its exit code is ours"],
      ['amux exec sh -b -- npm run watch', 'in the background: prints JOBID PID'],
      ['amux exec -i sh -- sort < names.txt', 'our stdin is its stdin, EOF included'],
      ['amux exec sh --json -- git status', '{jobId, exitCode, stdout, stderr, …}'],
    ))
    .passThroughOptions()
    // Options also come after ID (src/guides/sessions.md), up to `--` or the command's first word: commander passes
    // everything after ID through, and parseExecWords reads them as the fast path does.
    .action(async (ref: string, words: string[], opts, command: Command) => {
      const parsed = parseExecWords(words, opts);
      if (!parsed) return command.help(); // -h or --help after ID
      setExit(await (require('../commands/exec.js') as typeof import('../commands/exec.js')).execCommand(...routed(ref), parsed.cmd, parsed.opts));
    });

  program
    .command('jobs')
    .description("a session's jobs, newest first")
    .addArgument(sessionArg('<id>', 'session id, name or prefix'))
    .addOption(statusOption('only these statuses: running, completed, failed, killed (comma-separated)', JOB_STATUSES))
    .option('--background', 'only background jobs')
    .option('-n <count>', 'at most this many', intOption('-n'))
    .option('--json', 'JSON array')
    .addOption(formatOption())
    .addHelpText('after', examples(
      ['amux jobs sh', 'JOB, STATUS, EXIT, MODE, PID, DURATION, COMMAND'],
      ["amux jobs sh --format '{{.ID}} {{.ExitCode}}'", 'your own columns'],
      ['amux jobs sh --status running --background', 'what runs in its background'],
      ['amux jobs sh -n 1 --json', 'the newest job as JSON'],
    ))
    .action(async (ref: string, opts) => setExit(await (require('../commands/jobs.js') as typeof import('../commands/jobs.js')).jobsCommand(...routed(ref), opts)));
}
