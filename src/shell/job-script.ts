import { shellQuote } from '../core/quote.js';

/** How an `amux exec` job runs (ADR 0009). */
export type JobMode = 'foreground' | 'tty' | 'background';

export interface JobScriptSpec {
  seq: number;
  mode: JobMode;
  /** The bash source of the command (a shell line, or a quoted argv). */
  script: string;
  /** Directory of the job's captured streams (`out.*`, `err.*`); unused for tty jobs. */
  streamDir: string;
  /** Foreground only: the FIFO the job's stdin comes from (ADR 0017); without it, stdin is the terminal. */
  stdinFifo?: string;
  /** Foreground only: `streamDir` holds the shell's prepared capture, handed over by the daemon (ADR 0026). */
  prepared?: boolean;
}

/**
 * The file the session's shell sources from PROMPT_COMMAND when the job's turn comes (the rcfile
 * defines the `__amux_*` helpers). The command text is a single-quoted word run by `eval`, so it is
 * parsed exactly as typed at a prompt and nothing around it can change its meaning (`--`: a
 * line that starts with `-` is a command, not an option of eval); at top level,
 * so `cd`, `export`, functions and aliases of a foreground job stay in the shell.
 *
 * - foreground: announces its start, then runs with stdout and stderr captured (still shown in the pane),
 *   by the capture the shell prepared ahead when the daemon handed it over, else by one opened now;
 *   with a stdin FIFO, the shell opens it (and the capture) first, so that its start notice means it
 *   holds the FIFO's read end, and the command reads it as stdin (ADR 0017);
 * - tty: announces its start, then runs on the terminal (its output goes to the session log);
 * - background: starts a subshell that captures and reports itself, and announces its pid.
 */
export function buildJobScript(spec: JobScriptSpec): string {
  const cmd = shellQuote(spec.script);
  const start = `printf 'fg\\n' > "$__amux_exits/$__amux_sid.${spec.seq}.start"`;
  switch (spec.mode) {
    case 'background':
      return `__amux_bg ${spec.seq} ${shellQuote(spec.streamDir)} ${cmd}\n`;
    case 'tty':
      return `${start}\neval -- ${cmd}\n`;
    case 'foreground': {
      const io = `${spec.prepared ? '__amux_io_attach' : '__amux_io_open'} ${shellQuote(spec.streamDir)}`;
      const streams = `>&"$__amux_o" 2>&"$__amux_e" {__amux_o}>&- {__amux_e}>&- {__amux_sync}>&-`;
      if (spec.stdinFifo === undefined) return `${start}\n${io}\neval -- ${cmd} ${streams}\n`;
      // The read end stays open in the shell (until __amux_io_close), not in the command.
      return `${io}\nexec {__amux_in}<${shellQuote(spec.stdinFifo)}\n${start}\neval -- ${cmd} <&"$__amux_in" ${streams} {__amux_in}<&-\n`;
    }
  }
}
