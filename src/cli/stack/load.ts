import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { AmuxError } from '../../errors.js';
import { checkGraph } from './graph.js';
import { procfileTree } from './procfile.js';
import { readStackText } from './read-file.js';
import { checkStack } from './schema.js';
import type { StackFile } from './spec.js';
import { yamlTree } from './tree.js';

/** The files `up` looks for in the current directory, in this order (src/guides/stacks.md). */
export const STACK_FILES = ['amux.yaml', 'amux.yml', 'Procfile'];

/** Finds the stack file: `-f FILE`, or the first of STACK_FILES in `cwd`. */
export function findStackFile(cwd: string, file?: string): string {
  if (file !== undefined) {
    const p = resolve(cwd, file);
    if (!existsSync(p)) throw new AmuxError('usage', `no file ${file}: give the path of an amux.yaml or a Procfile`);
    return p;
  }
  for (const name of STACK_FILES) if (existsSync(join(cwd, name))) return join(cwd, name);
  throw new AmuxError('usage', `no ${STACK_FILES.join(', ')} in ${cwd}: write one (amux help stacks) or give -f FILE`);
}

/** Reads and checks a stack file: schema, then dependencies. Nothing starts before this has passed. */
export function loadStack(path: string, shown = basename(path)): StackFile {
  const text = readStackText(path, shown);
  const procfile = /^Procfile/.test(basename(path));
  const tree = procfile ? procfileTree(text, shown) : yamlTree(text, shown);
  const stack: StackFile = { file: shown, dir: dirname(path), format: procfile ? 'procfile' : 'yaml', services: checkStack(tree, shown) };
  checkGraph(stack);
  return stack;
}

const STACK_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,22}$/;
const READS_AS_JOB = /^job(-|$)/i;

/**
 * The stack's name: `-p NAME`, or the file's directory's name made fit for session names (`My App` → `My-App`).
 * Not `job` nor `job-…`: its sessions' names (`NAME-KEY`) would start with `job-` and read as job ids,
 * which the daemon refuses as names; refused here, before anything starts.
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
    if (!STACK_NAME.test(project)) throw new AmuxError('usage', `invalid stack name '${project}': use 1-23 characters from A-Z a-z 0-9 . _ -, starting with a letter or digit`);
    if (READS_AS_JOB.test(project)) throw new AmuxError('usage', `invalid stack name '${project}': its sessions' names would start with job- and read as job ids; pick another -p NAME`);
    return project;
  }
  const name = basename(dir).replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 23);
  if (!STACK_NAME.test(name) || READS_AS_JOB.test(name)) throw new AmuxError('usage', `cannot make a stack name of the directory '${basename(dir)}': give -p NAME`);
  return name;
}
