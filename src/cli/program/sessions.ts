import { Argument, Option, type Command } from 'commander';
import { DECLARED_STATES } from '../../core/attention.js';
import { parseKillSignal, signalNames } from '../../core/signals.js';
import { SESSION_STATUSES } from '../../core/status.js';
import { WORKING_REASONS_TEXT } from '../../core/working-reasons.js';
import { AmuxError } from '../../errors.js';
import { examples, hinted } from '../hints.js';
import { parseLabelArg } from '../../core/labels.js';
import { durationOption, envOption, intOption } from '../parse.js';
import { commandArg, filterOption, formatOption, sessionArg, statusOption, targetArg, type Wiring } from './shared.js';
import { MAX_WAIT_IDS } from '../../protocol/wait.js';

/** Sessions: start, list, watch, inspect, read, wait for, end, remove, type into, attach (src/guides/sessions.md). */
export function addSessionCommands(program: Command, { setExit, client, router, routed }: Wiring): void {
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
    .option('-l, --label <KEY=VAL>', 'a label (repeatable): ps --filter label=KEY=VAL finds it', (v: string, prev?: Record<string, string>) => parseLabelArg(v, prev))
    .addOption(hinted(new Option('--restart <policy>', 'no (default), on-failure[:N] (after a non-zero exit, at most N times in a row) or always (after any end but kill): backoff 1s doubling to 60s'), { kind: 'words', words: ['no', 'on-failure', 'always'] }))
    .option('-g, --group <name>', 'queue it in this group (amux group add NAME --parallel N): it also waits for a slot of the group')
    .option('--after <ids>', 'start once these sessions (comma-separated) completed with exit 0; fail unstarted if one ended otherwise')
    .option('--on-end <cmd>', 'a shell command run when the session ends, with AMUX_ID, AMUX_NAME, AMUX_STATUS, AMUX_EXIT_CODE set')
    .option('--delay <dur>', 'start no earlier than this long from now (pending until then)', durationOption('--delay'))
    .option('--json', 'print the session as JSON; with -w, only the end result {id, status, exitCode, …, output} (the output, as plain text, goes into it instead of streaming)')
    .addHelpText('after', '\nWith maxLive set (AMUX_MAX_LIVE), a run beyond the limit is pending and starts when a slot frees (FIFO).')
    .addHelpText('after', examples(
      ['amux run -- make', 'start make in a session; prints its id'],
      ['amux run -w --rm -- npm test', 'stream its output, exit with its code, then remove it'],
      ["amux run -n web --idle-timeout 30m -- 'npm run dev'", 'a shell line; expires after 30m of silence'],
      ['amux run -n worker --restart on-failure:5 -l team=ci -- ./worker.sh', 'restarted after a failure, at most 5 times in a row; labelled'],
    ))
    .passThroughOptions()
    .action(async (cmd: string[], opts) => setExit(await (require('../commands/run.js') as typeof import('../commands/run.js')).runCommand(client(), cmd, opts)));

  program
    .command('ps')
    .description('list sessions not removed, newest first')
    .option('-q, --quiet', 'ids only')
    .option('--json', 'JSON array')
    .addOption(statusOption('only these statuses (comma-separated; live and finished stand for their sets)', [...SESSION_STATUSES, 'live', 'finished']))
    .addOption(filterOption())
    .option('--stack <name>', "only the sessions of this stack (amux up): the same as --filter label=stack=NAME")
    .option('-n, --last <count>', 'only the newest N', intOption('-n'))
    .option('--usage', 'add CPU% (over the last look, of one core) and MEM (resident) of each live session')
    .addOption(formatOption())
    .option('--attention', "only sessions that ask for a person (a bell, a notification, 'amux state waiting'); the table marks them with ! after the status")
    .option('--no-trunc', 'do not shorten commands')
    .option('--no-color', 'never colour the status (also: NO_COLOR)')
    .option('--context <list>', 'the sessions of these contexts (comma-separated), in one table with a HOST column')
    .option('--all-contexts', 'the sessions of every context (amux context ls)')
    .addHelpText('after', `\nREASON (in --json: reason) says why a live session has its status: ${WORKING_REASONS_TEXT} (amux help statuses).`)
    .addHelpText('after', '\nWith --context or --all-contexts, hosts are asked at once; one that fails is reported on stderr (and in --json: {sessions, errors}) and the others are listed; exit 1 only if all failed. -q prints HOST:ID.')
    .addHelpText('after', examples(
      ['amux ps --status idle --attention', 'the idle ones that ask for you (idle!)'],
      ["amux ps --filter label=team=ci --filter 'name=web*'", 'by label and name'],
      ["amux ps --format '{{.ID}}\\t{{.Status}}\\t{{.Title}}'", 'your own columns (table TEMPLATE adds a header); Title: the window title its program set'],
      ['amux rm $(amux ps -q --status completed)', 'remove the sessions that succeeded'],
    ))
    .action(async (opts) => setExit(await (require('../commands/ps.js') as typeof import('../commands/ps.js')).psCommand(client(), opts)));

  program
    .command('top')
    .description('a full-screen live dashboard: sessions with status, CPU and memory, the selected one\'s screen; keys to attach, follow logs, send, pause, kill, remove, filter (? for help)')
    .option('--no-color', 'never colour (also: NO_COLOR)')
    .addHelpText('after', `\nREASON: ${WORKING_REASONS_TEXT}.`)
    .addHelpText('after', `\nKeys: ↑/↓ j/k select, Enter attach (C-b d comes back), l follow logs, s send a line, p pause/resume, K kill (y/n), d remove, / filter, ? help, q quit.\nNeeds a terminal (exit 2 without); exits 3 when the daemon stops.\n${examples(
      ['amux top', 'watch every session; ? lists the keys'],
      ['amux top --no-color', 'the same without colour (as NO_COLOR=1)'],
    )}`)
    .action(async () => setExit(await (require('../commands/top.js') as typeof import('../commands/top.js')).topCommand()));

  program
    .command('inspect')
    .description('the whole record: session, jobs, recent events; JSON, or tables on a terminal')
    .addArgument(sessionArg('<id>', 'session id, name or unique prefix'))
    .option('--json', 'JSON, also on a terminal (the default when stdout is not a terminal)')
    .addOption(formatOption())
    .addHelpText('after', examples(
      ['amux inspect web', 'tables on a terminal, JSON in a pipe'],
      ['amux inspect web --json', 'always JSON: {session, jobs, events, lastOutput}'],
      ['amux inspect web | jq .session.exitCode', 'one field, for a script'],
      ["amux inspect --format '{{.Status}} {{.ExitCode}}' web", 'fields of the session (and jobs, events, lastOutput)'],
    ))
    .action(async (ref: string, opts) => setExit(await (require('../commands/inspect.js') as typeof import('../commands/inspect.js')).inspectCommand(...routed(ref), opts)));

  program
    .command('logs')
    .description('output of a session (plain text; --raw for exact bytes; --screen for what the pane shows)')
    .addArgument(targetArg('[id]', 'session id, name, unique prefix, or job id job-<id>-<n>'))
    .option('-f, --follow', 'keep printing until the session (or job) finishes')
    .option('--stack <name>', 'the output of every session of this stack (amux up), each line prefixed by its session; with -f, merged as it comes')
    .option('--stdout', "a job's stdout only (jobs run without --tty)")
    .option('--stderr', "a job's stderr only")
    .option('-n, --tail <lines>', 'only the last N lines', intOption('--tail'))
    .option('--raw', 'exact bytes, escape sequences included')
    .option('--screen', 'what the pane shows right now')
    .option('--since-offset <bytes>', 'start at this absolute byte offset', intOption('--since-offset'))
    .option('--limit <bytes>', 'at most this many bytes (one escape sequence or character longer than that is a page of its own); a page never splits one', intOption('--limit'))
    .option('--json', 'one object {offset, nextOffset, more, truncated, encoding, data}: page while more is true; truncated: older bytes were dropped (data is base64 when --raw bytes are not UTF-8)')
    .option('--since <time>', 'output written since TIME: a duration before now (10m), an ISO time, or epoch ms; exact to about a second')
    .option('--until <time>', 'output written before TIME (same forms); not with -f')
    .option('-t, --timestamps', 'each line after the time it was written by (UTC, to the second); with -f, new lines stamped as they arrive')
    .addHelpText('after', examples(
      ['amux logs -f web', 'print its output as it comes, until it ends'],
      ['amux logs --since 10m -f -t web', 'what it wrote in the last 10 minutes, then what comes, each line with its time'],
      ['amux logs --screen web', 'what its terminal shows now'],
      ['amux logs job-3f9a01bc-2 --stderr', "a job's stderr"],
    ))
    .action(async (ref: string | undefined, opts) => {
      if (opts.stack !== undefined) return setExit(await (require('../commands/stack-logs.js') as typeof import('../commands/stack-logs.js')).stackLogsCommand(client(), ref, opts));
      if (ref === undefined) throw new AmuxError('usage', "logs needs a session id (or --stack NAME): amux logs ID");
      setExit(await (require('../commands/logs.js') as typeof import('../commands/logs.js')).logsCommand(...routed(ref), opts));
    });

  program
    .command('wait')
    .description('block until all have ended (or reached --until); exit with the first non-zero exit code (124 on --timeout)')
    .addArgument(targetArg('<ids...>', `session ids, names or prefixes, or job ids job-<id>-<n> (at most ${MAX_WAIT_IDS})`))
    .addOption(hinted(
      new Option('--until <state>', 'exited (default), idle, working, attention (a bell or notification, amux state waiting), waiting or ready (declared with amux state, or by an OSC 7501 report), started (no longer pending), or output:REGEX (sessions); returns at once when it already holds; exit 1 when a session ended without reaching it; exit 2 when one match of REGEX takes over 5s (one without backreferences and lookaround never does)'),
      { kind: 'words', words: ['exited', 'idle', 'working', 'attention', 'waiting', 'ready', 'started', 'output:'] },
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
      ['amux wait --any --until attention build test', 'until the first of the two asks for you (a bell, a notification, amux state waiting)'],
    ))
    .action(async (refs: string[], opts) => setExit(await (require('../commands/wait.js') as typeof import('../commands/wait.js')).waitCommand(router(), refs, opts)));

  program
    .command('kill')
    .description('signal every process of the sessions, SIGKILL survivors after --grace, close them (status stopped); a job id kills only that job (status killed; the shell lives on)')
    .addArgument(targetArg('<ids...>', 'session ids, names or prefixes, or job ids job-<id>-<n>'))
    .addOption(hinted(new Option('-s, --signal <sig>', 'signal name or number that ends a process (not STOP or CONT: see pause, resume)').default('TERM').argParser((v) => parseKillSignal(v)), { kind: 'words', words: signalNames() }))
    .option('--grace <dur>', 'time before SIGKILL (default 5s)', durationOption('--grace'))
    .addHelpText('after', examples(
      ['amux kill web', 'TERM to all its processes, KILL after 5s; status stopped'],
      ['amux kill -s INT --grace 30s api', 'as Ctrl-C, with 30s to clean up'],
      ['amux kill job-3f9a01bc-2', 'only that job; the shell lives on'],
    ))
    .action(async (refs: string[], opts) => setExit(await (require('../commands/kill-rm.js') as typeof import('../commands/kill-rm.js')).killCommand(router(), refs, opts)));

  program
    .command('rm')
    .description('remove finished sessions (history rows stay); -f kills live ones first')
    .addArgument(sessionArg('<ids...>', 'session ids, names or prefixes'))
    .option('-f, --force', 'kill live sessions, then remove them')
    .addHelpText('after', examples(
      ['amux rm 3f9a01bc', 'remove a finished session (amux history still lists it)'],
      ['amux rm -f web', 'kill it first if it still runs'],
    ))
    .action(async (refs: string[], opts) => setExit(await (require('../commands/kill-rm.js') as typeof import('../commands/kill-rm.js')).rmCommand(router(), refs, opts)));

  program
    .command('send')
    .description('type TEXT into the session as a paste (bracketed when the program asked for it), then Enter once the program has taken the text')
    .addArgument(sessionArg('<id>', 'session id, name or prefix'))
    .argument('[text...]', 'text (words joined by spaces), or key names with --keys')
    .option('--no-enter', 'do not press Enter after the text')
    .option('--keys', 'the words are tmux key names, e.g. C-c Up Enter')
    .addOption(hinted(new Option('--when <when>', "idle: hold the text until the session is idle (waiting for input), instead of typing into a busy program; ready: until its program declared 'amux state ready'"), { kind: 'words', words: ['idle', 'ready'] }))
    .option('--timeout <dur>', 'with --when: give up after this long, typing nothing (exit 124)', durationOption('--timeout'))
    .option('--json', 'print the receipt {delivered, submitted, offset, eventId, heldMs, pasted, sessionId}: submitted: the program read the Enter (false: it did not read within 2 s); read the reply from offset, or wait --after eventId')
    .addHelpText('after', '\nText that starts with - goes after --: amux send ID -- -n')
    .addHelpText('after', examples(
      ["amux send repl 'print(1 + 1)'", 'type a line and press Enter'],
      ['amux send --keys repl C-c', 'press Ctrl-C'],
      ['amux send --json repl 2+2', 'the receipt: the reply starts at its offset'],
      ["amux send --when idle --timeout 1m repl 'exit()'", 'type it once the program waits for input'],
    ))
    .action(async (ref: string, words: string[], opts) => setExit(await (require('../commands/send.js') as typeof import('../commands/send.js')).sendCommand(...routed(ref), words, opts)));

  program
    .command('state')
    .description("declare the state of the program in this session (AMUX_SESSION_ID): working, waiting (idle, and it asks for a person) or ready (idle, its turn done); it wins over what amux sees until the next input, the --ttl or the program's end")
    .addArgument(hinted(new Argument('<state>', 'working, waiting or ready'), { kind: 'words', words: [...DECLARED_STATES] }))
    .option('-m, --message <text>', 'what it is doing or asking; shown as the reason, declared: TEXT (plain text, no control characters)')
    .option('--ttl <dur>', 'the declaration lapses after this long (then what amux sees decides again)', durationOption('--ttl'))
    .addOption(hinted(new Option('--session <id>', 'the session to declare for, outside a session (default: AMUX_SESSION_ID)'), { kind: 'sessions' }))
    .option('--json', 'print the session as JSON')
    .addHelpText('after', `\nThe declaration is the program's that runs in the session's terminal: its end ends it. Run as a step of the session's own command line (run -- 'amux state working; make'), it is the session command's, and ends with it.\nOutside a session without --session: exit 2. A program that writes OSC 7501 (Codex) declares the same way by itself: see amux help statuses.`)
    .addHelpText('after', examples(
      ["amux state waiting -m 'approve: edit src/x.ts?'", 'idle, with attention; amux wait --until waiting returns'],
      ['amux state ready', 'idle: the turn is done (send --when ready types now)'],
      ["amux state working -m 'running tests' --ttl 10m", 'working, whatever the screen shows, for at most 10 minutes'],
    ))
    .action(async (state: string, opts) => setExit(await (require('../commands/state.js') as typeof import('../commands/state.js')).stateCommand(client, state, opts)));

  program
    .command('attach')
    .description('attach this terminal to the session (detach with C-b d)')
    .addArgument(sessionArg('<id>', 'session id, name or prefix'))
    .option('-r, --read-only', 'watch without typing')
    .addHelpText('after', examples(
      ['amux attach web', 'a real terminal on it; C-b d detaches'],
      ['amux attach -r web', 'watch without typing'],
    ))
    .action(async (ref: string, opts) => setExit(await (require('../commands/attach.js') as typeof import('../commands/attach.js')).attachCommand(...routed(ref), opts)));
}
