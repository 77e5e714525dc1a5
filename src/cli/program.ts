import { Command, Option } from 'commander';
import type { Client } from '../client/client.js';
import { parseSignal } from '../core/signals.js';
import { VERSION } from '../version.js';
import { durationOption, envOption, intOption, parseExecWords } from './parse.js';

/** Builds the commander program; each action resolves to the process exit code via `setExit`. */
export function buildProgram(setExit: (code: number) => void): Command {
  // Commands and the client are loaded when used (require: no ESM loader on the hot path), because
  // node start-up is the floor of every command.
  const client = (): Client => new (require('../client/client.js') as typeof import('../client/client.js')).Client();
  const program = new Command('amux')
    .description('Run commands and shells as tmux-backed sessions; know which are working, idle or done, with exact exit codes.')
    .version(VERSION, '-V, --version')
    .option('--no-color', 'never colour output (also: NO_COLOR)')
    .enablePositionalOptions()
    .showSuggestionAfterError(true)
    .addHelpText('after', '\nEnvironment: AMUX_HOME (state directory, default ~/.local/state/amux), AMUX_CLIENT_TIMEOUT (how long a request waits for an answer from the daemon, default 15s), NO_COLOR.\nSettings (also in AMUX_HOME/config.json; read when the daemon starts, shown by \'amux daemon status\'):\n  AMUX_MAX_LIVE, AMUX_IDLE_THRESHOLD, AMUX_LOG_CAP, AMUX_FINISHED_TTL, AMUX_HISTORY_RETENTION.\nSession references: full id, exact name, or unique id prefix.');

  program
    .command('run')
    .description('start a session running CMD (one argument: a shell line; several: an exact argv), or a shell; prints its id')
    .argument('[cmd...]', 'the command, after --')
    .option('-n, --name <name>', 'a unique name for the session')
    .option('-C, --cwd <dir>', 'working directory (must exist; default: here)')
    .option('-e, --env <KEY=VAL>', 'set an environment variable (repeatable)', envOption)
    .option('-w, --wait', "stream the command's output and exit with its exit code; Ctrl-C is passed on (twice: leave), SIGTERM/SIGHUP kill the session with that signal")
    .option('--timeout <dur>', 'end the session (status expired) when it has run this long: TERM, 5s, KILL', durationOption('--timeout'))
    .option('--idle-timeout <dur>', 'end the session (status expired) after this long without output (paused time does not count)', durationOption('--idle-timeout'))
    .option('--rm', 'remove the session once it has finished')
    .option('--json', 'print the session as JSON')
    .addHelpText('after', '\nWith maxLive set (AMUX_MAX_LIVE), a run beyond the limit is pending and starts when a slot frees (FIFO).')
    .passThroughOptions()
    .action(async (cmd: string[], opts) => setExit(await (require('./commands/run.js') as typeof import('./commands/run.js')).runCommand(client(), cmd, opts)));

  program
    .command('ps')
    .description('list sessions not removed, newest first')
    .option('-q, --quiet', 'ids only')
    .option('--json', 'JSON array')
    .option('--status <list>', 'only these statuses (comma-separated)')
    .option('--no-trunc', 'do not shorten commands')
    .option('--no-color', 'never colour the status (also: NO_COLOR)')
    .action(async (opts) => setExit(await (require('./commands/ps.js') as typeof import('./commands/ps.js')).psCommand(client(), opts)));

  program
    .command('top')
    .description('a full-screen live dashboard: sessions with status, CPU and memory, the selected one\'s screen; keys to attach, follow logs, send, pause, kill, remove, filter (? for help)')
    .option('--no-color', 'never colour (also: NO_COLOR)')
    .addHelpText('after', '\nKeys: ↑/↓ j/k select, Enter attach (C-b d comes back), l follow logs, s send a line, p pause/resume, K kill (y/n), d remove, / filter, ? help, q quit.\nNeeds a terminal (exit 2 without); exits 3 when the daemon stops.')
    .action(async () => setExit(await (require('./commands/top.js') as typeof import('./commands/top.js')).topCommand()));

  program
    .command('inspect')
    .description('the whole record as JSON: session, jobs, recent events')
    .argument('<id>', 'session id, name or unique prefix')
    .action(async (ref: string) => setExit(await (require('./commands/inspect.js') as typeof import('./commands/inspect.js')).inspectCommand(client(), ref)));

  program
    .command('logs')
    .description('output of a session (plain text; --raw for exact bytes; --screen for what the pane shows)')
    .argument('<id>', 'session id, name, unique prefix, or job id job-<id>-<n>')
    .option('-f, --follow', 'keep printing until the session (or job) finishes')
    .option('--stdout', "a job's stdout only (jobs run without --tty)")
    .option('--stderr', "a job's stderr only")
    .option('-n, --tail <lines>', 'only the last N lines', intOption('--tail'))
    .option('--raw', 'exact bytes, escape sequences included')
    .option('--screen', 'what the pane shows right now')
    .option('--since-offset <bytes>', 'start at this absolute byte offset', intOption('--since-offset'))
    .option('--limit <bytes>', 'at most this many bytes', intOption('--limit'))
    .option('--json', 'one object {offset, nextOffset, truncated, encoding, data} (for paging; data is base64 when --raw bytes are not UTF-8)')
    .action(async (ref: string, opts) => setExit(await (require('./commands/logs.js') as typeof import('./commands/logs.js')).logsCommand(client(), ref, opts)));

  program
    .command('wait')
    .description('block until all have ended (or reached --until); exit with the first non-zero exit code (124 on --timeout)')
    .argument('<ids...>', 'session ids, names or prefixes, or job ids job-<id>-<n>')
    .option('--until <state>', 'exited (default), idle, working, or output:REGEX (sessions); returns at once when it already holds; exit 1 when a session ended without reaching it')
    .option('--after <event-id>', 'only a change after this event counts (a previous --json cursor, a send receipt eventId)', intOption('--after'))
    .option('--any', 'return when the first target gets there')
    .option('--since-offset <bytes>', 'output:REGEX only: search the output from this log offset (a send receipt offset) instead of all of it and the screen', intOption('--since-offset'))
    .option('--timeout <dur>', 'give up after this long (exit 124)', durationOption('--timeout'))
    .option('--json', 'print [{id,status,exitCode,signal,reason,error,reached,event,match,logOffset,cursor}]')
    .action(async (refs: string[], opts) => setExit(await (require('./commands/wait.js') as typeof import('./commands/wait.js')).waitCommand(client(), refs, opts)));

  program
    .command('kill')
    .description('signal every process of the sessions, SIGKILL survivors after --grace, close them (status stopped); a job id kills only that job (status killed; the shell lives on)')
    .argument('<ids...>', 'session ids, names or prefixes, or job ids job-<id>-<n>')
    .addOption(new Option('-s, --signal <sig>', 'signal name or number').default('TERM').argParser((v) => parseSignal(v)))
    .option('--grace <dur>', 'time before SIGKILL (default 5s)', durationOption('--grace'))
    .action(async (refs: string[], opts) => setExit(await (require('./commands/kill-rm.js') as typeof import('./commands/kill-rm.js')).killCommand(client(), refs, opts)));

  program
    .command('rm')
    .description('remove finished sessions (history rows stay); -f kills live ones first')
    .argument('<ids...>', 'session ids, names or prefixes')
    .option('-f, --force', 'kill live sessions, then remove them')
    .action(async (refs: string[], opts) => setExit(await (require('./commands/kill-rm.js') as typeof import('./commands/kill-rm.js')).rmCommand(client(), refs, opts)));

  program
    .command('send')
    .description('type TEXT into the session, then Enter; text with newlines goes in as one paste (bracketed when the program asked for it)')
    .argument('<id>', 'session id, name or prefix')
    .argument('[text...]', 'text (words joined by spaces), or key names with --keys')
    .option('--no-enter', 'do not press Enter after the text')
    .option('--keys', 'the words are tmux key names, e.g. C-c Up Enter')
    .option('--when <when>', 'idle: hold the text until the session is idle (waiting for input), instead of typing into a busy program')
    .option('--timeout <dur>', 'with --when idle: give up after this long, typing nothing (exit 124)', durationOption('--timeout'))
    .option('--json', 'print the receipt {delivered, offset, eventId, heldMs, pasted, sessionId}: read the reply from offset, or wait --after eventId')
    .addHelpText('after', '\nText that starts with - goes after --: amux send ID -- -n')
    .action(async (ref: string, words: string[], opts) => setExit(await (require('./commands/send.js') as typeof import('./commands/send.js')).sendCommand(client(), ref, words, opts)));

  program
    .command('attach')
    .description('attach this terminal to the session (detach with C-b d)')
    .argument('<id>', 'session id, name or prefix')
    .option('-r, --read-only', 'watch without typing')
    .action(async (ref: string, opts) => setExit(await (require('./commands/attach.js') as typeof import('./commands/attach.js')).attachCommand(client(), ref, opts)));

  program
    .command('exec')
    .description("run CMD as a job in a session's shell: foreground (default) streams its stdout and stderr and exits with its code; -b starts it in the background and prints its job id and pid")
    .argument('<id>', 'session id, name or prefix')
    .argument('[cmd...]', 'the command, after -- (one argument: a shell line; several: an exact argv)')
    .option('-i, --interactive', "pass stdin on to the job, EOF included, like docker exec -i (not with -b or --tty)")
    .option('-b, --background', 'run in a subshell next to everything else; print the job id and pid')
    .option('--timeout <dur>', 'kill the job after this long (status killed, exit 124)', durationOption('--timeout'))
    .option('--tty', 'run on the terminal (for programs that need one); output goes to the session log')
    .option('--json', 'print {jobId, exitCode, stdout, stderr, durationMs, stdoutTruncated, stderrTruncated, …} (foreground); the job (-b)')
    .addHelpText('after', '\nForeground jobs run in the main shell (cd, export, functions and aliases persist), one at a time per session.\nCtrl-C is passed on to a foreground job (twice: leave it running); SIGTERM and SIGHUP kill it with that signal, and exec exits with its end.\nWithout -i, a foreground job reads the session\'s terminal (answer it with amux send); with -i, it reads amux\'s stdin to its end: echo hi | amux exec -i ID -- \'read x; echo $x\'.')
    .passThroughOptions()
    // Options also come after ID (README "Commands"), up to `--` or the command's first word: commander passes
    // everything after ID through, and parseExecWords reads them as the fast path does.
    .action(async (ref: string, words: string[], opts, command: Command) => {
      const parsed = parseExecWords(words, opts);
      if (!parsed) return command.help(); // -h or --help after ID
      setExit(await (require('./commands/exec.js') as typeof import('./commands/exec.js')).execCommand(client(), ref, parsed.cmd, parsed.opts));
    });

  program
    .command('jobs')
    .description("a session's jobs, newest first")
    .argument('<id>', 'session id, name or prefix')
    .option('--status <list>', 'only these statuses: running, completed, failed, killed (comma-separated)')
    .option('--background', 'only background jobs')
    .option('-n <count>', 'at most this many', intOption('-n'))
    .option('--json', 'JSON array')
    .action(async (ref: string, opts) => setExit(await (require('./commands/jobs.js') as typeof import('./commands/jobs.js')).jobsCommand(client(), ref, opts)));

  program
    .command('events')
    .description('the event log as NDJSON, oldest first: state changes, jobs started and finished, input sent, timeouts, errors')
    .argument('[id]', 'only this session (id, name or unique prefix; a removed one by full id)')
    .option('-f, --follow', 'then print new events as they happen, until Ctrl-C or, with an ID, until the session is removed')
    .option('--since <dur>', 'only events of the last DUR (e.g. 90s, 2h)', durationOption('--since'))
    .action(async (ref: string | undefined, opts) => setExit(await (require('./commands/events.js') as typeof import('./commands/events.js')).eventsCommand(client(), ref, opts)));

  program
    .command('history')
    .description('sessions including removed ones, newest first')
    .option('--status <list>', 'only these statuses (comma-separated)')
    .option('--since <dur>', 'only sessions created in the last DUR (e.g. 1h, 7d)', durationOption('--since'))
    .option('-n <count>', 'at most this many', intOption('-n'))
    .option('--json', 'JSON array')
    .option('--no-trunc', 'do not shorten commands')
    .action(async (opts) => setExit(await (require('./commands/history.js') as typeof import('./commands/history.js')).historyCommand(client(), opts)));

  program
    .command('stats')
    .description('counts by status, average and p95 duration, failure and expiry rates, events per type')
    .option('--since <dur>', 'the window: sessions created and events written in the last DUR (default 24h)', durationOption('--since'))
    .option('--json', 'one JSON object')
    .action(async (opts) => setExit(await (require('./commands/stats.js') as typeof import('./commands/stats.js')).statsCommand(client(), opts)));

  program
    .command('pause')
    .description('stop every process of the sessions (SIGSTOP); status paused')
    .argument('<ids...>', 'session ids, names or prefixes')
    .action(async (refs: string[]) => setExit(await (require('./commands/lifecycle.js') as typeof import('./commands/lifecycle.js')).pauseCommand(client(), refs, 'pause')));

  program
    .command('resume')
    .description('continue every process of paused sessions (SIGCONT)')
    .argument('<ids...>', 'session ids, names or prefixes')
    .action(async (refs: string[]) => setExit(await (require('./commands/lifecycle.js') as typeof import('./commands/lifecycle.js')).pauseCommand(client(), refs, 'resume')));

  program
    .command('prune')
    .description('remove finished sessions (tmux session and files; history rows stay); prints their ids')
    .option('--older-than <dur>', 'only those that ended at least this long ago (default: all finished)', durationOption('--older-than'))
    .option('--json', 'print the removed sessions as a JSON array')
    .action(async (opts) => setExit(await (require('./commands/lifecycle.js') as typeof import('./commands/lifecycle.js')).pruneCommand(client(), opts)));

  program
    .command('mcp')
    .description('serve amux to AI agents: a Model Context Protocol server on stdin/stdout (tools run, exec, list, inspect, read_output, screen, send, wait, kill, remove, jobs; session resources)')
    .addHelpText('after', '\nRegister it with an MCP client as the command "amux" with the argument "mcp" (README "Agents").')
    .action(async () => setExit(await (require('./commands/mcp.js') as typeof import('./commands/mcp.js')).mcpCommand(client())));

  program
    .command('daemon')
    .description('manage the daemon: start, stop (sessions keep running), status (exit 3 when not running), run (foreground)')
    .argument('<action>', 'start | stop | status | run')
    .option('--json', 'status as JSON {pid, socket, version, uptimeMs, sessions, live, pending, settings}')
    .action(async (action: string, opts) => setExit(await (require('./commands/daemon.js') as typeof import('./commands/daemon.js')).daemonCommand(action, opts)));

  return program;
}
