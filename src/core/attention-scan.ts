/**
 * Finds the terminal's own requests for attention in raw output (src/guides/statuses.md: attention;
 * ADR 0034): a bell (BEL outside any escape sequence; inside an OSC string BEL is its terminator),
 * and the desktop-notification escapes OSC 9 (iTerm2), OSC 777 `notify` (rxvt/VTE) and OSC 99
 * (kitty). Pure and incremental: `scanAttention` reads one piece of output from where the last
 * piece left the parser, so the cost of a look is the new bytes only.
 *
 * The escape grammar is the VT500 parser's (as xterm and tmux run it): C0 controls inside a CSI are
 * executed (a BEL there rings), an ESC inside an OSC that is not the start of ST cancels the OSC
 * (so a notification whose message holds an escape is refused, and what follows is output), CAN
 * and SUB abort any sequence, DCS/SOS/PM/APC strings end at ST only.
 *
 * The same pass collects what programs announce in other OSC strings (core/osc-announce.ts:
 * OSC 7501 states, OSC 9;4 progress, OSC 133 marks, the window title; ADR 0049, ADR 0050). A
 * sequence split across two pieces is whole in the parser's state; an OSC string keeps at most
 * MAX_OSC_PAYLOAD bytes, so the memory per session is bounded whatever a program writes.
 */

import { afterMark, progressOf, programReportOf, promptMarkOf, splitOsc, titleOf, type ProgramReport, type ProgressReport, type PromptMark } from './osc-announce.js';

/**
 * Where an attention signal came from. `declared`: the program said `amux state waiting`;
 * `osc7501`: it reported `state=blocked` (ADR 0049).
 */
export type AttentionSource = 'bell' | 'osc9' | 'osc777' | 'osc99' | 'declared' | 'osc7501';

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
  kitty: KittyParts | null;
  /** The last OSC 99 notification completed with an id: a later part with that id adds to it (ADR 0050). */
  kittyDone: KittyParts | null;
}

interface KittyParts {
  id: string;
  title: string;
  body: string;
}

/** What programs announced in a piece (src/guides/statuses.md: announced states; ADR 0049, ADR 0050). */
export interface Announced {
  /** The last window title set (OSC 0, OSC 2); undefined: none was set. */
  title?: string;
  /** The last OSC 9;4 progress report. */
  progress?: ProgressReport;
  /** The last OSC 133 mark. */
  mark?: PromptMark;
  /** OSC 7501 reports in order (the newest MAX_REPORTS), each with its end's offset in the piece. */
  reports: Array<ProgramReport & { end: number }>;
}

/** The most OSC 7501 reports one piece keeps: a program that flips faster than the looks is read by its newest. */
export const MAX_REPORTS = 16;

export interface ScanResult {
  /** The signals in this piece, in order. */
  signals: AttentionSignal[];
  /** Printable output (not blanks, not escape sequences) after the last signal of the piece, or anywhere when it has none. */
  visibleAfter: boolean;
  announced: Announced;
}

/** Longest OSC payload kept; the rest of a longer one is dropped. */
export const MAX_OSC_PAYLOAD = 4096;
/** Longest title or message kept, in characters. */
export const MAX_MESSAGE_CHARS = 1000;

const BEL = 0x07, ESC = 0x1b, CAN = 0x18, SUB = 0x1a;

export function newScanState(): ScanState {
  return { mode: 'ground', payload: [], kitty: null, kittyDone: null };
}

/** Text as shown: C0 and C1 controls and DEL removed, at most MAX_MESSAGE_CHARS characters. */
export function cleanText(text: string): string {
  return [...text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '')].slice(0, MAX_MESSAGE_CHARS).join('');
}

const orNull = (s: string): string | null => (s === '' ? null : s);

/** The notification an OSC payload asks for, or null (another OSC, or a form that is not a notification). */
export function oscNotification(payload: string, state: ScanState): AttentionSignal | null {
  const [code, rest] = splitOsc(payload);
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
  // Bounded: a program that sends parts without end keeps at most a message's worth of each.
  if (part === 'title') pending.title = (pending.title + text).slice(0, MAX_KITTY_CHARS);
  else pending.body = (pending.body + text).slice(0, MAX_KITTY_CHARS);
  if (meta.get('d') === '0') {
    state.kitty = pending;
    return null;
  }
  state.kitty = null;
  // A later part of a notification already shown (same id) adds to it: a closing part with an
  // empty payload does not replace its title and message (ADR 0050).
  const before = id !== '' && state.kittyDone?.id === id ? state.kittyDone : null;
  const done = { id, title: pending.title || (before?.title ?? ''), body: pending.body || (before?.body ?? '') };
  if (before && done.title === before.title && done.body === before.body) return null;
  state.kittyDone = id === '' ? null : done;
  const title = orNull(cleanText(done.title));
  const body = orNull(cleanText(done.body));
  if (title === null && body === null) return null; // nothing to show
  // A title alone is the notification's text (kitty's simple form `ESC ] 99 ; ; Hello ST`).
  return body === null ? { source: 'osc99', title: null, message: title } : { source: 'osc99', title, message: body };
}

/** The most of an OSC 99 title or body kept while its parts arrive. */
const MAX_KITTY_CHARS = 4 * MAX_MESSAGE_CHARS;

/** Reads `bytes` on from `state` (which it updates) and reports the signals in them. */
export function scanAttention(bytes: Uint8Array, state: ScanState): ScanResult {
  const found: Found = { signals: [], visibleAfter: false, reports: [], announced: { title: undefined, progress: undefined, mark: undefined, reports: [] } };
  scanBytes(bytes, state, found);
  for (const [rest, end] of found.reports) {
    const report = programReportOf(rest);
    if (report) found.announced.reports.push({ ...report, end });
  }
  return { signals: found.signals, visibleAfter: found.visibleAfter, announced: found.announced };
}

/** What a piece holds, as the scan goes. */
interface Found {
  signals: AttentionSignal[];
  visibleAfter: boolean;
  announced: Announced;
  /**
   * OSC 7501 reports as written, the newest MAX_REPORTS: parsed once the piece is read (a program
   * that reports at every frame costs a copy per report, not a parse).
   */
  reports: Array<[string, number]>;
}

/**
 * The parser's loop, by itself: nothing follows it in this function, so that the optimised loop
 * (entered mid-loop, on-stack replacement) has no code after it that it never ran (which made V8
 * deoptimise it at every piece: measured with scripts/bench-scan.ts).
 */
function scanBytes(bytes: Uint8Array, state: ScanState, found: Found): void {
  const signal = (s: AttentionSignal) => {
    found.signals.push(s);
    found.visibleAfter = false;
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
      else if (b > 0x20 && b !== 0x7f) found.visibleAfter = true;
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
          dispatch(state, signal, found, i + 1);
        } else if (b === ESC) state.mode = 'oscEsc';
        else if (b >= 0x20 && state.payload.length < MAX_OSC_PAYLOAD) state.payload.push(b);
        break;
      case 'oscEsc':
        if (b === 0x5c) {
          state.mode = 'ground';
          dispatch(state, signal, found, i + 1);
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
}

/** A whole OSC string (`end`: the offset just after its terminator): a notification, or an announcement. */
function dispatch(state: ScanState, signal: (s: AttentionSignal) => void, found: Found, end: number): void {
  const { announced, reports } = found;
  const payload = Buffer.from(state.payload).toString('utf8');
  state.payload = [];
  const notification = oscNotification(payload, state);
  if (notification) return signal(notification);
  const [code, rest] = splitOsc(payload);
  if (code === '0' || code === '2') announced.title = titleOf(code, rest)!;
  else if (code === '9') {
    const progress = progressOf(rest);
    if (progress) announced.progress = progress;
  } else if (code === '133') {
    const mark = promptMarkOf(rest);
    if (mark) announced.mark = afterMark(announced.mark, mark);
  } else if (code === '7501') {
    if (reports.length === MAX_REPORTS) reports.shift();
    reports.push([rest, end]);
  }
}
