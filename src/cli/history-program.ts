import type { Command } from 'commander';
import type { Client } from '../client/client.js';
import { durationOption, intOption } from './parse.js';

/** `amux events`, `amux history` and `amux stats`; their modules load only when run (node start-up is the floor of every command). */
export function registerHistoryCommands(program: Command, client: () => Client, setExit: (code: number) => void): void {
  program
    .command('events')
    .description('the event log as NDJSON, oldest first: state changes, jobs started and finished, input sent, errors')
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
}
