import { StringDecoder } from 'node:string_decoder';

/** The answer to one command of a control-mode client: its output lines, and whether it failed. */
export interface ControlBlock {
  ok: boolean;
  lines: string[];
  /** tmux's flags field: 1 for a command this client wrote, 0 for the one it was started with. */
  fromClient: boolean;
}

/**
 * Reads a `tmux -C` client's stdout (ADR 0037): every command's answer is the lines between
 * `%begin TIME NUM FLAGS` and `%end`/`%error` with the same NUM; every other line outside a
 * block is a notification (`%sessions-changed`, `%exit`, …). Pure: bytes in, callbacks out.
 */
export class ControlParser {
  private readonly decoder = new StringDecoder('utf8');
  private partial = '';
  private block: { num: string; fromClient: boolean; lines: string[] } | null = null;

  constructor(
    private readonly onBlock: (block: ControlBlock) => void,
    private readonly onNotice: (line: string) => void = () => undefined,
  ) {}

  push(chunk: Buffer | string): void {
    const text = this.partial + (typeof chunk === 'string' ? chunk : this.decoder.write(chunk));
    const lines = text.split('\n');
    this.partial = lines.pop()!;
    for (const line of lines) this.line(line);
  }

  private line(line: string): void {
    if (this.block) {
      // Only the end with the begin's number closes it: a line of output that looks like an end does not.
      const end = /^%(end|error) \d+ (\d+) \d+$/.exec(line);
      if (end && end[2] === this.block.num) {
        const { lines, fromClient } = this.block;
        this.block = null;
        this.onBlock({ ok: end[1] === 'end', lines, fromClient });
      } else this.block.lines.push(line);
      return;
    }
    const begin = /^%begin \d+ (\d+) (\d+)$/.exec(line);
    if (begin) this.block = { num: begin[1]!, fromClient: begin[2] === '1', lines: [] };
    else this.onNotice(line);
  }
}
