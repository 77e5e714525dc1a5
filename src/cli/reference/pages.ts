import type { Command, Help } from 'commander';
import { EXIT } from '../../errors.js';
import { guideTopics, readGuide, GUIDES_DIR } from '../guides.js';
import { hintOf } from '../hints.js';
import { code, parseGuide, plain, type Block, type Page, type Span } from './doc.js';

/*
 * The reference, from the one source `--help` and completion use too (ADR 0063): a page per command
 * from commander's definitions in `program.ts` (usage, arguments, options, the text after its help,
 * its examples), `amux`'s own page (global options, the commands, the topics, exit statuses), and a
 * page per guide from `src/guides/TOPIC.md`.
 */

/** What the exit statuses of amux itself mean (README "Commands"; ADR 0006): one line each. */
const EXIT_MEANINGS: Record<keyof typeof EXIT, string> = {
  ok: 'success',
  failed: 'the operation failed (not found, wrong state, ...); wait, exec and run -w exit with the exit code of what they waited for',
  usage: 'usage error (bad flag, name, duration, signal)',
  daemon: 'the daemon cannot be reached or started',
  tmux: 'tmux missing or older than 3.2',
};

/** The commands a page is written for: the visible ones, `help` included, in `amux --help`'s order. */
export function commandsOf(program: Command): Command[] {
  return program.createHelp().visibleCommands(program);
}

/** The words an action argument takes (`group add`, `daemon status`): its completion words. */
export function actionsOf(cmd: Command): readonly string[] {
  const first = cmd.registeredArguments[0];
  if (!first || first.name() !== 'action') return [];
  const hint = hintOf(first);
  return hint?.kind === 'words' ? hint.words : [];
}

/** The page of one command: `amux-NAME(1)`. */
export function commandPage(program: Command, cmd: Command, topics: string[] = guideTopics()): Page {
  const help = program.createHelp();
  const name = cmd.name();
  const blocks: Block[] = [heading('Synopsis'), { kind: 'paragraph', text: [code(`amux ${name}`), { text: ` ${cmd.usage()}` }] }];
  const { prose, examples } = afterHelp(cmd);
  const actions = actionsOf(cmd);
  if (prose.length || actions.length) {
    blocks.push(heading('Description'));
    if (actions.length) blocks.push({ kind: 'paragraph', text: [{ text: 'Actions: ' }, ...joinCode(actions.map((a) => `${name} ${a}`)), { text: `. Each is 'amux ${name} ACTION', with the arguments and options below.` }] });
    blocks.push(...prose);
  }
  const args = help.visibleArguments(cmd);
  if (args.length) blocks.push(heading('Arguments'), { kind: 'terms', items: args.map((a) => ({ term: [code(help.argumentTerm(a))], body: plain(help.argumentDescription(a)) })) });
  const options = help.visibleOptions(cmd);
  if (options.length) blocks.push(heading('Options'), { kind: 'terms', items: options.map((o) => ({ term: [code(help.optionTerm(o))], body: plain(help.optionDescription(o)) })) });
  if (name === 'help') blocks.push(heading('Topics'), ...topicTerms(topics));
  if (name === 'mcp') blocks.push(...(require('./mcp-tools.js') as typeof import('./mcp-tools.js')).mcpToolBlocks());
  blocks.push(...examplesBlocks(examples));
  blocks.push(heading('See also'), { kind: 'paragraph', text: seeAlso([['amux', 1]]) });
  return { name: `amux-${name}`, section: 1, summary: help.commandDescription(cmd), blocks };
}

/** `amux(1)`: the program's options, its commands, the guides, the exit statuses. */
export function programPage(program: Command, topics: string[] = guideTopics()): Page {
  const help: Help = program.createHelp();
  const commands = commandsOf(program);
  const { prose, examples } = afterHelp(program);
  const blocks: Block[] = [
    heading('Synopsis'),
    { kind: 'paragraph', text: [code('amux'), { text: ' [options] COMMAND [arguments]' }] },
    heading('Options'),
    { kind: 'terms', items: help.visibleOptions(program).map((o) => ({ term: [code(help.optionTerm(o))], body: plain(help.optionDescription(o)) })) },
    heading('Commands'),
    { kind: 'paragraph', text: [{ text: 'Each has a page of its own: ' }, code('amux help COMMAND'), { text: ', ' }, code('man amux-COMMAND'), { text: ', or ' }, code('amux COMMAND --help'), { text: '.' }] },
    { kind: 'terms', items: commands.map((c) => ({ term: [code(help.subcommandTerm(c))], body: plain(help.subcommandDescription(c)) })) },
    heading('Topics'),
    ...topicTerms(topics),
    heading('Description'),
    ...prose,
    heading('Exit status'),
    { kind: 'terms', items: (Object.keys(EXIT) as Array<keyof typeof EXIT>).map((k) => ({ term: [code(String(EXIT[k]))], body: plain(EXIT_MEANINGS[k]) })) },
    ...examplesBlocks(examples),
    heading('See also'),
    { kind: 'paragraph', text: seeAlso([...commands.map((c): [string, 1] => [`amux-${c.name()}`, 1]), ...topics.map((t): [string, 7] => [`amux-${t}`, 7])]) },
  ];
  return { name: 'amux', section: 1, summary: help.commandDescription(program), blocks };
}

/** The page of a guide, `amux-TOPIC(7)`, or null when there is no such topic. */
export function guidePage(topic: string, dir: string = GUIDES_DIR): Page | null {
  const markdown = readGuide(topic, dir);
  return markdown === null ? null : parseGuide(`amux-${topic}`, markdown);
}

/** Every page `npm run build` writes, by file name: amux.1, amux-COMMAND.1, amux-TOPIC.7. */
export function allPages(program: Command, dir: string = GUIDES_DIR): Map<string, Page> {
  const topics = guideTopics(dir);
  const pages = new Map<string, Page>([['amux.1', programPage(program, topics)]]);
  for (const c of commandsOf(program)) pages.set(`amux-${c.name()}.1`, commandPage(program, c, topics));
  for (const t of topics) pages.set(`amux-${t}.7`, guidePage(t, dir)!);
  return pages;
}

function heading(text: string): Block {
  return { kind: 'heading', level: 2, text: plain(text) };
}

function topicTerms(topics: string[]): Block[] {
  const lead: Block = { kind: 'paragraph', text: [{ text: 'Guides: ' }, code('amux help TOPIC'), { text: ' or ' }, code('man amux-TOPIC'), { text: '.' }] };
  if (!topics.length) return [lead];
  return [lead, { kind: 'terms', items: topics.map((t) => ({ term: [code(t)], body: plain(guidePage(t)?.summary ?? '') })) }];
}

function seeAlso(pages: Array<[string, 1 | 7]>): Span[] {
  return pages.flatMap(([name, section], i): Span[] => [...(i ? [{ text: ', ' }] : []), { text: name, style: 'strong' }, { text: `(${section})` }]);
}

function joinCode(words: readonly string[]): Span[] {
  return words.flatMap((w, i): Span[] => [...(i ? [{ text: ', ' }] : []), code(w)]);
}

function examplesBlocks(examples: string): Block[] {
  return examples ? [heading('Examples'), { kind: 'code', lang: '', text: examples }] : [];
}

/**
 * What a command prints after its options (`addHelpText('after', …)`): its notes, as paragraphs
 * (a line indented by two spaces stays as it is), and its `examples()` block (`src/cli/hints.ts`).
 */
function afterHelp(cmd: Command): { prose: Block[]; examples: string } {
  let text = '';
  // commander keeps the text as listeners of its 'afterHelp' event (Command is an EventEmitter).
  (cmd as unknown as NodeJS.EventEmitter).emit('afterHelp', { error: false, command: cmd, write: (s: string) => (text += s) });
  const at = text.indexOf('Examples:\n');
  const examples = at < 0 ? '' : text.slice(at + 'Examples:\n'.length).split('\n').map((l) => l.replace(/^ {2}/, '')).join('\n').trim();
  const prose: Block[] = [];
  let indented: string[] = [];
  const flush = () => {
    if (indented.length) prose.push({ kind: 'code', lang: '', text: indented.join('\n') });
    indented = [];
  };
  for (const line of (at < 0 ? text : text.slice(0, at)).split('\n')) {
    if (line.trim() === '') flush();
    else if (line.startsWith('  ')) indented.push(line.slice(2));
    else {
      flush();
      prose.push({ kind: 'paragraph', text: plain(line.trim()) });
    }
  }
  flush();
  return { prose, examples };
}
