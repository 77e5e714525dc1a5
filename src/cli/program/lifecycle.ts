import type { Command } from 'commander';
import { examples } from '../hints.js';
import { durationOption } from '../parse.js';
import { sessionArg, statusOption, type Wiring } from './shared.js';

/** Pausing, resuming, restarting and renaming sessions; pruning finished ones (src/guides/sessions.md). */
export function addLifecycleCommands(program: Command, { setExit, client, router, routed }: Wiring): void {
  program
    .command('pause')
    .description('stop every process of the sessions (SIGSTOP); status paused')
    .addArgument(sessionArg('<ids...>', 'session ids, names or prefixes'))
    .addHelpText('after', examples(
      ['amux pause build', 'SIGSTOP: it keeps its maxLive slot and refuses exec'],
      ['amux pause build test', 'several at once'],
    ))
    .action(async (refs: string[]) => setExit(await (require('../commands/lifecycle.js') as typeof import('../commands/lifecycle.js')).pauseCommand(router(), refs, 'pause')));

  program
    .command('resume')
    .description('continue every process of paused sessions (SIGCONT)')
    .addArgument(sessionArg('<ids...>', 'session ids, names or prefixes'))
    .addHelpText('after', examples(
      ['amux resume build', 'SIGCONT: working again'],
      ['amux resume $(amux ps -q --status paused)', 'every paused session'],
    ))
    .action(async (refs: string[]) => setExit(await (require('../commands/lifecycle.js') as typeof import('../commands/lifecycle.js')).pauseCommand(router(), refs, 'resume')));

  program
    .command('restart')
    .description('start sessions again: same command, directory, environment, name, limits, labels; a new id (restartOf links the old one, which is removed and stays in history); a live one is stopped first')
    .addArgument(sessionArg('<ids...>', 'session ids, names or prefixes'))
    .option('--grace <dur>', 'for a live session: time between TERM and KILL (default 5s)', durationOption('--grace'))
    .addHelpText('after', examples(
      ['amux restart web', 'stop web if it runs, start it again; prints the new id'],
      ['amux restart $(amux ps -q --status failed)', 'every failed session again'],
    ))
    .action(async (refs: string[], opts) => setExit(await (require('../commands/lifecycle.js') as typeof import('../commands/lifecycle.js')).restartCommand(router(), refs, opts)));

  program
    .command('rename')
    .description('give a session another name (unique among sessions not removed)')
    .addArgument(sessionArg('<id>', 'session id, name or prefix'))
    .argument('[name]', 'the new name')
    .option('--clear', 'remove the name')
    .addHelpText('after', examples(
      ['amux rename 3f9a01bc web', 'name it web'],
      ['amux rename web --clear', 'no name any more'],
    ))
    .action(async (ref: string, name: string | undefined, opts) => setExit(await (require('../commands/lifecycle.js') as typeof import('../commands/lifecycle.js')).renameCommand(...routed(ref), name, opts)));

  program
    .command('prune')
    .description('remove finished sessions (tmux session and files; history rows stay); prints their ids')
    .option('--older-than <dur>', 'only those that ended at least this long ago (default: all finished)', durationOption('--older-than'))
    .addOption(statusOption('only these finished statuses: completed, failed, stopped, expired (comma-separated; default all)', ['completed', 'failed', 'stopped', 'expired', 'finished']))
    .option('--json', 'print the removed sessions as a JSON array')
    .addHelpText('after', examples(
      ['amux prune', 'remove every finished session'],
      ['amux prune --older-than 1h --status failed,expired', 'only what went wrong, over an hour ago'],
    ))
    .action(async (opts) => setExit(await (require('../commands/lifecycle.js') as typeof import('../commands/lifecycle.js')).pruneCommand(client(), opts)));
}
