/**
 * Whether a program's newest output ends with a question to the terminal (ADR 0068): a report it
 * asks of the terminal itself, whose answer comes back on the terminal's input. A program that then
 * waits on the terminal waits for that answer, not for a person (Codex CLI at its start: the kitty
 * keyboard flags, DECRQM, DA1, the cursor position and both colours, then a wait of about a second
 * on the terminal for the answers tmux does not give).
 *
 * Queries: DSR (`CSI 5 n`, `CSI 6 n`, `CSI ? 6 n`), DA1/DA2/DA3 (`CSI c`, `CSI > c`, `CSI = c`),
 * the kitty keyboard flags (`CSI ? u`), DECRQM (`CSI … $ p`), XTVERSION (`CSI > q`), XTWINOPS
 * reports (`CSI 11|13|14|15|16|18|19|20|21 t`), colour and clipboard queries (`OSC 4;N;?`,
 * `OSC 10..19;?`, `OSC 52;…;?`), XTGETTCAP and DECRQSS (`DCS + q …`, `DCS $ q …`). Printable output
 * after a query means the program went on: no question pending.
 *
 * The escape grammar is the attention scan's (core/attention-scan.ts, the VT500 parser's): CAN and
 * SUB abort a sequence; an ESC in an OSC that does not start ST cancels it; DCS, SOS, PM and APC
 * strings end at ST, and their contents are not output.
 */
const ESC = 0x1b, BEL = 0x07, CAN = 0x18, SUB = 0x1a;
const MAX_KEPT = 64;

const WINDOW_REPORTS = new Set(['11', '13', '14', '15', '16', '18', '19', '20', '21']);

/** Whether a CSI sequence (its parameter and intermediate bytes, and its final byte) asks the terminal something. */
export function csiAsks(params: string, final: string): boolean {
  switch (final) {
    case 'n':
      return params === '5' || params === '6' || params === '?6';
    case 'c':
      return params === '' || params === '0' || params === '>' || params === '>0' || params === '=' || params === '=0';
    case 'u':
      return params === '?';
    case 'p':
      return params.endsWith('$');
    case 'q':
      return params === '>' || params === '>0';
    case 't':
      return WINDOW_REPORTS.has(params.split(';')[0]!);
    default:
      return false;
  }
}

/** Whether an OSC payload asks for a colour or the clipboard (`…;?`). */
export function oscAsks(payload: string): boolean {
  if (!payload.endsWith(';?')) return false;
  const code = payload.slice(0, payload.indexOf(';'));
  return code === '4' || code === '52' || /^1[0-9]$/.test(code);
}

/** Whether a DCS string asks the terminal something (XTGETTCAP `+q`, DECRQSS `$q`). */
export function dcsAsks(payload: string): boolean {
  return payload.startsWith('+q') || payload.startsWith('$q');
}

type Mode = 'ground' | 'esc' | 'csi' | 'osc' | 'oscEsc' | 'dcs' | 'dcsEsc' | 'str' | 'strEsc' | 'other';

/**
 * Whether `tail` (the newest bytes of a session's output) has a query to the terminal after its
 * last printable byte. A tail that starts inside a sequence reads its first bytes as plain output.
 */
export function asksTerminal(tail: Uint8Array): boolean {
  let mode: Mode = 'ground';
  let kept = '';
  let pending = false;
  const keep = (b: number) => {
    if (kept.length < MAX_KEPT) kept += String.fromCharCode(b);
  };
  for (let i = 0; i < tail.length; i++) {
    const b = tail[i]!;
    if ((b === CAN || b === SUB) && mode !== 'ground') {
      mode = 'ground';
      continue;
    }
    switch (mode) {
      case 'ground':
        if (b === ESC) mode = 'esc';
        else if (b > 0x20 && b !== 0x7f) pending = false;
        break;
      case 'esc':
        kept = '';
        mode = b === 0x5b ? 'csi' : b === 0x5d ? 'osc' : b === 0x50 ? 'dcs' : b === 0x58 || b === 0x5e || b === 0x5f ? 'str' : b === ESC ? 'esc' : b >= 0x20 && b <= 0x2f ? 'other' : 'ground';
        break;
      case 'other':
        if (b >= 0x30 && b <= 0x7e) mode = 'ground';
        else if (b === ESC) mode = 'esc';
        break;
      case 'csi':
        if (b >= 0x20 && b <= 0x3f) keep(b);
        else if (b >= 0x40 && b <= 0x7e) {
          if (csiAsks(kept, String.fromCharCode(b))) pending = true;
          mode = 'ground';
        } else if (b === ESC) mode = 'esc';
        break;
      case 'osc':
        if (b === BEL) {
          if (oscAsks(kept)) pending = true;
          mode = 'ground';
        } else if (b === ESC) mode = 'oscEsc';
        else keep(b);
        break;
      case 'oscEsc':
        if (b === 0x5c) {
          if (oscAsks(kept)) pending = true;
          mode = 'ground';
        } else {
          mode = 'esc'; // not ST: the OSC is cancelled, and this ESC starts a sequence of its own
          i--;
        }
        break;
      case 'dcs':
        if (b === ESC) mode = 'dcsEsc';
        else keep(b);
        break;
      case 'dcsEsc':
        if (b === 0x5c && dcsAsks(kept)) pending = true;
        mode = b === 0x5c ? 'ground' : 'dcs';
        break;
      case 'str':
        if (b === ESC) mode = 'strEsc';
        break;
      case 'strEsc':
        mode = b === 0x5c ? 'ground' : 'str';
        break;
    }
  }
  return pending;
}
