/**
 * Finds the terminal's own requests for attention in raw output (README "Statuses": attention;
 * ADR 0034): a bell (BEL outside any escape sequence; inside an OSC string BEL is its terminator),
 * and the desktop-notification escapes OSC 9 (iTerm2), OSC 777 `notify` (rxvt/VTE) and OSC 99
 * (kitty). Pure and incremental: `scanAttention` reads one piece of output from where the last
 * piece left the parser, so the cost of a look is the new bytes only.
 *
 * The escape grammar is the VT500 parser's (as xterm and tmux run it): C0 controls inside a CSI are
 * executed (a BEL there rings), an ESC inside an OSC that is not the start of ST cancels the OSC
 * (so a notification whose message holds an escape is refused, and what follows is output), CAN
 * and SUB abort any sequence, DCS/SOS/PM/APC strings end at ST only.
 */

/** Where an attention signal came from. `declared`: the program said `amux state waiting`. */
export type AttentionSource = 'bell' | 'osc9' | 'osc777' | 'osc99' | 'declared';

export interface AttentionSignal {
  source: AttentionSource;
  /** The notification's title (OSC 777, OSC 99), null when it has none. */
  title: string | null;
  /** The notification's text, null for a bell; control characters removed. */
  message: string | null;
}

type Mode = 'ground' | 'esc' | 'escInter' | 'csi' | 'osc' | 'oscEsc' | 'str' | 'strEsc';

/** The parser between two pieces of output (kept in the daemon's memory per session). */
export interface ScanState {
  mode: Mode;
  payload: number[];
  /** An OSC 99 notification sent in parts (`d=0`), until its last part. */
  kitty: { id: string; title: string; body: string } | null;
}

export interface ScanResult {
  /** The signals in this piece, in order. */
  signals: AttentionSignal[];
  /** Printable output (not blanks, not escape sequences) after the last signal of the piece, or anywhere when it has none. */
  visibleAfter: boolean;
}

/** Longest OSC payload kept; the rest of a longer one is dropped. */
export const MAX_OSC_PAYLOAD = 4096;
/** Longest title or message kept, in characters. */
export const MAX_MESSAGE_CHARS = 1000;

const BEL = 0x07, ESC = 0x1b, CAN = 0x18, SUB = 0x1a;

export function newScanState(): ScanState {
  return { mode: 'ground', payload: [], kitty: null };
}

/** Text as shown: C0 and C1 controls and DEL removed, at most MAX_MESSAGE_CHARS characters. */
export function cleanText(text: string): string {
  return [...text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '')].slice(0, MAX_MESSAGE_CHARS).join('');
}

const orNull = (s: string): string | null => (s === '' ? null : s);

/** The notification an OSC payload asks for, or null (another OSC, or a form that is not a notification). */
export function oscNotification(payload: string, state: ScanState): AttentionSignal | null {
  const semi = payload.indexOf(';');
  const code = semi < 0 ? payload : payload.slice(0, semi);
  const rest = semi < 0 ? '' : payload.slice(semi + 1);
  if (code === '9') {
    // ConEmu's OSC 9 subcommands (`9;4;…` is a progress bar in Windows Terminal and others) are not notifications.
    if (/^\d+(;|$)/.test(rest)) return null;
    return { source: 'osc9', title: null, message: orNull(cleanText(rest)) };
  }
  if (code === '777') {
    const parts = rest.split(';');
    if (parts[0] !== 'notify') return null; // 777;precmd and the like: shell integration, not a notification
    return { source: 'osc777', title: orNull(cleanText(parts[1] ?? '')), message: orNull(cleanText(parts.slice(2).join(';'))) };
  }
  if (code === '99') return kittyNotification(rest, state);
  return null;
}

/** OSC 99 (kitty's desktop notifications): `metadata;payload`, metadata `k=v` pairs joined by `:`. */
function kittyNotification(rest: string, state: ScanState): AttentionSignal | null {
  const semi = rest.indexOf(';');
  const meta = new Map<string, string>();
  for (const kv of (semi < 0 ? rest : rest.slice(0, semi)).split(':')) {
    const eq = kv.indexOf('=');
    if (eq > 0) meta.set(kv.slice(0, eq), kv.slice(eq + 1));
  }
  let text = semi < 0 ? '' : rest.slice(semi + 1);
  if (meta.get('e') === '1') text = Buffer.from(text, 'base64').toString('utf8');
  const part = meta.get('p') ?? 'title';
  if (part !== 'title' && part !== 'body') return null; // close, icon, buttons, queries: not a notification
  const id = meta.get('i') ?? '';
  const pending = state.kitty?.id === id ? state.kitty : { id, title: '', body: '' };
  if (part === 'title') pending.title += text;
  else pending.body += text;
  if (meta.get('d') === '0') {
    state.kitty = pending;
    return null;
  }
  state.kitty = null;
  const title = orNull(cleanText(pending.title));
  const body = orNull(cleanText(pending.body));
  // A title alone is the notification's text (kitty's simple form `ESC ] 99 ; ; Hello ST`).
  return body === null ? { source: 'osc99', title: null, message: title } : { source: 'osc99', title, message: body };
}

/** Reads `bytes` on from `state` (which it updates) and reports the signals in them. */
export function scanAttention(bytes: Uint8Array, state: ScanState): ScanResult {
  const signals: AttentionSignal[] = [];
  let visibleAfter = false;
  const signal = (s: AttentionSignal) => {
    signals.push(s);
    visibleAfter = false;
  };
  const escape = (b: number) => {
    if (b === 0x5b) state.mode = 'csi';
    else if (b === 0x5d) {
      state.mode = 'osc';
      state.payload = [];
    } else if (b === 0x50 || b === 0x58 || b === 0x5e || b === 0x5f) state.mode = 'str';
    else if (b >= 0x20 && b <= 0x2f) state.mode = 'escInter';
    else if (b === ESC) state.mode = 'esc';
    else state.mode = 'ground';
  };
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (state.mode === 'ground') {
      // The common case, kept tight: plain output up to the next BEL or ESC.
      if (b === BEL) signal({ source: 'bell', title: null, message: null });
      else if (b === ESC) state.mode = 'esc';
      else if (b > 0x20 && b !== 0x7f) visibleAfter = true;
      continue;
    }
    if (b === CAN || b === SUB) {
      state.mode = 'ground';
      continue;
    }
    switch (state.mode) {
      case 'esc':
        escape(b);
        break;
      case 'escInter':
        if (b === ESC) state.mode = 'esc';
        else if (b >= 0x30 && b <= 0x7e) state.mode = 'ground';
        break;
      case 'csi':
        if (b === BEL) signal({ source: 'bell', title: null, message: null });
        else if (b === ESC) state.mode = 'esc';
        else if (b >= 0x40 && b <= 0x7e) state.mode = 'ground';
        break;
      case 'osc':
        if (b === BEL) {
          state.mode = 'ground';
          dispatch(state, signal);
        } else if (b === ESC) state.mode = 'oscEsc';
        else if (b >= 0x20 && state.payload.length < MAX_OSC_PAYLOAD) state.payload.push(b);
        break;
      case 'oscEsc':
        if (b === 0x5c) {
          state.mode = 'ground';
          dispatch(state, signal);
        } else escape(b); // not ST: the OSC is cancelled, and this ESC starts a sequence of its own
        break;
      case 'str':
        if (b === ESC) state.mode = 'strEsc';
        break;
      case 'strEsc':
        if (b === 0x5c) state.mode = 'ground';
        else escape(b);
        break;
    }
  }
  return { signals, visibleAfter };
}

function dispatch(state: ScanState, signal: (s: AttentionSignal) => void): void {
  const found = oscNotification(Buffer.from(state.payload).toString('utf8'), state);
  state.payload = [];
  if (found) signal(found);
}
