import { parseKillSignal } from '../core/signals.js';

/**
 * What users of docker, kill(1) and pueue type by habit, answered with the amux way to say it
 * (src/guides/sessions.md: habits). Pure: the words in, a line (or rewritten words) out.
 */

/**
 * The words a command takes as options: those before `--`, and for `run` those before the command,
 * for `exec` (`exec [opts] ID [opts] CMD…`) those before the word after its id.
 */
function optionWords(args: readonly string[]): string[] {
  const verb = args[0];
  const out: string[] = [];
  let seenId = false;
  for (let i = 1; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (a.startsWith('-') && a !== '-') {
      out.push(a);
      continue;
    }
    if (TAKES_VALUE.has(args[i - 1]!)) continue; // `-w DIR`: the value of a habit flag
    if (verb === 'run') break;
    if (verb === 'exec') {
      if (seenId) break;
      seenId = true;
    }
  }
  return out;
}

/** Habit flags that take a value (`exec -w DIR`, `-e K=V`): the value is not the command. */
const TAKES_VALUE = new Set(['-w', '--workdir', '-e', '--env', '-u', '--user']);

const HINTS: Record<string, Record<string, string>> = {
  run: {
    '-d': "run has no -d: sessions always run detached (run prints the id and returns); -w waits for the end",
    '--detach': "run has no --detach: sessions always run detached (run prints the id and returns); -w waits for the end",
    '-it': 'run has no -it: every session is a terminal already; amux attach ID puts yours on it',
    '-ti': 'run has no -ti: every session is a terminal already; amux attach ID puts yours on it',
    '-t': 'run has no -t: every session is a terminal already; amux attach ID puts yours on it',
    '-i': 'run has no -i: every session is a terminal already; amux attach ID to type into it (or amux send ID TEXT)',
  },
  exec: {
    '-it': "exec has no -it: amux attach ID for the session's terminal; exec --tty runs a job on it, exec -i passes stdin on",
    '-ti': "exec has no -ti: amux attach ID for the session's terminal; exec --tty runs a job on it, exec -i passes stdin on",
    '-t': 'exec has no -t: --tty runs the job on the terminal; amux attach ID puts yours on it',
    '-w': "exec has no -w: jobs run in the session's shell, so: amux exec ID -- 'cd DIR && CMD'",
    '--workdir': "exec has no --workdir: jobs run in the session's shell, so: amux exec ID -- 'cd DIR && CMD'",
    '-e': "exec has no -e: jobs run in the session's shell, so: amux exec ID -- 'KEY=VALUE CMD' (or export it first)",
    '--env': "exec has no --env: jobs run in the session's shell, so: amux exec ID -- 'KEY=VALUE CMD' (or export it first)",
  },
  ps: {
    '-a': 'ps has no -a: it lists finished sessions too (until amux rm); only those: --status finished; removed ones as well: amux history',
    '--all': 'ps has no --all: it lists finished sessions too (until amux rm); only those: --status finished; removed ones as well: amux history',
  },
};

/** Commands other tools have that amux says another way. */
const VERBS: Record<string, string> = {
  stop: "unknown command 'stop': amux kill NAME stops a session (TERM, then KILL after --grace); amux pause NAME holds it",
  start: "unknown command 'start': amux restart NAME runs a session's command again; amux run starts a new one",
  version: "unknown command 'version': amux --version",
};

/** The one line for a habit in `args` (the words after `amux`), or null when there is none. */
export function habitHint(args: readonly string[]): string | null {
  const verb = args[0];
  if (verb === undefined) return null;
  if (Object.hasOwn(VERBS, verb)) return VERBS[verb]!;
  const table = Object.hasOwn(HINTS, verb) ? HINTS[verb]! : undefined;
  if (!table) return null;
  for (const w of optionWords(args)) {
    const flag = w.startsWith('--') && w.includes('=') ? w.slice(0, w.indexOf('=')) : w;
    if (Object.hasOwn(table, flag)) return table[flag]!;
  }
  return null;
}

/**
 * `amux kill -9 NAME`, `-KILL`, `-SIGKILL`: the signal as kill(1) takes it, rewritten to `-s SIG`
 * before commander parses (which would take `-9` for an id, and `-KILL` for an unknown option).
 * Names are upper case, as kill(1) prints them; lower-case words stay flags.
 */
export function killSignalWords(args: readonly string[]): string[] {
  if (args[0] !== 'kill') return [...args];
  const out = [args[0]];
  for (let i = 1; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      out.push(...args.slice(i));
      break;
    }
    const m = /^-(\d+|(?:SIG)?[A-Z][A-Z0-9+-]*)$/.exec(a);
    if (m && isKillSignal(m[1]!)) out.push('-s', m[1]!);
    else out.push(a);
  }
  return out;
}

function isKillSignal(word: string): boolean {
  try {
    parseKillSignal(word);
    return true;
  } catch {
    return false;
  }
}
