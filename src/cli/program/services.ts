import { Argument, type Command } from 'commander';
import { examples, hinted } from '../hints.js';
import { COMPLETION_SHELLS, type Wiring } from './shared.js';

/** amux itself: the MCP server, contexts, the daemon, shell completion (src/guides/sessions.md). */
export function addServiceCommands(program: Command, { setExit, client }: Wiring): void {
  program
    .command('mcp')
    .description('serve amux to AI agents: a Model Context Protocol server on stdin/stdout (tools run, exec, list, inspect, read_output, screen, send, wait, kill, remove, jobs, up, down; session resources)')
    .addHelpText('after', '\nRegister it with an MCP client as the command "amux" with the argument "mcp" (amux help agents),\ne.g. for Claude Code: claude mcp add amux -- amux mcp')
    .addHelpText('after', examples(
      ['amux mcp', 'serve on stdin/stdout: what an MCP client runs'],
      ['AMUX_HOME=~/.local/state/amux-agent-1 amux mcp', 'a separate amux (daemon, sessions, history) for one agent'],
    ))
    .action(async () => setExit(await (require('../commands/mcp.js') as typeof import('../commands/mcp.js')).mcpCommand(client())));

  program
    .command('context')
    .description("named hosts (amux help remote): add NAME ssh://[user@]host[:port], ls, rm NAME, use NAME (the default for every command; 'local' is this machine)")
    .addArgument(hinted(new Argument('<action>', 'add | ls | rm | use'), { kind: 'words', words: ['add', 'ls', 'rm', 'use'] }))
    .addArgument(hinted(new Argument('[args...]', 'NAME, and for add the ssh:// address'), { kind: 'contexts' }))
    .option('--json', 'ls as JSON [{name, host, current}]')
    .addHelpText('after', examples(
      ['amux context add gpu ssh://me@gpu-box:2222', 'name a host; then: amux --context gpu run -- nvidia-smi'],
      ['amux context ls', 'the contexts, the current one marked'],
      ['amux context use gpu', "every command on it from now on ('amux context use local': back)"],
      ['amux context rm gpu', 'forget it'],
    ))
    .action(async (action: string, args: string[], opts) => setExit(await (require('../commands/context.js') as typeof import('../commands/context.js')).contextCommand(action, args, opts)));

  program
    .command('daemon')
    .description('manage the daemon: start, stop (sessions keep running), status (exit 3 when not running), run (foreground), dial-stdio (bridge stdin/stdout to it, for remote clients)')
    .addArgument(hinted(new Argument('<action>', 'start | stop | status | run | dial-stdio'), { kind: 'words', words: ['start', 'stop', 'status', 'run', 'dial-stdio'] }))
    .option('--json', 'status as JSON {pid, socket, version, uptimeMs, sessions, live, pending, settings}')
    .addHelpText('after', examples(
      ['amux daemon status', 'pid, version, sessions and the settings in force'],
      ['amux daemon status --json', 'the same as JSON (exit 3 when not running)'],
      ['amux daemon stop', 'stop it gracefully; sessions keep running'],
    ))
    .action(async (action: string, opts) => setExit(await (require('../commands/daemon.js') as typeof import('../commands/daemon.js')).daemonCommand(action, opts)));

  program
    .command('completion')
    .description('print the shell completion script for bash, zsh or fish (commands, flags, and session and job ids from the running daemon)')
    .addArgument(hinted(new Argument('<shell>', COMPLETION_SHELLS.join(' | ')), { kind: 'words', words: COMPLETION_SHELLS }))
    .addHelpText('after', examples(
      ['amux completion bash > ~/.local/share/bash-completion/completions/amux', 'bash, for every new shell'],
      ['amux completion zsh > ~/.zfunc/_amux', 'zsh, with fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc'],
      ['amux completion fish > ~/.config/fish/completions/amux.fish', 'fish'],
    ))
    .action(async (shell: string) => setExit(await (require('../completion.js') as typeof import('../completion.js')).completionCommand(shell)));
}
