/**
 * Plain-text rendering of a terminal stream (`amux logs` default, src/guides/sessions.md): escape sequences
 * removed, `\r` and backspace overwrites applied per line, `\r\n` turned into `\n`.
 */

// CSI, OSC (BEL or ST terminated), DCS/SOS/PM/APC strings, and the two-byte escapes.
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[PX^_][^\x1b]*\x1b\\|\x1b[()*+][0-9A-Za-z]|\x1b[ -/]*[0-~]|\x9b[0-?]*[ -/]*[@-~]/g;

export function stripAnsi(text: string): string {
  return text.replace(ESCAPES, '');
}

/** Applies carriage returns and backspaces within one line, as a terminal would show it. */
export function renderLine(line: string): string {
  if (!/[\r\b]/.test(line)) return line.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '');
  const cells: string[] = [];
  let col = 0;
  for (const ch of line) {
    if (ch === '\r') col = 0;
    else if (ch === '\b') col = Math.max(0, col - 1);
    else if (ch === '\t' || ch >= ' ') {
      if (ch === '\x7f') continue;
      cells[col++] = ch;
    }
  }
  return cells.map((c) => c ?? ' ').join('');
}

/** Renders a complete text to plain lines. */
export function renderPlain(text: string): string {
  const lines = stripAnsi(text).split('\n');
  return lines.map((l) => renderLine(l.endsWith('\r') ? l.slice(0, -1) : l)).join('\n');
}

/** Incremental plain renderer for followed output: emits only whole lines until `end()`. */
export class PlainRenderer {
  private pending = '';

  push(text: string): string {
    this.pending += text;
    const nl = this.pending.lastIndexOf('\n');
    if (nl < 0) return '';
    const complete = this.pending.slice(0, nl + 1);
    this.pending = this.pending.slice(nl + 1);
    return renderPlain(complete);
  }

  end(): string {
    const rest = this.pending;
    this.pending = '';
    return rest ? renderPlain(rest) : '';
  }
}

/** Streaming `\r\n` → `\n` (`run -w` when stdout is not a TTY); holds back a trailing `\r`. */
export class CrlfToLf {
  private heldCr = false;

  push(chunk: Buffer): Buffer {
    let buf = this.heldCr ? Buffer.concat([Buffer.from('\r'), chunk]) : chunk;
    this.heldCr = buf.length > 0 && buf[buf.length - 1] === 0x0d;
    if (this.heldCr) buf = buf.subarray(0, -1);
    return Buffer.from(buf.toString('latin1').replace(/\r\n/g, '\n'), 'latin1');
  }

  end(): Buffer {
    const out = this.heldCr ? Buffer.from('\r') : Buffer.alloc(0);
    this.heldCr = false;
    return out;
  }
}

/** The last `n` lines of a text (a trailing newline does not count as an empty line). */
export function tailLines(text: string, n: number): string {
  if (n <= 0) return '';
  const trailing = text.endsWith('\n');
  const lines = (trailing ? text.slice(0, -1) : text).split('\n');
  const out = lines.slice(-n).join('\n');
  return trailing ? `${out}\n` : out;
}
