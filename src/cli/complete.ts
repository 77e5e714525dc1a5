import type { JobView } from '../protocol/jobs.js';
import type { SessionView } from '../protocol/sessions.js';
import type { Hint } from './hints.js';

/** The file the build writes next to the CLI's bundle (package.json "build"). */
export const SPEC_FILE = 'completion-spec.json';

/**
 * `amux __complete WORD…`: the candidates for the last word, for the scripts of `amux completion`
 * (README "Shell completion"; ADR 0021). Commands and flags come from commander's own definitions
 * (`buildProgram`, through `Spec`), values from the hints in `program.ts`, and session ids, names and job ids from
 * the running daemon, which is never started for this.
 *
 * The answer: a first line with what the shell should do itself (`-`: nothing, `files`, `dirs`,
 * `commands`), then one candidate a line, `VALUE` or `VALUE<TAB>DESCRIPTION`.
 */
export type Directive = '-' | 'files' | 'dirs' | 'commands';

export interface Candidate {
  value: string;
  description?: string;
}

export interface Answer {
  directive: Directive;
  candidates: Candidate[];
}

/** Where session and job ids come from: the daemon, or nothing when it is not running. */
export interface IdSource {
  sessions(): Promise<SessionView[]>;
  jobs(sessionId: string): Promise<JobView[]>;
  /** The context names of config.json, `local` first. */
  contexts(): string[];
}

/** At most this many sessions' jobs are listed for one `job-…` word (one request each). */
const JOB_SESSIONS = 10;
const DESCRIPTION_WIDTH = 70;

/**
 * The command line's shape, taken from commander's definitions by `specOf` (src/cli/completion-spec.ts):
 * the build writes it to `completion-spec.json` next to the CLI, so that completing a word loads
 * neither commander nor the program (ADR 0021).
 */
export interface SpecOption {
  /** `-n`, `--name`. */
  flags: string[];
  description: string;
  /** It takes a value (`--name <name>`). */
  value: boolean;
  hint?: Hint;
}

export interface SpecArgument {
  variadic: boolean;
  hint?: Hint;
}

export interface SpecCommand {
  name: string;
  description: string;
  options: SpecOption[];
  args: SpecArgument[];
  /** commander's passThroughOptions (`run`, `exec`): once its command has begun, the rest is the command's. */
  passThrough: boolean;
}

export interface Spec {
  options: SpecOption[];
  commands: SpecCommand[];
}

export const none = (): Answer => ({ directive: '-', candidates: [] });

/** A description on one line, at most DESCRIPTION_WIDTH characters. */
export function short(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > DESCRIPTION_WIDTH ? `${flat.slice(0, DESCRIPTION_WIDTH - 1)}…` : flat;
}

function findOption(options: readonly SpecOption[], word: string): SpecOption | undefined {
  const flag = word.startsWith('--') && word.includes('=') ? word.slice(0, word.indexOf('=')) : word;
  return options.find((o) => o.flags.includes(flag));
}

/** The flags that start with `cur`, long forms first. */
function flags(options: readonly SpecOption[], cur: string): Candidate[] {
  const out: Candidate[] = [];
  for (const o of options) {
    for (const flag of [...o.flags].reverse()) if (flag.startsWith(cur)) out.push({ value: flag, description: o.description });
  }
  return out;
}

function commands(spec: Spec, cur: string): Candidate[] {
  return spec.commands.filter((c) => c.name.startsWith(cur)).map((c) => ({ value: c.name, description: c.description }));
}

/** The values a hint offers for `cur`; `prefix` is put back in front (`--status=`). */
async function values(hint: Hint | undefined, cur: string, ids: IdSource, prefix = ''): Promise<Answer> {
  if (!hint) return none();
  switch (hint.kind) {
    case 'dirs':
      return { directive: 'dirs', candidates: [] };
    case 'command':
      return { directive: 'commands', candidates: [] };
    case 'words': {
      // A comma-separated list: complete its last item, keep the ones before.
      const head = hint.list ? cur.slice(0, cur.lastIndexOf(',') + 1) : '';
      const item = cur.slice(head.length);
      const taken = new Set(head.split(',').filter(Boolean));
      const words = hint.words.filter((w) => w.toLowerCase().startsWith(item.toLowerCase()) && !taken.has(w));
      return { directive: '-', candidates: words.map((w) => ({ value: `${prefix}${head}${w}` })) };
    }
    case 'contexts':
      return { directive: '-', candidates: ids.contexts().filter((c) => c.startsWith(cur)).map((c) => ({ value: `${prefix}${c}` })) };
    case 'sessions': {
      // HOST:ID (src/guides/remote.md): the sessions of `local:` are this daemon's; another host's would
      // need an SSH round trip, too slow for a keystroke, so its ids are not offered.
      const colon = cur.indexOf(':');
      if (colon > 0) {
        if (cur.slice(0, colon) !== LOCAL_CONTEXT) return none();
        return { directive: '-', candidates: (await references(cur.slice(colon + 1), hint.jobs === true, ids)).map((c) => ({ ...c, value: `${LOCAL_CONTEXT}:${c.value}` })) };
      }
      return { directive: '-', candidates: await references(cur, hint.jobs === true, ids) };
    }
  }
}

/** The context that names this machine's daemon (src/cli/contexts.ts). */
export const LOCAL_CONTEXT = 'local';

/** Session ids and names starting with `cur`; job ids too when `cur` reads as the start of one (`j`, `job-3f`). */
async function references(cur: string, jobs: boolean, ids: IdSource): Promise<Candidate[]> {
  const sessions = await ids.sessions();
  const out: Candidate[] = [];
  for (const s of sessions) {
    const what = s.command ?? (s.foreground ? `(shell) ${s.foreground}` : '(shell)');
    if (s.id.startsWith(cur)) out.push({ value: s.id, description: short(`${s.status}${s.name ? ` ${s.name}` : ''}: ${what}`) });
    if (s.name?.startsWith(cur)) out.push({ value: s.name, description: short(`${s.id} ${s.status}: ${what}`) });
  }
  if (jobs && cur !== '' && (cur.startsWith('job-') || 'job-'.startsWith(cur))) {
    // job-<session id>-<seq>: the sessions whose id fits what is typed so far, newest first.
    const typed = cur.slice(4, 12);
    const owners = sessions.filter((s) => s.id.startsWith(typed)).slice(0, JOB_SESSIONS);
    const lists = await Promise.all(owners.map((s) => ids.jobs(s.id).catch(() => [] as JobView[])));
    for (const job of lists.flat()) {
      if (job.id.startsWith(cur)) out.push({ value: job.id, description: short(`${job.status}: ${job.command}`) });
    }
  }
  return out;
}

/** The argument at positional index `n` (a variadic last one takes all the rest). */
function argumentAt(cmd: SpecCommand, n: number): SpecArgument | undefined {
  if (n < cmd.args.length) return cmd.args[n];
  const last = cmd.args[cmd.args.length - 1];
  return last?.variadic ? last : undefined;
}

/**
 * The candidates for the last of `words` (the words after `amux`; the last one is being typed,
 * possibly empty), following commander's rules: options of the program before the command;
 * `--` ends a command's options; a `passThrough` command (`run`, `exec`) takes no options of its
 * own once its command has begun.
 */
export async function complete(spec: Spec, words: readonly string[], ids: IdSource): Promise<Answer> {
  const cur = words.length ? words[words.length - 1]! : '';
  const done = words.slice(0, -1);
  let i = 0;
  let cmd: SpecCommand | undefined;
  let programValue: SpecOption | undefined; // a program option whose value comes next (--context NAME)
  for (; i < done.length; i++) {
    const w = done[i]!;
    if (programValue) {
      programValue = undefined;
      continue;
    }
    if (w.startsWith('-')) {
      const o = findOption(spec.options, w);
      if (o?.value && !w.includes('=')) programValue = o;
      continue;
    }
    cmd = spec.commands.find((c) => c.name === w);
    if (!cmd) return none();
    i++;
    break;
  }
  if (!cmd) {
    if (programValue) return values(programValue.hint, cur, ids);
    if (cur.startsWith('--') && cur.includes('=')) {
      const o = findOption(spec.options, cur);
      return o ? values(o.hint, cur.slice(cur.indexOf('=') + 1), ids, cur.slice(0, cur.indexOf('=') + 1)) : none();
    }
    return { directive: '-', candidates: cur.startsWith('-') ? flags(spec.options, cur) : commands(spec, cur) };
  }

  let positional = 0;
  let commandWords = 0; // words of a `[cmd...]` argument so far
  let pending: SpecOption | undefined; // an option whose value comes next
  let optionsEnded = false;
  for (; i < done.length; i++) {
    const w = done[i]!;
    if (pending) {
      pending = undefined;
      continue;
    }
    if (!optionsEnded && w === '--') {
      optionsEnded = true;
      continue;
    }
    if (!optionsEnded && w.startsWith('-') && w !== '-') {
      const o = findOption(cmd.options, w);
      if (o?.value && !w.includes('=')) pending = o;
      continue;
    }
    if (argumentAt(cmd, positional)?.hint?.kind === 'command') {
      commandWords++;
      if (cmd.passThrough) optionsEnded = true; // the command has begun: the rest is its own
    } else positional++;
  }

  if (pending) return values(pending.hint, cur, ids);
  if (!optionsEnded && cur.startsWith('--') && cur.includes('=')) {
    const o = findOption(cmd.options, cur);
    const eq = cur.indexOf('=');
    return o ? values(o.hint, cur.slice(eq + 1), ids, cur.slice(0, eq + 1)) : none();
  }
  if (!optionsEnded && cur.startsWith('-')) return { directive: '-', candidates: flags(cmd.options, cur) };
  const hint = argumentAt(cmd, positional)?.hint;
  if (hint?.kind === 'command') return { directive: commandWords === 0 ? 'commands' : 'files', candidates: [] };
  if (!hint) return optionsEnded || cur !== '' ? none() : { directive: '-', candidates: flags(cmd.options, cur) };
  return values(hint, cur, ids);
}

/** The answer as the scripts read it (see `Directive`). */
export function formatAnswer(answer: Answer): string {
  const lines = answer.candidates.map((c) => (c.description ? `${c.value}\t${c.description}` : c.value));
  return `${[answer.directive, ...lines].join('\n')}\n`;
}
