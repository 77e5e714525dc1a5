import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** One built amux tree, used only through its own bin/amux and its daemon's socket. */
export interface Tree {
  root: string;
  bin: string;
  /** Commit and whether tracked files differ from it, so the report says what was compared. */
  rev: string;
}

/** The three slots of every interleaved round: A and A' run the baseline tree, B the candidate. */
export const SLOTS = ['A', "A'", 'B'] as const;
export type Slot = (typeof SLOTS)[number];

export const USAGE = 'usage: npm run bench:ab -- --baseline DIR [--candidate DIR]  (DIR: a built amux tree with bin/amux and dist/)';

function gitRev(root: string): string {
  try {
    const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? '+dirty' : ''}`;
  } catch {
    return 'not a git tree';
  }
}

/** A tree at `dir`, checked to have an executable bin/amux and a build (dist/) behind it. */
export function openTree(dir: string): Tree {
  const root = resolve(dir);
  const bin = join(root, 'bin', 'amux');
  try {
    accessSync(bin, constants.X_OK);
  } catch {
    throw new Error(`${bin} is missing or not executable`);
  }
  if (!existsSync(join(root, 'dist'))) throw new Error(`${root} has no dist/: build it first (npm run build)`);
  return { root, bin, rev: gitRev(root) };
}

/** `--baseline DIR` (required) and `--candidate DIR` (default: the tree this script runs from). */
export function parseTreeArgs(argv: readonly string[], ownRoot: string): { baseline: Tree; candidate: Tree } {
  const opts: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const m = /^--(baseline|candidate)(?:=(.*))?$/.exec(argv[i]!);
    if (!m) throw new Error(`unknown argument ${JSON.stringify(argv[i])}\n${USAGE}`);
    const value = m[2] ?? argv[++i];
    if (!value) throw new Error(`--${m[1]} needs a directory\n${USAGE}`);
    opts[m[1]!] = value;
  }
  if (!opts.baseline) throw new Error(`--baseline is required\n${USAGE}`);
  return { baseline: openTree(opts.baseline), candidate: openTree(opts.candidate ?? ownRoot) };
}
