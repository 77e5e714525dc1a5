import { Option, type Command } from 'commander';
import { AmuxError } from '../../errors.js';
import { examples, hinted } from '../hints.js';
import type { Wiring } from './shared.js';

const fileOption = () => new Option('-f, --file <file>', 'the stack file (default: amux.yaml, amux.yml or Procfile here)');
const projectOption = () => new Option('-p, --project <name>', "the stack's name (default: the file's directory's name)");

/** Stacks: a set of sessions from one file (src/guides/stacks.md). */
export function addStackCommands(program: Command, { setExit, client }: Wiring): void {
  program
    .command('up')
    .description('start the sessions of amux.yaml (or amux.yml, or a Procfile) in dependency order, each when its dependencies are started, ready or completed; again: only what changed is replaced')
    .argument('[sessions...]', 'only these sessions (and what they depend on)')
    .addOption(fileOption())
    .addOption(projectOption())
    .option('-d, --detach', 'return once every session is ready (or one failed), instead of streaming their output until Ctrl-C')
    .addOption(hinted(new Option('--example <dir>', 'write a small runnable demo stack (amux.yaml and its node scripts) into DIR, new or empty, and start nothing'), { kind: 'dirs' }))
    .addHelpText('after', '\nThe file is checked first: a mistake names its line and field (exit 2, nothing started). A session that fails, or is not ready within its ready.timeout, leaves its dependents unstarted (exit 1, one line naming it). Without -d, each line of output is prefixed by its session, and Ctrl-C stops the stack. Every session carries the labels stack=NAME and service=KEY and is named NAME-KEY.')
    .addHelpText('after', examples(
      ['amux up', 'start the stack of ./amux.yaml and stream its output; Ctrl-C stops it'],
      ['amux up -d api', 'start api and what it depends on; return once they are ready'],
      ['amux up -f dev.yaml -p dev -d', 'another file, another stack name'],
      ['amux up --example demo', 'write a demo stack into ./demo; then: cd demo && amux up'],
    ))
    .action(async (services: string[], opts) => {
      if (opts.example !== undefined) {
        if (services.length > 0 || opts.file !== undefined || opts.project !== undefined || opts.detach) {
          throw new AmuxError('usage', 'up --example DIR writes a demo stack and starts nothing: give it alone (then: cd DIR && amux up)');
        }
        return setExit((require('../stack/example.js') as typeof import('../stack/example.js')).writeExample(opts.example));
      }
      setExit(await (require('../commands/up.js') as typeof import('../commands/up.js')).upCommand(client(), services, opts));
    });

  program
    .command('down')
    .description("stop and remove the stack's sessions, dependents first")
    .addOption(fileOption())
    .addOption(projectOption())
    .addHelpText('after', examples(
      ['amux down', 'the stack of ./amux.yaml (named after this directory)'],
      ['amux down -p myapp', 'a stack by name, from anywhere'],
    ))
    .action(async (opts) => setExit(await (require('../commands/down.js') as typeof import('../commands/down.js')).downCommand(client(), opts)));
}
