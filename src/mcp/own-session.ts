import { readFileSync } from 'node:fs';

/*
 * The session `amux mcp` runs in (src/guides/agents.md: its own session). amux exports AMUX_SESSION_ID
 * into every session, but MCP clients start their servers with a few variables only, so the server
 * also looks for it in the environments its ancestors were started with: the agent that started it,
 * the session's shell.
 */

/** How far up the process tree to look (a session's shell is a few generations up). */
const MAX_GENERATIONS = 32;

/** The parent pid in the text of /proc/PID/stat (after the command name, which may hold spaces or ')'). */
export function parentPid(stat: string): number | null {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ppid = Number(fields[1]);
  return Number.isInteger(ppid) && ppid > 0 ? ppid : null;
}

/** AMUX_SESSION_ID in the text of /proc/PID/environ (NUL-separated), or null. */
export function sessionIdIn(environ: string): string | null {
  for (const entry of environ.split('\0')) if (entry.startsWith('AMUX_SESSION_ID=') && entry.length > 16) return entry.slice(16);
  return null;
}

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null; // gone, or another user's
  }
}

/** AMUX_SESSION_ID of this process's environment, else of the nearest ancestor's; null when none has it (or no /proc). */
export function findOwnSession(env: NodeJS.ProcessEnv = process.env, startPid = process.ppid, proc = '/proc'): string | null {
  if (env.AMUX_SESSION_ID) return env.AMUX_SESSION_ID;
  let pid: number | null = startPid;
  for (let i = 0; i < MAX_GENERATIONS && pid !== null && pid > 1; i++) {
    const environ = read(`${proc}/${pid}/environ`);
    const id = environ === null ? null : sessionIdIn(environ);
    if (id) return id;
    const stat = read(`${proc}/${pid}/stat`);
    pid = stat === null ? null : parentPid(stat);
  }
  return null;
}
