import type { Argument, Option } from 'commander';

/**
 * What a command's argument or option value is, for shell completion (ADR 0021). The commands and
 * flags themselves come from commander's definitions; these hints say only which values fit.
 */
export type Hint =
  /** Session ids and names from the live daemon; `jobs`: job ids too (`job-<id>-<n>`). */
  | { kind: 'sessions'; jobs?: boolean }
  /** A fixed set of words; `list`: comma-separated (`--status working,idle`). */
  | { kind: 'words'; words: readonly string[]; list?: boolean }
  /** A directory (`-C`). */
  | { kind: 'dirs' }
  /** A command line to run (`run`, `exec`): a command name, then files. */
  | { kind: 'command' }
  /** A context name (`--context`, `context use`; src/guides/remote.md). */
  | { kind: 'contexts' };

/**
 * Where a hint is kept: a property of the argument or option itself, under a registered symbol, so
 * that another bundle's copy of this module (the reference's, ADR 0063) reads the same hints.
 */
const HINT = Symbol.for('amux.hint');

/** Attaches `hint` to a commander argument or option and returns it. */
export function hinted<T extends Argument | Option>(item: T, hint: Hint): T {
  (item as unknown as Record<symbol, Hint>)[HINT] = hint;
  return item;
}

export function hintOf(item: Argument | Option): Hint | undefined {
  return (item as unknown as Record<symbol, Hint | undefined>)[HINT];
}

/**
 * The block every command's help ends with (ADR 0023): 2–4 real examples, each a `# what it does`
 * line above the command line, as `gh` prints them.
 */
export function examples(...lines: ReadonlyArray<readonly [command: string, what: string]>): string {
  return `\nExamples:\n${lines.map(([command, what]) => `  # ${what}\n  ${command}`).join('\n\n')}`;
}
