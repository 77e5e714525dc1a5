/**
 * The keys of `amux top` (src/guides/sessions.md "Dashboard"; ADR 0020): a pure reducer from a key to the next UI
 * state and the effect the controller carries out, the selection kept across refreshes, the help.
 */
import { isTerminal } from '../../core/status.js';
import type { SessionView } from '../../protocol/sessions.js';


/** The keys `top` tells apart (mapped from ink's Key by the app). */
export interface KeyInfo {
  up?: boolean;
  down?: boolean;
  pageUp?: boolean;
  pageDown?: boolean;
  home?: boolean;
  end?: boolean;
  enter?: boolean;
  escape?: boolean;
  backspace?: boolean;
  ctrl?: boolean;
}

export type Mode =
  | { kind: 'list' }
  | { kind: 'help' }
  /** Typing the filter; `before` is what Esc goes back to. */
  | { kind: 'filter'; before: string }
  | { kind: 'send'; id: string; label: string; text: string }
  | { kind: 'confirm'; action: 'kill' | 'remove'; id: string; question: string };

export interface UiState {
  filter: string;
  selectedId: string | null;
  mode: Mode;
  /** A one-line note for the footer (an action's outcome or why it was not done). */
  note: { text: string; error: boolean } | null;
}

/** What a key asks the controller to do. */
export type Effect =
  | { type: 'quit' }
  | { type: 'attach'; session: SessionView }
  | { type: 'logs'; session: SessionView }
  | { type: 'send'; session: SessionView; text: string }
  | { type: 'kill'; session: SessionView }
  | { type: 'remove'; session: SessionView; force: boolean }
  | { type: 'pause'; session: SessionView }
  | { type: 'resume'; session: SessionView };

export const label = (s: SessionView): string => (s.name ? `${s.name} (${s.id})` : s.id);

/** Keeps the selection on the same session when it is still shown, else on the row at the same place. */
export function keepSelection(rows: readonly SessionView[], selectedId: string | null, previousIndex = 0): string | null {
  if (rows.length === 0) return null;
  if (selectedId && rows.some((r) => r.id === selectedId)) return selectedId;
  return rows[Math.min(Math.max(0, previousIndex), rows.length - 1)]!.id;
}

/**
 * What a key does (src/guides/sessions.md "Dashboard": keys). `rows` are the rows shown, `page` how many fit.
 * Returns the next state and, for keys that act on a session or quit, the effect to carry out.
 */
export function reduceKey(state: UiState, input: string, key: KeyInfo, rows: readonly SessionView[], page: number): { state: UiState; effect?: Effect } {
  if (key.ctrl && input === 'c') return { state, effect: { type: 'quit' } };
  const mode = state.mode;
  const next = (patch: Partial<UiState>): { state: UiState } => ({ state: { ...state, ...patch } });

  if (mode.kind === 'help') return next({ mode: { kind: 'list' } });

  if (mode.kind === 'filter') {
    if (key.escape) return next({ filter: mode.before, mode: { kind: 'list' } });
    if (key.enter) return next({ mode: { kind: 'list' } });
    if (key.backspace) return next({ filter: [...state.filter].slice(0, -1).join('') });
    if (key.ctrl && input === 'u') return next({ filter: '' });
    if (key.up || key.down || key.ctrl || !input) return { state };
    return next({ filter: state.filter + input.replace(/[\r\n\t]/g, ' ') });
  }

  if (mode.kind === 'send') {
    if (key.escape) return next({ mode: { kind: 'list' }, note: null });
    if (key.enter) {
      const s = rows.find((r) => r.id === mode.id);
      if (!s) return next({ mode: { kind: 'list' }, note: { text: 'that session is no longer shown; nothing sent', error: true } });
      return { state: { ...state, mode: { kind: 'list' } }, effect: { type: 'send', session: s, text: mode.text } };
    }
    if (key.backspace) return next({ mode: { ...mode, text: [...mode.text].slice(0, -1).join('') } });
    if (key.ctrl && input === 'u') return next({ mode: { ...mode, text: '' } });
    if (key.up || key.down || key.ctrl || !input) return { state };
    return next({ mode: { ...mode, text: mode.text + input } });
  }

  if (mode.kind === 'confirm') {
    const s = rows.find((r) => r.id === mode.id);
    if (input === 'y' || input === 'Y') {
      if (!s) return next({ mode: { kind: 'list' }, note: { text: 'that session is no longer shown; nothing done', error: true } });
      const effect: Effect = mode.action === 'kill' ? { type: 'kill', session: s } : { type: 'remove', session: s, force: !isTerminal(s.status) };
      return { state: { ...state, mode: { kind: 'list' } }, effect };
    }
    return next({ mode: { kind: 'list' }, note: { text: 'cancelled', error: false } });
  }

  // The list.
  const index = Math.max(0, rows.findIndex((r) => r.id === state.selectedId));
  const select = (i: number) => next({ selectedId: rows.length ? rows[Math.min(Math.max(0, i), rows.length - 1)]!.id : null });
  if (key.up || input === 'k') return select(index - 1);
  if (key.down || input === 'j') return select(index + 1);
  if (key.pageUp) return select(index - Math.max(1, page));
  if (key.pageDown) return select(index + Math.max(1, page));
  if (key.home || input === 'g') return select(0);
  if (key.end || input === 'G') return select(rows.length - 1);
  if (input === 'q') return { state, effect: { type: 'quit' } };
  if (input === '?') return next({ mode: { kind: 'help' } });
  if (input === '/') return next({ mode: { kind: 'filter', before: state.filter }, note: null });
  if (key.escape) return next({ filter: '', note: null });

  const s = rows.find((r) => r.id === state.selectedId);
  const needs = (what: string) => next({ note: { text: `no session selected to ${what}`, error: true } });
  if (key.enter) return s ? { state, effect: { type: 'attach', session: s } } : needs('attach to');
  if (input === 'l') return s ? { state, effect: { type: 'logs', session: s } } : needs('follow');
  if (input === 's') {
    if (!s) return needs('send to');
    if (isTerminal(s.status) || s.status === 'pending') return next({ note: { text: `${label(s)} is ${s.status}: only a live session takes input`, error: true } });
    return next({ mode: { kind: 'send', id: s.id, label: label(s), text: '' }, note: null });
  }
  if (input === 'p') {
    if (!s) return needs('pause');
    if (s.status === 'paused') return { state, effect: { type: 'resume', session: s } };
    if (s.status === 'working' || s.status === 'idle') return { state, effect: { type: 'pause', session: s } };
    return next({ note: { text: `${label(s)} is ${s.status}: only a working or idle session can be paused`, error: true } });
  }
  if (input === 'K') {
    if (!s) return needs('kill');
    if (isTerminal(s.status)) return next({ note: { text: `${label(s)} has already finished (${s.status})`, error: true } });
    return next({ mode: { kind: 'confirm', action: 'kill', id: s.id, question: `kill ${label(s)} (${s.status})? TERM, 5 s, then KILL  [y/n]` }, note: null });
  }
  if (input === 'd') {
    if (!s) return needs('remove');
    // A finished session goes at once (its history row stays); a live one is killed first, after a y.
    if (isTerminal(s.status) || s.status === 'pending') return { state, effect: { type: 'remove', session: s, force: false } };
    return next({ mode: { kind: 'confirm', action: 'remove', id: s.id, question: `${label(s)} is ${s.status}: kill it and remove it? [y/n]` }, note: null });
  }
  return { state };
}

/**
 * Several characters in one read (typed fast, or pasted) are keys one after another in the list
 * (`/web` opens the filter and types `web`); in a text field they are text, as one paste. Stops
 * at the first effect: the keys after a quit or an attach are not for the dashboard.
 */
export function reduceInput(state: UiState, input: string, key: KeyInfo, rows: readonly SessionView[], page: number): { state: UiState; effect?: Effect } {
  const chars = [...input];
  const plain = chars.length > 1 && !key.ctrl && !key.escape && !input.includes('\x1b');
  if (!plain) return reduceKey(state, input, key, rows, page);
  let current = state;
  for (let i = 0; i < chars.length; i++) {
    const m = current.mode.kind;
    if (m === 'filter' || m === 'send') {
      // The rest is text, up to a line end, which is Enter; what follows a pasted line end is
      // dropped rather than read as keys of the list (a paste must not kill a session).
      const rest = chars.slice(i).join('');
      const nl = rest.search(/[\r\n]/);
      const text = nl < 0 ? rest : rest.slice(0, nl);
      if (text) current = reduceKey(current, text, {}, rows, page).state;
      if (nl < 0) return { state: current };
      return reduceKey(current, '', { enter: true }, rows, page);
    }
    const ch = chars[i]!;
    const r = reduceKey(current, ch === '\r' ? '' : ch, ch === '\r' ? { enter: true } : {}, rows, page);
    if (r.effect) return r;
    current = r.state;
  }
  return { state: current };
}

/** The help overlay's lines. */
export const HELP: readonly string[] = [
  'amux top: sessions, live first and newest first; finished ones dimmed below',
  '',
  '  ↑/↓ j/k       select (PgUp/PgDn, g/G: page, first, last)',
  '  Enter         attach to the selected session (detach with C-b d to come back)',
  '  l             follow its log in the terminal (q, Esc or Ctrl-C to come back)',
  '  s             type a line into it (Enter sends, Esc cancels)',
  '  p             pause it, or resume it when paused',
  '  K             kill it (asks y/n): TERM, 5 s grace, then KILL',
  '  d             remove it when finished (history stays); a live one: kill and remove, asks y/n',
  '  /             filter: words in the name, id or command; status names, live, finished; label:KEY[=VALUE]',
  '  Esc           clear the filter',
  '  ?             this help (any key closes it)',
  '  q, Ctrl-C     quit',
  '',
  'CPU% is of one core, over the last second; MEM the resident memory of the tree.',
];
