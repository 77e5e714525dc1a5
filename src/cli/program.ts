import { Argument, Command, Option } from 'commander';
import type { Client } from '../client/client.js';
import { parseSignal, signalNames } from '../core/signals.js';
import { JOB_STATUSES, SESSION_STATUSES } from '../core/status.js';
import { VERSION } from '../version.js';
import { examples, hinted, type Hint } from './hints.js';
import { durationOption, envOption, intOption, parseExecWords } from './parse.js';

// What completion offers for arguments and option values (ADR 0021); commands and flags come from the definitions below.
const SESSIONS: Hint = { kind: 'sessions' };
const SESSIONS_OR_JOBS: Hint = { kind: 'sessions', jobs: true };
const sessionArg = (name: string, description: string) => hinted(new Argument(name, description), SESSIONS);
const targetArg = (name: string, description: string) => hinted(new Argument(name, description), SESSIONS_OR_JOBS);
const commandArg = (description: string) => hinted(new Argument('[cmd...]', description), { kind: 'command' });
const statusOption = (description: string, words: readonly string[] = SESSION_STATUSES) =>
  hinted(new Option('--status <list>', description), { kind: 'words', words, list: true });

/** The shells `amux completion` writes a script for (README "Shell completion"). */
export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;

/** Builds the commander program; each action resolves to the process exit code via `setExit`. */
export function buildProgram(setExit: (code: number) => void): Command {
  // Commands and the client are loaded when used (require: no ESM loader on the hot path), because
  // node start-up is the floor of every command.
  const client = (): Client => (require('./target.js') as typeof import('./target.js')).newClient();
  // References may name a host, HOST:ID (README "Remote hosts").
  const router = () => new (require('./refs.js') as typeof import('./refs.js')).Router();
  const routed = (ref: string): [Client, string] => {
    const r = router().route(ref);
    return [r.client, r.ref];
  };
  const program = new Command('amux')
    .description('Run commands and shells as tmux-backed sessions; know which are working, idle or done, with exact exit codes.')
    .version(VERSION, '-V, --version')
    .option('--no-color', 'never colour output (also: NO_COLOR)')
    .option('--host <url>', 'talk to the amux daemon of ssh://[user@]host[:port] over SSH (also: AMUX_HOST); before the command')
    .option('--context <name>', "talk to the daemon of this context ('amux context ls'; local: this machine); before the command")
    .enablePositionalOptions()
    .showSuggestionAfterError(true)
    .addHelpText('after', '\nEnvironment: AMUX_HOME (state directory, default ~/.local/state/amux), AMUX_CLIENT_TIMEOUT (how long a request waits for an answer from the daemon, default 15s), NO_COLOR.\nRemote hosts: AMUX_HOST (ssh://[user@]host[:port]), AMUX_CONTEXT (a context name), AMUX_REMOTE_PATH (amux on the far side), AMUX_CONNECT_TIMEOUT (ssh connect, default 10s), AMUX_SSH_CONFIG (an ssh config file, ssh -F), AMUX_SSH (the ssh program, default ssh).\nSettings (also in AMUX_HOME/config.json; read when the daemon starts, shown by \'amux daemon status\'):\n  AMUX_MAX_LIVE, AMUX_IDLE_THRESHOLD, AMUX_LOG_CAP, AMUX_FINISHED_TTL, AMUX_HISTORY_RETENTION.\nSession references: full id, exact name, or unique id prefix; HOST:ID on the host of context HOST. Shell completion: amux completion --help.')
    .addHelpText('after', examples(
      ['amux run -n web -- npm run dev', 'start a session named web; prints its id'],
      ['amux run -w -- make test', 'stream its output and exit with its exit code'],
      ['amux ps', 'what runs: working, idle, completed, failed, …'],
      ['amux logs -f web', 'follow its output'],
    ));

  program
    .command('run')
    .description('start a session running CMD (one argument: a shell line; several: an exact argv), or a shell; prints its id')
    .addArgument(commandArg('the command, after --'))
    .option('-n, --name <name>', 'a unique name for the session')
    .addOption(hinted(new Option('-C, --cwd <dir>', 'working directory (must exist; default: here)'), { kind: 'dirs' }))
    .option('-e, --env <KEY=VAL>', 'set an environment variable (repeatable)', envOption)
    .option('-w, --wait', "stream the command's output and exit with its exit code; Ctrl-C is passed on (twice: leave), SIGTERM/SIGHUP kill the session with that signal")
    .option('--timeout <dur>', 'end the session (status expired) when it has run this long: TERM, 5s, KILL', durationOption('--timeout'))
    .option('--idle-timeout <dur>', 'end the session (status expired) after this long without output (paused time does not count)', durationOption('--idle-timeout'))
    .option('--rm', 'remove the session once it has finished')
    .option('--json', 'print the session as JSON')
    .addHelpText('after', '\nWith maxLive set (AMUX_MAX_LIVE), a run beyond the limit is pending and starts when a slot frees (FIFO).')
    .addHelpText('after', examples(
      ['amux run -- make', 'start make in a session; prints its id'],
      ['amux run -w --rm -- npm test', 'stream its output, exit with its code, then remove it'],
      ["amux run -n web --idle-timeout 30m -- 'npm run dev'", 'a shell line; expires after 30m of silence'],
      ['amux run -n sh', 'a shell session, for amux exec and amux send'],
    ))
    .passThroughOptions()
    .action(async (cmd: string[], opts) => setExit(await (require('./commands/run.js') as typeof import('./commands/run.js')).runCommand(client(), cmd, opts)));

  program
    .command('ps')
    .description('list sessions not removed, newest first')
    .option('-q, --quiet', 'ids only')
    .option('--json', 'JSON array')
    .addOption(statusOption('only these statuses (comma-separated)'))
    .option('--no-trunc', 'do not shorten commands')
    .option('--no-color', 'never colour the status (also: NO_COLOR)')
    .option('--context <list>', 'the sessions of these contexts (comma-separated), in one table with a HOST column')
    .option('--all-contexts', 'the sessions of every context (amux context ls)')
    .addHelpText('after', '\nWith --context or --all-contexts, hosts are asked at once; one that fails is reported on stderr (and in --json: {sessions, errors}) and the others are listed; exit 1 only if all failed. -q prints HOST:ID.')
    .addHelpText('after', examples(
      ['amux ps', 'ID, NAME, STATUS, EXIT, AGE, COMMAND'],
      ['amux ps --status working,idle', 'only the live ones'],
      ['amux rm $(amux ps -q --status completed)', 'remove the sessions that succeeded'],
    ))
    .action(async (opts) => setExit(await (require('./commands/ps.js') as typeof import('./commands/ps.js')).psCommand(client(), opts)));

  program
    .command('top')
    .description('a full-screen live dashboard: sessions with status, CPU and memory, the selected one\'s screen; keys to attach, follow logs, send, pause, kill, remove, filter (? for help)')
    .option('--no-color', 'never colour (also: NO_COLOR)')
    .addHelpText('after', `\nKeys: ↑/↓ j/k select, Enter attach (C-b d comes back), l follow logs, s send a line, p pause/resume, K kill (y/n), d remove, / filter, ? help, q quit.\nNeeds a terminal (exit 2 without); exits 3 when the daemon stops.\n${examples(
      ['amux top', 'watch every session; ? lists the keys'],
      ['amux top --no-color', 'the same without colour (as NO_COLOR=1)'],
    )}`)
    .action(async () => setExit(await (require('./commands/top.js') as typeof import('./commands/top.js')).topCommand()));

  program
    .command('inspect')
    .description('the whole record: session, jobs, recent events; JSON, or tables on a terminal')
    .addArgument(sessionArg('<id>', 'session id, name or unique prefix'))
    .option('--json', 'JSON, also on a terminal (the default when stdout is not a terminal)')
    .addHelpText('after', examples(
      ['amux inspect web', 'tables on a terminal, JSON in a pipe'],
      ['amux inspect web --json', 'always JSON: {session, jobs, events, lastOutput}'],
      ['amux inspect web | jq .session.exitCode', 'one field, for a script'],
    ))
    .action(async (ref: string, opts) => setExit(await (require('./commands/inspect.js') as typeof import('./commands/inspect.js')).inspectCommand(...routed(ref), opts)));

  program
    .command('logs')
    .description('output of a session (plain text; --raw for exact bytes; --screen for what the pane shows)')
    .addArgument(targetArg('<id>', 'session id, name, unique prefix, or job id job-<id>-<n>'))
    .option('-f, --follow', 'keep printing until the session (or job) finishes')
    .option('--stdout', "a job's stdout only (jobs run without --tty)")
    .option('--stderr', "a job's stderr only")
    .option('-n, --tail <lines>', 'only the last N lines', intOption('--tail'))
    .option('--raw', 'exact bytes, escape sequences included')
    .option('--screen', 'what the pane shows right now')
    .option('--since-offset <bytes>', 'start at this absolute byte offset', intOption('--since-offset'))
    .option('--limit <bytes>', 'at most this many bytes', intOption('--limit'))
    .option('--json', 'one object {offset, nextOffset, truncated, encoding, data} (for paging; data is base64 when --raw bytes are not UTF-8)')
    .addHelpText('after', examples(
      ['amux logs -f web', 'print its output as it comes, until it ends'],
      ['amux logs -n 20 web', 'the last 20 lines'],
      ['amux logs --screen web', 'what its terminal shows now'],
      ['amux logs job-3f9a01bc-2 --stderr', "a job's stderr"],
    ))
    .action(async (ref: string, opts) => setExit(await (require('./commands/logs.js') as typeof import('./commands/logs.js')).logsCommand(...routed(ref), opts)));

  program
    .command('wait')
    .description('block until all have ended (or reached --until); exit with the first non-zero exit code (124 on --timeout)')
    .addArgument(targetArg('<ids...>', 'session ids, names or prefixes, or job ids job-<id>-<n>'))
    .addOption(hinted(
      new Option('--until <state>', 'exited (default), idle, working, or output:REGEX (sessions); returns at once when it already holds; exit 1 when a session ended without reaching it'),
      { kind: 'words', words: ['exited', 'idle', 'working', 'output:'] },
    ))
    .option('--after <event-id>', 'only a change after this event counts (a previous --json cursor, a send receipt eventId)', intOption('--after'))
    .option('--any', 'return when the first target gets there')
    .option('--since-offset <bytes>', 'output:REGEX only: search the output from this log offset (a send receipt offset) instead of all of it and the screen', intOption('--since-offset'))
    .option('--timeout <dur>', 'give up after this long (exit 124)', durationOption('--timeout'))
    .option('--json', 'print [{id,status,exitCode,signal,reason,error,reached,event,match,logOffset,cursor}]')
    .addHelpText('after', examples(
      ['amux wait $id; echo $?', "block until it ends; exit with its exit code"],
      ['amux wait --until idle repl', 'until it waits for input'],
      ["amux wait --until 'output:listening on' --timeout 1m web", 'until that line appears (exit 124 after 1m)'],
      ['amux wait --any build test', 'until the first of the two ends'],
    ))
    .action(async (refs: string[], opts) => setExit(await (require('./commands/wait.js') as typeof import('./commands/wait.js')).waitCommand(router(), refs, opts)));

  program
    .command('kill')
    .description('signal every process of the sessions, SIGKILL survivors after --grace, close them (status stopped); a job id kills only that job (status killed; the shell lives on)')
    .addArgument(targetArg('<ids...>', 'session ids, names or prefixes, or job ids job-<id>-<n>'))
    .addOption(hinted(new Option('-s, --signal <sig>', 'signal name or number').default('TERM').argParser((v) => parseSignal(v)), { kind: 'words', words: signalNames() }))
    .option('--grace <dur>', 'time before SIGKILL (default 5s)', durationOption('--grace'))
    .addHelpText('after', examples(
      ['amux kill web', 'TERM to all its processes, KILL after 5s; status stopped'],
      ['amux kill -s INT --grace 30s web', 'as Ctrl-C, with 30s to clean up'],
      ['amux kill job-3f9a01bc-2', 'only that job; the shell lives on'],
    ))
    .action(async (refs: string[], opts) => setExit(await (require('./commands/kill-rm.js') as typeof import('./commands/kill-rm.js')).killCommand(router(), refs, opts)));

  program
    .command('rm')
    .description('remove finished sessions (history rows stay); -f kills live ones first')
    .addArgument(sessionArg('<ids...>', 'session ids, names or prefixes'))
    .option('-f, --force', 'kill live sessions, then remove them')
    .addHelpText('after', examples(
      ['amux rm 3f9a01bc', 'remove a finished session (amux history still lists it)'],
      ['amux rm -f web', 'kill it first if it still runs'],
    ))
    .action(async (refs: string[], opts) => setExit(await (require('./commands/kill-rm.js') as typeof import('./commands/kill-rm.js')).rmCommand(router(), refs, opts)));

  program
    .command('send')
    .description('type TEXT into the session, then Enter; text with newlines goes in as one paste (bracketed when the program asked for it)')
    .addArgument(sessionArg('<id>', 'session id, name or prefix'))
    .argument('[text...]', 'text (words joined by spaces), or key names with --keys')
    .option('--no-enter', 'do not press Enter after the text')
    .option('--keys', 'the words are tmux key names, e.g. C-c Up Enter')
    .addOption(hinted(new Option('--when <when>', 'idle: hold the text until the session is idle (waiting for input), instead of typing into a busy program'), { kind: 'words', words: ['idle'] }))
    .option('--timeout <dur>', 'with --when idle: give up after this long, typing nothing (exit 124)', durationOption('--timeout'))
    .option('--json', 'print the receipt {delivered, offset, eventId, heldMs, pasted, sessionId}: read the reply from offset, or wait --after eventId')
    .addHelpText('after', '\nText that starts with - goes after --: amux send ID -- -n')
    .addHelpText('after', examples(
      ["amux send repl 'print(1 + 1)'", 'type a line and press Enter'],
      ['amux send --keys repl C-c', 'press Ctrl-C'],
      ["amux send --when idle --timeout 1m repl 'exit()'", 'type it once the program waits for input'],
      ['amux send --json repl 2+2', 'the receipt: the reply starts at its offset'],
    ))
    .action(async (ref: string, words: string[], opts) => setExit(await (require('./commands/send.js') as typeof import('./commands/send.js')).sendCommand(...routed(ref), words, opts)));

  program
    .command('attach')
    .description('attach this terminal to the session (detach with C-b d)')
    .addArgument(sessionArg('<id>', 'session id, name or prefix'))
    .option('-r, --read-only', 'watch without typing')
    .addHelpText('after', examples(
      ['amux attach web', 'a real terminal on it; C-b d detaches'],
      ['amux attach -r web', 'watch without typing'],
    ))
    .action(async (ref: string, opts) => setExit(await (require('./commands/attach.js') as typeof import('./commands/attach.js')).attachCommand(...routed(ref), opts)));

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
    // Options also come after ID (README "Commands"), up to `--` or the command's first word: commander passes
    // everything after ID through, and parseExecWords reads them as the fast path does.
    .action(async (ref: string, words: string[], opts, command: Command) => {
      const parsed = parseExecWords(words, opts);
      if (!parsed) return command.help(); // -h or --help after ID
      setExit(await (require('./commands/exec.js') as typeof import('./commands/exec.js')).execCommand(...routed(ref), parsed.cmd, parsed.opts));
    });

  program
    .command('jobs')
    .description("a session's jobs, newest first")
    .addArgument(sessionArg('<id>', 'session id, name or prefix'))
    .addOption(statusOption('only these statuses: running, completed, failed, killed (comma-separated)', JOB_STATUSES))
    .option('--background', 'only background jobs')
    .option('-n <count>', 'at most this many', intOption('-n'))
    .option('--json', 'JSON array')
    .addHelpText('after', examples(
      ['amux jobs sh', 'JOB, STATUS, EXIT, MODE, PID, DURATION, COMMAND'],
      ['amux jobs sh --status running --background', 'what runs in its background'],
      ['amux jobs sh -n 1 --json', 'the newest job as JSON'],
    ))
    .action(async (ref: string, opts) => setExit(await (require('./commands/jobs.js') as typeof import('./commands/jobs.js')).jobsCommand(...routed(ref), opts)));

  program
    .command('events')
    .description('the event log as NDJSON, oldest first: state changes, jobs started and finished, input sent, timeouts, errors')
    .addArgument(sessionArg('[id]', 'only this session (id, name or unique prefix; a removed one by full id)'))
    .option('-f, --follow', 'then print new events as they happen, until Ctrl-C or, with an ID, until the session is removed')
    .option('--since <dur>', 'only events of the last DUR (e.g. 90s, 2h)', durationOption('--since'))
    .addHelpText('after', examples(
      ['amux events web', 'its events so far, one JSON object a line'],
      ['amux events -f', 'every new event, as it happens'],
      ['amux events --since 1h | grep state_changed', 'the state changes of the last hour'],
    ))
    .action(async (ref: string | undefined, opts) => setExit(await (require('./commands/events.js') as typeof import('./commands/events.js')).eventsCommand(...(ref === undefined ? ([client(), undefined] as [Client, string | undefined]) : routed(ref)), opts)));

  program
    .command('history')
    .description('sessions including removed ones, newest first')
    .addOption(statusOption('only these statuses (comma-separated)'))
    .option('--since <dur>', 'only sessions created in the last DUR (e.g. 1h, 7d)', durationOption('--since'))
    .option('-n <count>', 'at most this many', intOption('-n'))
    .option('--json', 'JSON array')
    .option('--no-trunc', 'do not shorten commands')
    .addHelpText('after', examples(
      ['amux history', 'the columns of ps, plus DURATION and REMOVED'],
      ['amux history --status failed,expired --since 1d', 'what went wrong today'],
      ['amux history -n 20 --json', 'the newest 20, as JSON'],
    ))
    .action(async (opts) => setExit(await (require('./commands/history.js') as typeof import('./commands/history.js')).historyCommand(client(), opts)));

  program
    .command('stats')
    .description('counts by status, average and p95 duration, failure and expiry rates, events per type')
    .option('--since <dur>', 'the window: sessions created and events written in the last DUR (default 24h)', durationOption('--since'))
    .option('--json', 'one JSON object')
    .addHelpText('after', examples(
      ['amux stats', 'the last 24 hours'],
      ['amux stats --since 7d', 'the last week'],
      ['amux stats --json', '{total, byStatus, avgDurationMs, p95DurationMs, failureRate, …}'],
    ))
    .action(async (opts) => setExit(await (require('./commands/stats.js') as typeof import('./commands/stats.js')).statsCommand(client(), opts)));

  program
    .command('pause')
    .description('stop every process of the sessions (SIGSTOP); status paused')
    .addArgument(sessionArg('<ids...>', 'session ids, names or prefixes'))
    .addHelpText('after', examples(
      ['amux pause build', 'SIGSTOP: it keeps its maxLive slot and refuses exec'],
      ['amux pause build test', 'several at once'],
    ))
    .action(async (refs: string[]) => setExit(await (require('./commands/lifecycle.js') as typeof import('./commands/lifecycle.js')).pauseCommand(router(), refs, 'pause')));

  program
    .command('resume')
    .description('continue every process of paused sessions (SIGCONT)')
    .addArgument(sessionArg('<ids...>', 'session ids, names or prefixes'))
    .addHelpText('after', examples(
      ['amux resume build', 'SIGCONT: working again'],
      ['amux resume $(amux ps -q --status paused)', 'every paused session'],
    ))
    .action(async (refs: string[]) => setExit(await (require('./commands/lifecycle.js') as typeof import('./commands/lifecycle.js')).pauseCommand(router(), refs, 'resume')));

  program
    .command('prune')
    .description('remove finished sessions (tmux session and files; history rows stay); prints their ids')
    .option('--older-than <dur>', 'only those that ended at least this long ago (default: all finished)', durationOption('--older-than'))
    .option('--json', 'print the removed sessions as a JSON array')
    .addHelpText('after', examples(
      ['amux prune', 'remove every finished session'],
      ['amux prune --older-than 1h', 'only those that ended over an hour ago'],
    ))
    .action(async (opts) => setExit(await (require('./commands/lifecycle.js') as typeof import('./commands/lifecycle.js')).pruneCommand(client(), opts)));

  program
    .command('mcp')
    .description('serve amux to AI agents: a Model Context Protocol server on stdin/stdout (tools run, exec, list, inspect, read_output, screen, send, wait, kill, remove, jobs; session resources)')
    .addHelpText('after', '\nRegister it with an MCP client as the command "amux" with the argument "mcp" (README "Agents"),\ne.g. for Claude Code: claude mcp add amux -- amux mcp')
    .addHelpText('after', examples(
      ['amux mcp', 'serve on stdin/stdout: what an MCP client runs'],
      ['AMUX_HOME=/tmp/agent-1 amux mcp', 'a separate amux (daemon, sessions, history) for one agent'],
    ))
    .action(async () => setExit(await (require('./commands/mcp.js') as typeof import('./commands/mcp.js')).mcpCommand(client())));

  program
    .command('context')
    .description("named hosts (README \"Remote hosts\"): add NAME ssh://[user@]host[:port], ls, rm NAME, use NAME (the default for every command; 'local' is this machine)")
    .addArgument(hinted(new Argument('<action>', 'add | ls | rm | use'), { kind: 'words', words: ['add', 'ls', 'rm', 'use'] }))
    .argument('[args...]', 'NAME, and for add the ssh:// address')
    .option('--json', 'ls as JSON [{name, host, current}]')
    .addHelpText('after', examples(
      ['amux context add gpu ssh://me@gpu-box:2222', 'name a host; then: amux --context gpu run -- nvidia-smi'],
      ['amux context ls', 'the contexts, the current one marked'],
      ['amux context use gpu', "every command on it from now on ('amux context use local': back)"],
      ['amux context rm gpu', 'forget it'],
    ))
    .action(async (action: string, args: string[], opts) => setExit(await (require('./commands/context.js') as typeof import('./commands/context.js')).contextCommand(action, args, opts)));

  program
    .command('daemon')
    .description('manage the daemon: start, stop (sessions keep running), status (exit 3 when not running), run (foreground), dial-stdio (bridge stdin/stdout to it, for remote clients)')
    .addArgument(hinted(new Argument('<action>', 'start | stop | status | run | dial-stdio'), { kind: 'words', words: ['start', 'stop', 'status', 'run', 'dial-stdio'] }))
    .option('--json', 'status as JSON {pid, socket, version, uptimeMs, sessions, live, pending, settings}')
    .addHelpText('after', examples(
      ['amux daemon status', 'pid, version, sessions and the settings in force'],
      ['amux daemon stop', 'stop it gracefully; sessions keep running'],
      ['amux daemon status --json', 'the same as JSON (exit 3 when not running)'],
    ))
    .action(async (action: string, opts) => setExit(await (require('./commands/daemon.js') as typeof import('./commands/daemon.js')).daemonCommand(action, opts)));

  program
    .command('completion')
    .description('print the shell completion script for bash, zsh or fish (commands, flags, and session and job ids from the running daemon)')
    .addArgument(hinted(new Argument('<shell>', COMPLETION_SHELLS.join(' | ')), { kind: 'words', words: COMPLETION_SHELLS }))
    .addHelpText('after', examples(
      ['amux completion bash > ~/.local/share/bash-completion/completions/amux', 'bash, for every new shell'],
      ['amux completion zsh > ~/.zfunc/_amux', 'zsh, with fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc'],
      ['amux completion fish > ~/.config/fish/completions/amux.fish', 'fish'],
    ))
    .action(async (shell: string) => setExit(await (require('./completion.js') as typeof import('./completion.js')).completionCommand(shell)));

  return program;
}
