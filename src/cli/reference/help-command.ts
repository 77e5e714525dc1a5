import type { Command } from 'commander';
import { AmuxError, EXIT } from '../../errors.js';
import { guideTopics } from '../guides.js';
import { useColor, writeOut } from '../output.js';
import { reportError } from '../report.js';
import { actionsOf, commandPage, commandsOf, guidePage, programPage } from './pages.js';
import { toTerminal } from './terminal.js';

/**
 * `amux help [COMMAND [ACTION] | TOPIC]` (ADR 0063): the page `man amux-COMMAND` or `man amux-TOPIC`
 * shows, printed for the terminal; `amux help` alone: amux's own page, which lists the commands and
 * the topics. A command's action (`amux help group add`) shows the command's page, where its actions
 * are. A name that is neither is a usage error (exit 2).
 */
export async function helpCommand(program: Command, words: string[]): Promise<number> {
  // This module is a bundle of its own (scripts/bundle.ts): an AmuxError from here is reported here.
  try {
    return await help(program, words);
  } catch (err) {
    return reportError(err);
  }
}

async function help(program: Command, words: string[]): Promise<number> {
  const [name, action, ...rest] = words;
  const style = { width: Math.min(process.stdout.isTTY ? process.stdout.columns || 80 : 80, 100), color: useColor() };
  if (name === undefined) {
    await writeOut(toTerminal(programPage(program), style));
    return EXIT.ok;
  }
  const cmd = commandsOf(program).find((c) => c.name() === name || c.aliases().includes(name));
  if (cmd) {
    const actions = actionsOf(cmd);
    if (action !== undefined && !actions.includes(action)) {
      throw new AmuxError('usage', actions.length
        ? `'${cmd.name()}' has no action '${action}': ${actions.join(', ')}`
        : `'${cmd.name()}' has no actions: amux help ${cmd.name()}`);
    }
    if (rest.length) throw new AmuxError('usage', `help takes a command and its action, or a topic: amux help ${cmd.name()}${action ? ` ${action}` : ''}`);
    await writeOut(toTerminal(commandPage(program, cmd), style));
    return EXIT.ok;
  }
  const page = /^[a-z][a-z0-9-]*$/.test(name) ? guidePage(name) : null;
  if (!page) throw new AmuxError('usage', `no command or topic '${name}': commands in 'amux --help'; topics: ${guideTopics().join(', ') || 'none'}`);
  if (action !== undefined) throw new AmuxError('usage', `help takes one topic: amux help ${name}`);
  await writeOut(toTerminal(page, style));
  return EXIT.ok;
}
