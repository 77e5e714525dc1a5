import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { AmuxError } from '../../errors.js';
import { checkGraph } from './graph.js';
import { procfileTree } from './procfile.js';
import { checkStack } from './schema.js';
import type { StackFile } from './spec.js';
import { yamlTree } from './tree.js';

/** The files `up` looks for in the current directory, in this order (README "Stacks"). */
export const STACK_FILES = ['amux.yaml', 'amux.yml', 'Procfile'];

/** Finds the stack file: `-f FILE`, or the first of STACK_FILES in `cwd`. */
export function findStackFile(cwd: string, file?: string): string {
  if (file !== undefined) {
    const p = resolve(cwd, file);
    if (!existsSync(p)) throw new AmuxError('usage', `no file ${file}: give the path of an amux.yaml or a Procfile`);
    return p;
  }
  for (const name of STACK_FILES) if (existsSync(join(cwd, name))) return join(cwd, name);
  throw new AmuxError('usage', `no ${STACK_FILES.join(', ')} in ${cwd}: write one (README "Stacks") or give -f FILE`);
}

/** Reads and checks a stack file: schema, then dependencies. Nothing starts before this has passed. */
export function loadStack(path: string, shown = basename(path)): StackFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new AmuxError('usage', `cannot read ${shown}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const procfile = /^Procfile/.test(basename(path));
  const tree = procfile ? procfileTree(text, shown) : yamlTree(text, shown);
  const stack: StackFile = { file: shown, dir: dirname(path), format: procfile ? 'procfile' : 'yaml', services: checkStack(tree, shown) };
  checkGraph(stack);
  return stack;
}

const STACK_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,22}$/;

/**
 * The stack's name: `-p NAME`, or the file's directory's name made fit for session names (`My App` → `My-App`).
 * Not `job`: a session name starting with `job-` would read as a job id.
 */
/**
 * The stack that `down` names: `project`, or the name of the stack file's directory (the file is
 * not read, so that a broken one can still be brought down).
 */
export function stackOf(cwd: string, file?: string, project?: string): string {
  if (project !== undefined && file === undefined) return stackName('', project);
  return stackName(dirname(findStackFile(cwd, file)), project);
}

export function stackName(dir: string, project?: string): string {
  if (project !== undefined) {
    if (!STACK_NAME.test(project) || /^job$/i.test(project)) throw new AmuxError('usage', `invalid stack name '${project}': use 1-23 characters from A-Z a-z 0-9 . _ -, starting with a letter or digit`);
    return project;
  }
  const name = basename(dir).replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 23);
  if (!STACK_NAME.test(name) || /^job$/i.test(name)) throw new AmuxError('usage', `cannot make a stack name of the directory '${basename(dir)}': give -p NAME`);
  return name;
}
