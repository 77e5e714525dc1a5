import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, writeSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { AmuxError } from './errors.js';
import type { AmuxPaths } from './paths.js';

/** Opening flags for the files amux writes in its home: never through a symbolic link. */
export const NO_FOLLOW_WRITE = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW;

/** Writes a whole file in the home (0600), refusing to write through a symbolic link. */
export function writeHomeFile(path: string, data: string): void {
  const fd = openSync(path, NO_FOLLOW_WRITE | constants.O_TRUNC, 0o600);
  try {
    writeSync(fd, data);
  } finally {
    closeSync(fd);
  }
}

/**
 * A file of the home as text (config.json), or null when there is none. Never through a link, and
 * only a regular file: a FIFO there would hang every command that reads it (opened without
 * blocking, it is refused instead).
 */
export function readHomeFile(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP') throw new AmuxError('invalid_argument', `${path} is a symbolic link; amux never follows links inside its home: remove it`);
    throw err;
  }
  try {
    if (!fstatSync(fd).isFile()) throw new AmuxError('invalid_argument', `${path} is not a regular file; remove it ('rm ${path}')`);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** The entries amux keeps at the top of a home, by kind. */
const DIRS = ['sessions', 'exits', 'ssh'];
const FILES = ['amux.db', 'amux.db-wal', 'amux.db-shm', 'daemon.lock', 'daemon.log', 'daemon.pid', 'daemon.error.json', 'daemon.starting', 'config.json', 'amux.sock', 'tmux.sock'];

function lstat(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

function refuse(path: string, why: string, fix: string): never {
  throw new AmuxError('invalid_argument', `AMUX_HOME is not safe to use: ${path} ${why}; ${fix}`);
}

/** A directory amux writes in must be its user's alone: anyone else could plant links in it. */
function checkDir(path: string, st: Stats, uid: number): void {
  if (st.isSymbolicLink()) refuse(path, 'is a symbolic link', 'amux never follows links inside its home; use the real directory as AMUX_HOME');
  if (!st.isDirectory()) refuse(path, 'is not a directory', 'remove it or choose another AMUX_HOME');
  if (st.uid !== uid) refuse(path, `belongs to uid ${st.uid}, not to you (uid ${uid})`, 'choose a directory of your own as AMUX_HOME');
  if (st.mode & 0o022) refuse(path, `is writable by others (mode ${(st.mode & 0o777).toString(8)})`, `run 'chmod 700 ${path}' or choose another AMUX_HOME`);
}

/**
 * Refuses a home someone else controls (src/guides/configuration.md, ADR 0001): the home and the
 * directories in it must be owned by this user and not writable by group or others, and no entry
 * amux uses may be a symbolic link. Checked before a daemon starts (by the CLI that launches it,
 * and by the daemon itself); with the home safe, nobody else can place anything in it afterwards.
 */
export function checkHome(paths: AmuxPaths, uid = process.getuid?.() ?? 0): void {
  const home = lstat(paths.home);
  if (!home) return; // created by amux, 0700
  checkDir(paths.home, home, uid);
  for (const name of DIRS) {
    const st = lstat(join(paths.home, name));
    if (st) checkDir(join(paths.home, name), st, uid);
  }
  for (const name of FILES) {
    const path = join(paths.home, name);
    const st = lstat(path);
    if (!st) continue;
    if (st.isSymbolicLink()) refuse(path, 'is a symbolic link', 'amux never follows links inside its home: remove it');
    if (st.uid !== uid) refuse(path, `belongs to uid ${st.uid}, not to you (uid ${uid})`, 'remove it or choose another AMUX_HOME');
  }
}
