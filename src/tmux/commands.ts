import { shellQuote } from '../core/quote.js';

/**
 * Pure builders of tmux argv (decide, then do): the executor in `tmux.ts` only runs them.
 * Targets are pane ids (`%N`) or `=amux-<id>` exact session names; no user string is ever
 * part of a tmux format or a shell line here, except the paths quoted for pipe-pane's /bin/sh.
 */
export const PANE_FORMAT = [
  '#{session_name}', '#{pane_id}', '#{pane_pid}', '#{pane_dead}', '#{pane_dead_status}',
  '#{cursor_x}', '#{cursor_y}', '#{history_size}', '#{pane_dead_signal}',
].join('\t');

export function tmuxSessionName(id: string): string {
  return `amux-${id}`;
}

export function exactSession(id: string): string {
  return `=${tmuxSessionName(id)}`;
}

/**
 * The pane of session `id`, by its exact session name. Stored pane ids (`%N`) are not used as
 * targets: a new tmux server (after the old one was killed) numbers its panes from %0 again, so
 * an old id could point at another session's pane.
 */
export function paneTarget(id: string): string {
  return `${exactSession(id)}:`;
}

export interface NewSessionSpec {
  id: string;
  bash: string;
  /** GNU coreutils `timeout`: the pane's process, the parent of bash. */
  timeout: string;
  rcfile: string;
  logPrefix: string;
  chunkBytes: number;
  /** Chunks kept on disk: opening chunk n deletes chunk n-keep (the cap holds without the daemon). */
  keepChunks: number;
  width?: number;
  height?: number;
}

/**
 * The pane's process (ADR 0010): GNU `timeout --foreground 0` (no time limit) runs the session's
 * bash as its child. tmux continues a pane process the moment it stops, so bash must not be the
 * pane process for `amux pause` to hold it stopped; `timeout` waits without WUNTRACED and does not
 * notice a stop, forwards a hangup's SIGHUP to bash (as when bash led the terminal's session), and
 * exits as bash did (its status, or the same signal).
 */
export function paneCommand(spec: Pick<NewSessionSpec, 'timeout' | 'bash' | 'rcfile'>): string[] {
  return [tmuxLiteral(spec.timeout), '--foreground', '0', tmuxLiteral(spec.bash), '--noprofile', '--rcfile', tmuxLiteral(spec.rcfile), '-i'];
}

/**
 * One tmux invocation that creates the session, keeps a dead pane visible, and starts the
 * lossless log before the server reads any output from the pane (the command queue runs all
 * three before the event loop reads the pty).
 */
export function newSessionArgs(spec: NewSessionSpec): string[] {
  const name = tmuxSessionName(spec.id);
  // GNU split runs --filter with $SHELL, which is the user's (fish, tcsh, …): pin it to sh.
  const pipe = formatLiteral(`SHELL=/bin/sh exec split -b ${spec.chunkBytes} -a 6 -d --filter=${shellQuote(chunkFilter(spec.keepChunks))} - ${shellQuote(spec.logPrefix)}`);
  return [
    'new-session', '-d', '-s', name, '-x', String(spec.width ?? 80), '-y', String(spec.height ?? 24),
    '-P', '-F', '#{pane_id}\t#{pane_pid}',
    '--', ...paneCommand(spec),
    ';', 'set-option', '-w', '-t', `=${name}:`, 'remain-on-exit', 'on',
    ';', 'pipe-pane', '-O', '-t', `=${name}:`, tmuxLiteral(pipe),
  ];
}

/**
 * The /bin/sh filter `split` runs for each new chunk ($FILE = its path): drop the chunk that
 * falls out of the cap, then copy this chunk's bytes. POSIX sh only (dash); no user data in it.
 * The chunk is named by $FILE's suffix (six digits, `split -a 6`), so the directory may hold dots.
 * Arithmetic, not `expr`: each chunk costs one sh and one cat, no more (measured: two `expr` forks
 * were ~10 ms a chunk here). `1$suffix - 1000000` reads the suffix as decimal despite its zeros.
 */
export function chunkFilter(keep: number, honourHold = false): string {
  const k = Math.max(1, Math.floor(keep));
  // With honourHold (job streams, ADR 0009), a file `hold` beside the chunks keeps them all while a
  // live reader is behind; the daemon prunes to the cap when it lets go. Job streams are written from
  // inside their directory (ADR 0026), so `hold` is a relative path.
  const hold = honourHold ? ' && [ ! -e hold ]' : '';
  return `n=$((1\${FILE##*.} - 1000000)); k=$((n - ${k})); if [ "$k" -ge 0 ]${hold}; then r=$((1000000 + k)); rm -f "\${FILE%.*}.\${r#1}"; fi; exec cat > "$FILE"`;
}

export function listPanesArgs(): string[] {
  return ['list-panes', '-a', '-F', PANE_FORMAT];
}

/** A tmux command file that captures many panes in one call, each preceded by a separator line. */
export function captureScript(paneIds: readonly string[], separator: string): string {
  // The pane id comes from the #{pane_id} format: display-message text goes through strftime, so a
  // literal '%12' would come back as '        %12' (a width of 12).
  return paneIds.map((p) => `display-message -p -t ${p} '${separator} #{pane_id}'\ncapture-pane -p -t ${p}\n`).join('');
}

/** The names of every tmux session on the server, one per line. */
export function listSessionNamesArgs(): string[] {
  return ['list-sessions', '-F', '#{session_name}'];
}

/** One call that closes many sessions; tmux stops the chain at the first that fails (closed meanwhile). */
export function killSessionsArgs(ids: readonly string[]): string[] {
  return ids.flatMap((id, i) => [...(i ? [';'] : []), 'kill-session', '-t', exactSession(id)]);
}

/** Runs a command file from stdin (captureScript): many captures in one tmux process. */
export function sourceStdinArgs(): string[] {
  return ['source-file', '-'];
}

export function killSessionArgs(id: string): string[] {
  return ['kill-session', '-t', exactSession(id)];
}

/**
 * tmux expands `#{…}` formats and then strftime(3) in some arguments (pipe-pane's command):
 * `##` is a literal `#`, `%%` a literal `%` (else `%06d` becomes the day of the month).
 */
export function formatLiteral(arg: string): string {
  return arg.replace(/#/g, '##').replace(/%/g, '%%');
}

/**
 * tmux treats an argument ending in `;` as a command separator and turns a trailing `\;` into
 * `;`. Escaping the final `;` as `\;` makes any text arrive literally.
 */
export function tmuxLiteral(arg: string): string {
  return arg.endsWith(';') ? `${arg.slice(0, -1)}\\;` : arg;
}

/** Types literal text (`-l`), chunked by the caller to stay under tmux's message size. */
export function sendTextArgs(target: string, text: string): string[] {
  return ['send-keys', '-t', target, '-l', '--', tmuxLiteral(text)];
}

export function sendKeysArgs(target: string, keys: readonly string[]): string[] {
  return ['send-keys', '-t', target, '--', ...keys.map(tmuxLiteral)];
}

/** tmux's client-to-server message limit is 16 KiB: text up to this many UTF-16 units goes in as an argument. */
const SET_BUFFER_MAX = 4000;

/**
 * The tmux calls that put text into the pane as a paste, without Enter (src/guides/sessions.md: send;
 * ADR 0047): the text goes into a named buffer, and `paste-buffer -p` puts it in the pane, wrapped
 * in bracketed-paste codes when the program asked for them (so that an agent or a REPL takes it as
 * one paste, never as typed keys whose Enter is part of a burst), as typed otherwise (each newline
 * a carriage return, as a terminal's paste); `-d` deletes the buffer. One line that fits in a
 * message is one call (`set-buffer`, then the paste); other text goes through the client's stdin
 * (`load-buffer -`, no size limit of a message): `stdin` is then the first call's input.
 */
export function pasteTextCalls(target: string, buffer: string, text: string): { calls: string[][]; stdin: string | null } {
  const paste = ['paste-buffer', '-p', '-d', '-b', buffer, '-t', target];
  if (text.length <= SET_BUFFER_MAX && !/[\n\r]/.test(text)) {
    return { calls: [['set-buffer', '-b', buffer, '--', tmuxLiteral(text), ';', ...paste]], stdin: null };
  }
  return { calls: [['load-buffer', '-b', buffer, '-'], paste], stdin: text };
}

/**
 * One tmux call that hands a job to a session's shell (ADR 0009, 0031): clear whatever is typed at
 * the prompt (C-x C-k, which the rcfile binds to kill-whole-line in every keymap: unlike C-u, no
 * bell on an empty line), then Enter on the empty line. The job's number is in the session's
 * \`jobs/go\`, read by the prompt; nothing is typed that a person or a log reader would see.
 */
export function wakePromptArgs(target: string): string[] {
  return [...sendKeysArgs(target, ['C-x', 'C-k']), ';', ...sendKeysArgs(target, ['Enter'])];
}

/**
 * The same for a shell whose rcfile predates \`jobs/go\` (started by an older daemon): type
 * \` __amux_next=seq\` (the leading space keeps it out of history), Enter.
 */
export function typeJobArgs(target: string, seq: number): string[] {
  if (!Number.isInteger(seq) || seq < 1) throw new Error(`invalid job number ${seq}`);
  return [...sendKeysArgs(target, ['C-e', 'C-u']), ';', ...sendTextArgs(target, ` __amux_next=${seq}`), ';', ...sendKeysArgs(target, ['Enter'])];
}



export function capturePaneArgs(target: string, withEscapes: boolean): string[] {
  return ['capture-pane', '-p', ...(withEscapes ? ['-e'] : []), '-t', target];
}

export function attachArgs(id: string, readOnly: boolean): string[] {
  return ['attach-session', ...(readOnly ? ['-r'] : []), '-t', exactSession(id)];
}

export interface PaneInfo {
  sessionName: string;
  paneId: string;
  panePid: number;
  dead: boolean;
  deadStatus: number | null;
  /** The signal that killed the pane's process (tmux ≥ 3.3; its status is then empty). */
  deadSignal: number | null;
  cursorX: number;
  cursorY: number;
  historySize: number;
}

/** Parses `list-panes -a -F PANE_FORMAT` output. */
export function parsePanes(stdout: string): PaneInfo[] {
  const panes: PaneInfo[] = [];
  for (const line of stdout.split('\n')) {
    const f = line.split('\t');
    if (f.length < 8) continue;
    panes.push({
      sessionName: f[0]!,
      paneId: f[1]!,
      panePid: Number(f[2]),
      dead: f[3] === '1',
      deadStatus: f[4] === '' ? null : Number(f[4]),
      cursorX: Number(f[5]),
      cursorY: Number(f[6]),
      historySize: Number(f[7]),
      deadSignal: f[8] ? Number(f[8]) : null,
    });
  }
  return panes;
}

/** Splits the output of `captureScript` back into pane id → screen text. */
export function parseCaptures(stdout: string, separator: string): Map<string, string> {
  const out = new Map<string, string>();
  const parts = stdout.split(`${separator} `);
  for (const part of parts.slice(1)) {
    const nl = part.indexOf('\n');
    if (nl < 0) continue;
    out.set(part.slice(0, nl), part.slice(nl + 1));
  }
  return out;
}
