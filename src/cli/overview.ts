import { writeOut } from './output.js';

/**
 * What `amux` alone prints (ADR 0023): the common commands in the order one meets them, and where
 * the full reference is. test/unit/help.test.ts checks that every command named here exists.
 */
export const OVERVIEW = `amux runs commands and shells as tmux-backed sessions: it knows which are working, idle,
completed or failed, with their exact exit codes, and keeps their history.

Common commands:
  amux run -- CMD           start CMD in a session; prints its id
  amux run -w -- CMD        the same, streaming its output; exits with its exit code
  amux run -n NAME          start a shell session, for exec and send
  amux ps                   list sessions and their status
  amux logs [-f] ID         its output (-f: follow it)
  amux wait ID              block until it ends; exit with its exit code
  amux send ID TEXT         type into it (then Enter)
  amux exec ID -- CMD       run CMD in a shell session; its stdout, stderr and exit code
  amux attach ID            a real terminal on it (C-b d to detach)
  amux kill ID              stop it; amux rm ID removes it

ID is a session id, a unique id prefix or a name.
'amux --help' lists every command; 'amux COMMAND --help' explains one, with examples.
'amux help' lists the commands and guides; 'amux help COMMAND' or 'amux help TOPIC' is a
page of the reference (also: man amux-COMMAND). Shell completion: 'amux completion --help'.
`;

export async function overviewCommand(): Promise<number> {
  await writeOut(OVERVIEW);
  return 0;
}
