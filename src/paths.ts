import { existsSync, lstatSync, mkdirSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { AmuxError } from './errors.js';

/** Where everything of one amux installation lives (src/guides/configuration.md: AMUX_HOME). */
export interface AmuxPaths {
  home: string;
  socket: string;
  tmuxSocket: string;
  db: string;
  lockDb: string;
  pidFile: string;
  daemonLog: string;
  startupError: string;
  startClaim: string;
  sessionsDir: string;
  exitsDir: string;
  config: string;
}

export function resolveHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.AMUX_HOME) {
    // Relative to what? Each CLI's own directory would name another home.
    if (!env.AMUX_HOME.startsWith('/')) throw new AmuxError('invalid_argument', `AMUX_HOME must be an absolute path, not '${env.AMUX_HOME}'; e.g. AMUX_HOME="$PWD/${env.AMUX_HOME}"`);
    return ownLink(resolve(env.AMUX_HOME));
  }
  // `os` is loaded only without HOME: every module counts on the CLI's hot path.
  const home = env.HOME || (require('node:os') as typeof import('node:os')).homedir();
  const state = env.XDG_STATE_HOME?.startsWith('/') ? env.XDG_STATE_HOME : join(home, '.local', 'state');
  return ownLink(join(state, 'amux'));
}

/**
 * A home that is itself a symbolic link of the user's own (a dotfile manager links
 * `~/.local/state/amux` into its repository) is used at its target: the link's owner chose it, and
 * the target gets every check a home gets (home.ts). A link of anyone else's stays refused there.
 */
function ownLink(path: string): string {
  try {
    const st = lstatSync(path);
    if (st.isSymbolicLink() && st.uid === (process.getuid?.() ?? st.uid)) return realpathSync(path);
  } catch {
    /* missing (amux creates it) or dangling: checked where it is used */
  }
  return path;
}

export function amuxPaths(home: string = resolveHome()): AmuxPaths {
  return {
    home,
    socket: join(home, 'amux.sock'),
    tmuxSocket: join(home, 'tmux.sock'),
    db: join(home, 'amux.db'),
    lockDb: join(home, 'daemon.lock'),
    pidFile: join(home, 'daemon.pid'),
    daemonLog: join(home, 'daemon.log'),
    startupError: join(home, 'daemon.error.json'),
    startClaim: join(home, 'daemon.starting'),
    sessionsDir: join(home, 'sessions'),
    exitsDir: join(home, 'exits'),
    config: join(home, 'config.json'),
  };
}

export type SessionPaths = Readonly<{ dir: string; rcfile: string; envFile: string; jobsDir: string; logDir: string; jobScript: (seq: number) => string }>;

/** Made paths by session folder: the monitor asks for them several times a second per live session. */
const made = new Map<string, SessionPaths>();
/** Past this many, the memory starts again (a daemon under churn sees ids by the thousand). */
const MADE_MAX = 4096;

/** Files of one session, below AMUX_HOME/sessions/<id>. */
export function sessionPaths(paths: AmuxPaths, id: string): SessionPaths {
  const key = `${paths.sessionsDir}\0${id}`;
  let p = made.get(key);
  if (!p) {
    if (made.size >= MADE_MAX) made.clear();
    const dir = join(paths.sessionsDir, id);
    p = Object.freeze({
      dir,
      rcfile: join(dir, 'rc.bash'),
      envFile: join(dir, 'env.bash'),
      jobsDir: join(dir, 'jobs'),
      logDir: join(dir, 'log'),
      jobScript: (seq: number) => join(dir, 'jobs', `${seq}.bash`),
    });
    made.set(key, p);
  }
  return p;
}

/** Exit-status file of job `seq` of session `id`; written by the session's own shell. */
export function exitFile(paths: AmuxPaths, id: string, seq: number): string {
  return join(paths.exitsDir, `${id}.${seq}`);
}

/** The shell's own exit status (`exits/<id>.shell`), written by its EXIT trap: tmux does not always keep it. */
export function shellExitFile(paths: AmuxPaths, id: string): string {
  return join(paths.exitsDir, `${id}.shell`);
}

/** Start notice of job `seq` (`exits/<id>.<seq>.start`): a background job's pid, or `fg`; written by the shell. */
export function startFile(paths: AmuxPaths, id: string, seq: number): string {
  return `${exitFile(paths, id, seq)}.start`;
}

/** Unix socket paths are limited to 107 bytes on Linux (sun_path is 108 with the NUL). */
export const MAX_SOCKET_PATH = 107;

/**
 * Creates `dir` (and its parents) with `mode`. Unlike `mkdirSync(…, {recursive})`, it fails
 * with the real error where a parent exists but refuses children (e.g. /proc), instead of looping.
 */
export function ensureDir(dir: string, mode = 0o700): void {
  try {
    mkdirSync(dir, { mode });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    if (code !== 'ENOENT' || existsSync(dirname(dir)) || dirname(dir) === dir) throw err;
    ensureDir(dirname(dir), mode);
    mkdirSync(dir, { mode });
  }
}
