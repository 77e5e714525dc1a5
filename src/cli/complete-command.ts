import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { amuxPaths } from '../paths.js';
import { complete, formatAnswer, LOCAL_CONTEXT, none, SPEC_FILE, type Answer, type IdSource, type Spec } from './complete.js';

/*
 * `amux __complete WORD…` as a command (README "Shell completion"; ADR 0021): the spec the build
 * wrote, the ids of the running daemon, the answer on stdout. The deciding is `complete()`.
 */

/** How long completion waits for the daemon's answer: a hung daemon must not hang the shell. */
const DAEMON_DEADLINE_MS = 500;

/** Ids from the daemon if it runs; none (and no error) if it does not, or AMUX_HOME is unusable. */
function daemonIds(): IdSource {
  let client: import('../client/client.js').Client | null | undefined;
  const get = () => {
    if (client === undefined) {
      try {
        const paths = amuxPaths();
        // No socket, no daemon: answer without loading the socket client (node's `net` alone costs ~10 ms).
        if (!existsSync(paths.socket)) client = null;
        else {
          const { Client } = require('../client/client.js') as typeof import('../client/client.js');
          client = new Client(paths, false, undefined, DAEMON_DEADLINE_MS); // false: never start a daemon to complete a word
        }
      } catch {
        client = null;
      }
    }
    return client;
  };
  return {
    sessions: async () => (await get()?.sessions.list().catch(() => null)) ?? [],
    jobs: async (id) => (await get()?.jobs.list(id).catch(() => null)) ?? [],
    contexts: () => {
      try {
        const { listContexts, readConfigFile } = require('./contexts.js') as typeof import('./contexts.js');
        return listContexts(readConfigFile(amuxPaths())).map((c) => c.name);
      } catch {
        return [LOCAL_CONTEXT];
      }
    },
  };
}

/** The spec the build wrote next to the CLI; built from commander when it is missing (a tsc-only build). */
function loadSpec(): Spec {
  try {
    return JSON.parse(readFileSync(join(__dirname, SPEC_FILE), 'utf8')) as Spec;
  } catch {
    return (require('./full.js') as typeof import('./full.js')).commandSpec();
  }
}

/** The `amux __complete` entry (`main.ts`): prints the answer; always exit 0, nothing on stderr. */
export async function completeCommand(words: readonly string[]): Promise<number> {
  let answer: Answer;
  try {
    answer = await complete(loadSpec(), words.length ? words : [''], daemonIds());
  } catch {
    answer = none();
  }
  process.stdout.write(formatAnswer(answer));
  return 0;
}
