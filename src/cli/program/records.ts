import type { Command } from 'commander';
import type { Client } from '../../client/client.js';
import { examples } from '../hints.js';
import { durationOption, intOption, timeOption } from '../parse.js';
import { SESSION_STATUSES } from '../../core/status.js';
import { filterOption, formatOption, sessionArg, statusOption, type Wiring } from './shared.js';

/** What happened: the event stream, the history, statistics (src/guides/sessions.md). */
export function addRecordCommands(program: Command, { setExit, client, routed }: Wiring): void {
  program
    .command('events')
    .description('the event log as NDJSON, oldest first: state changes, jobs started and finished, input sent, timeouts, errors')
    .addArgument(sessionArg('[id]', 'only this session (id, name or unique prefix; a removed one by full id)'))
    .option('-f, --follow', 'then print new events as they happen, until Ctrl-C or, with an ID, until the session is removed; without an ID only events from now on (unless --since or --after)')
    .option('--since <time>', 'only events since TIME: a duration before now (90s, 2h), an ISO time or epoch ms', timeOption('--since'))
    .option('--until <time>', 'only events before TIME (same forms); not with -f', timeOption('--until'))
    .option('--after <event-id>', 'only events after this id (a cursor)', intOption('--after'))
    .addHelpText('after', examples(
      ['amux events web', 'its events so far, one JSON object a line'],
      ['amux events -f --since 10m', 'the last 10 minutes, then every new one'],
      ['amux events --since 1h | grep state_changed', 'the state changes of the last hour'],
      ['amux events --since 2d --until 1d web', 'its events of yesterday (the day before the last 24 hours)'],
    ))
    .action(async (ref: string | undefined, opts) => setExit(await (require('../commands/events.js') as typeof import('../commands/events.js')).eventsCommand(...(ref === undefined ? ([client(), undefined] as [Client, string | undefined]) : routed(ref)), opts)));

  program
    .command('history')
    .description('sessions including removed ones, newest first')
    .addOption(statusOption('only these statuses (comma-separated; live and finished stand for their sets)', [...SESSION_STATUSES, 'live', 'finished']))
    .addOption(filterOption())
    .option('--since <time>', 'only sessions created since TIME: a duration before now (1h, 7d), an ISO time or epoch ms', timeOption('--since'))
    .option('--until <time>', 'only sessions created before TIME (same forms)', timeOption('--until'))
    .option('-n <count>', 'at most this many', intOption('-n'))
    .option('--json', 'JSON array')
    .addOption(formatOption())
    .option('--no-trunc', 'do not shorten commands')
    .addHelpText('after', examples(
      ['amux history', 'the columns of ps, plus DURATION and REMOVED'],
      ['amux history --status failed,expired --since 1d', 'what went wrong today'],
      ['amux history --since 2026-11-27 --until 2026-11-28', 'the sessions of one day (UTC)'],
      ['amux history -n 20 --json', 'the newest 20, as JSON'],
    ))
    .action(async (opts) => setExit(await (require('../commands/history.js') as typeof import('../commands/history.js')).historyCommand(client(), opts)));

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
    .action(async (opts) => setExit(await (require('../commands/stats.js') as typeof import('../commands/stats.js')).statsCommand(client(), opts)));
}
