import { Argument, type Command } from 'commander';
import { examples, hinted } from '../hints.js';
import type { Wiring } from './shared.js';

const SETTING_KEYS = ['maxLive', 'idleThreshold', 'logCap', 'finishedTtl', 'historyRetention'];

/** Groups with their own parallel limit, and settings changed live (src/guides/sessions.md "Restart, labels, groups", src/guides/configuration.md). */
export function addConfigCommands(program: Command, { setExit, client }: Wiring): void {
  program
    .command('group')
    .description('groups with a parallel limit of their own: add NAME --parallel N (or change N), ls, rm NAME; amux run -g NAME -- CMD queues a session in one')
    .addArgument(hinted(new Argument('<action>', 'add | ls | rm'), { kind: 'words', words: ['add', 'ls', 'rm'] }))
    .argument('[name]', 'the group')
    .option('--parallel <n>', 'add: at most N of its sessions live at once (0: no limit of its own); the global maxLive still holds', (v: string) => {
      const { intOption } = require('../parse.js') as typeof import('../parse.js');
      return intOption('--parallel')(v);
    })
    .option('--json', 'ls as JSON [{name, parallel, live, pending}]')
    .addHelpText('after', examples(
      ['amux group add builds --parallel 2', 'at most 2 of its sessions at once; more wait as pending'],
      ['amux group add builds --parallel 4', 'a new limit, in force at once'],
      ['amux group ls', 'NAME, PARALLEL, LIVE, PENDING'],
    ))
    .action(async (action: string, name: string | undefined, opts) => setExit(await (require('../commands/config.js') as typeof import('../commands/config.js')).groupCommand(client(), action, name, opts)));

  program
    .command('config')
    .description("change a setting in config.json and in the running daemon at once (no restart): set KEY VALUE, unset KEY; 'amux daemon status' shows them")
    .addArgument(hinted(new Argument('<action>', 'set | unset'), { kind: 'words', words: ['set', 'unset'] }))
    .addArgument(hinted(new Argument('<key>', SETTING_KEYS.join(', ')), { kind: 'words', words: SETTING_KEYS }))
    .argument('[value]', 'the value (a count, duration or size, as in config.json)')
    .addHelpText('after', examples(
      ['amux config set maxLive 8', 'at most 8 live sessions, from now on'],
      ['amux config set idleThreshold 5s', 'a screen still for 5s is idle'],
      ['amux config unset maxLive', 'back to the default'],
    ))
    .action(async (action: string, key: string, value: string | undefined) => setExit(await (require('../commands/config.js') as typeof import('../commands/config.js')).configCommand(client(), action, key, value)));
}
