/**
 * How the daemon's node process is started (ADR 0042), shared by the launcher that starts it and
 * the daemon that undoes what must not reach its sessions.
 */

/**
 * Node's options: young-generation semi-spaces of 1 MB instead of up to 16 MB (the daemon's
 * allocations are small and short-lived: 25 MB less RSS, no CPU cost measured). And the two V8
 * flags the daemon sets for itself once running (the memory upkeep's full collection, ADR 0042; the
 * regex thread's linear-time engine, ADR 0029), from its start: V8 takes a code cache only under the
 * flags it was written with, and the daemon's is written once they are set (ADR 0069).
 */
export const DAEMON_NODE_FLAGS = ['--max-semi-space-size=1', '--expose-gc', '--enable-experimental-regexp-engine'];

/** Set beside MALLOC_ARENA_MAX when the launcher, not the user, set it. */
const ARENAS_SET_BY_AMUX = 'AMUX_DAEMON_ARENAS';

/**
 * The daemon's environment: the caller's, with glibc's malloc kept to two arenas (its threads are
 * libuv's and V8's helpers; the default, eight per core, held ~5 MB more) unless the caller chose.
 */
export function daemonEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.MALLOC_ARENA_MAX !== undefined) return env;
  return { ...env, MALLOC_ARENA_MAX: '2', [ARENAS_SET_BY_AMUX]: '1' };
}

/** In the daemon, once started (malloc read it already): the setting the launcher added does not reach tmux and the sessions. */
export function forgetDaemonEnv(env: NodeJS.ProcessEnv): void {
  if (env[ARENAS_SET_BY_AMUX] === undefined) return;
  delete env.MALLOC_ARENA_MAX;
  delete env[ARENAS_SET_BY_AMUX];
}
