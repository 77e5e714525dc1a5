import { Command, Option } from 'commander';
import type { Client } from '../client/client.js';
import { VERSION } from '../version.js';
import { examples, hinted } from './hints.js';
import { addConfigCommands } from './program/config.js';
import { addJobCommands } from './program/jobs.js';
import { addLifecycleCommands } from './program/lifecycle.js';
import { addRecordCommands } from './program/records.js';
import { addServiceCommands } from './program/services.js';
import { addSessionCommands } from './program/sessions.js';
import { addStackCommands } from './program/stacks.js';
import type { Wiring } from './program/shared.js';

export { COMPLETION_SHELLS } from './program/shared.js';

/**
 * Builds the commander program; each action resolves to the process exit code via `setExit`. The
 * commands are defined by area in `program/`, in the order `amux --help` lists them.
 */
export function buildProgram(setExit: (code: number) => void): Command {
  // Commands and the client are loaded when used (require: no ESM loader on the hot path), because
  // node start-up is the floor of every command.
  const client = (): Client => (require('./target.js') as typeof import('./target.js')).newClient();
  // References may name a host, HOST:ID (src/guides/remote.md).
  const router = () => new (require('./refs.js') as typeof import('./refs.js')).Router();
  const routed = (ref: string): [Client, string] => {
    const r = router().route(ref);
    return [r.client, r.ref];
  };
  const wiring: Wiring = { setExit, client, router, routed };
  const program = new Command('amux')
    .description('Run commands and shells as tmux-backed sessions; know which are working, idle or done, with exact exit codes.')
    .version(VERSION, '-V, --version')
    .option('--no-color', 'never colour output (also: NO_COLOR)')
    .option('--host <url>', 'talk to the amux daemon of ssh://[user@]host[:port] over SSH (also: AMUX_HOST); before the command')
    .addOption(hinted(new Option('--context <name>', "talk to the daemon of this context ('amux context ls'; local: this machine); before the command"), { kind: 'contexts' }))
    // `amux help` prints pages of the reference: a command's, or a guide's (ADR 0063).
    .helpCommand('help [command|topic] [action]', "a command's reference page (with its action: group add), or a guide; alone: the commands and topics")
    .enablePositionalOptions()
    .showSuggestionAfterError(true)
    .addHelpText('after', '\nEnvironment: AMUX_HOME (state directory, default ~/.local/state/amux), AMUX_CLIENT_TIMEOUT (how long a request waits for an answer from the daemon, default 15s, 0 = no limit; a request given up on is never carried out later), AMUX_TMUX_CONTROL (on|off, read by the daemon as it starts: its tmux calls through one control-mode client; default on, before tmux 3.7 only on a tmux server it starts), NO_COLOR.\nRemote hosts: AMUX_HOST (ssh://[user@]host[:port]), AMUX_CONTEXT (a context name), AMUX_REMOTE_PATH (amux on the far side), AMUX_CONNECT_TIMEOUT (ssh connect, default 10s), AMUX_SSH_CONFIG (an ssh config file, ssh -F), AMUX_SSH (the ssh program, default ssh).\nSettings (also in AMUX_HOME/config.json, read when the daemon starts; \'amux config set\' changes one at once; shown by \'amux daemon status\'):\n  AMUX_MAX_LIVE, AMUX_IDLE_THRESHOLD, AMUX_LOG_CAP, AMUX_FINISHED_TTL, AMUX_HISTORY_RETENTION.\nSession references: full id, exact name, or unique id prefix; HOST:ID on the host of context HOST. Shell completion: amux completion --help.')
    .addHelpText('after', examples(
      ['amux run -n web -- npm run dev', 'start a session named web; prints its id'],
      ['amux run -w -- make test', 'stream its output and exit with its exit code'],
      ['amux ps', 'what runs: working, idle, completed, failed, …'],
      ['amux logs -f web', 'follow its output'],
    ));

  addSessionCommands(program, wiring);
  addStackCommands(program, wiring);
  addJobCommands(program, wiring);
  addRecordCommands(program, wiring);
  addLifecycleCommands(program, wiring);
  addConfigCommands(program, wiring);
  addServiceCommands(program, wiring);
  return program;
}
