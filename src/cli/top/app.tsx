import { useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { Key } from 'ink';
import { isTerminal, type SessionStatus } from '../../core/status.js';
import type { SessionView } from '../../protocol/sessions.js';
import type { OutsideEffect, TopController, TopSnapshot } from './controller.js';
import type { Ink } from './ink.js';
import { HELP, label, type KeyInfo } from './keys.js';
import { columns, headerText, layout, previewLines, rowText, scrollTop } from './model.js';
import { tableItems } from './stacks.js';
import { clean, fit, textWidth, truncate } from './text.js';

/** Status colours, the same as `amux ps`'s (src/cli/output.ts). */
const STATUS_COLOR: Record<SessionStatus, string> = {
  pending: 'gray', working: 'cyan', idle: 'yellow', paused: 'magenta',
  completed: 'green', failed: 'red', stopped: 'gray', expired: 'red',
};

const HINTS = '↑↓ select ⏎ attach l logs s send p pause K kill d rm / filter ? help q quit';

export interface AppProps {
  ink: Ink;
  controller: TopController;
  /** Colour on (a TTY, no NO_COLOR, no --no-color): without it, no colour attribute is set at all. */
  color: boolean;
  /** Quit, attach and logs leave the dashboard: the runner carries them out. */
  onOutside: (effect: OutsideEffect) => void;
}

function toKeyInfo(key: Key): KeyInfo {
  return {
    up: key.upArrow, down: key.downArrow, pageUp: key.pageUp, pageDown: key.pageDown, home: key.home, end: key.end,
    enter: key.return, escape: key.escape, backspace: key.backspace || key.delete, ctrl: key.ctrl,
  };
}

const clock = (ms: number) => (ms ? new Date(ms).toTimeString().slice(0, 8) : '--:--:--');

function headerLine(snap: TopSnapshot, width: number): string {
  const counts = new Map<string, number>();
  for (const s of snap.sessions) {
    const k = isTerminal(s.status) ? 'finished' : s.status;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const order = ['working', 'idle', 'paused', 'pending', 'finished'];
  const needy = snap.sessions.filter((s) => s.attention).length;
  const summary = [...(needy ? [`${needy} need you`] : []), ...order.filter((k) => counts.get(k)).map((k) => `${counts.get(k)} ${k}`)].join(' · ') || 'no sessions';
  const filter = snap.ui.filter ? `  /${snap.ui.filter}: ${snap.rows.length} of ${snap.sessions.length}` : '';
  const right = `${clock(snap.listedAt)}  ? help`;
  const left = truncate(`amux top  ${summary}${filter}`, Math.max(0, width - textWidth(right) - 1));
  return left + ' '.repeat(Math.max(1, width - textWidth(left) - textWidth(right))) + right;
}

function previewTitle(s: SessionView | undefined, snap: TopSnapshot, width: number): string {
  let title = '';
  if (s) {
    const what = snap.preview.kind === 'log' ? 'last lines of' : snap.preview.kind === 'screen' ? 'screen of' : '';
    const state = isTerminal(s.status) ? `${s.status}${s.exitCode === null ? '' : `, exit ${s.exitCode}`}` : `${s.status}${s.reason ? `, ${s.reason}` : ''}`;
    // The window title its program set (ADR 0050), controls as spaces.
    title = ` ${what ? `${what} ` : ''}${label(s)} · ${state}${s.title ? ` · ${clean(s.title)}` : ''} `;
  }
  const line = `──${truncate(title, Math.max(0, width - 4))}`;
  return line + '─'.repeat(Math.max(0, width - textWidth(line)));
}

/** The dashboard (src/guides/sessions.md "Dashboard"): header, table, the selected session's screen, footer. */
export function TopApp({ ink, controller, color, onOutside }: AppProps) {
  const { Box, Text, useInput, useStdout } = ink;
  const snap = useSyncExternalStore(controller.subscribe, controller.getSnapshot);
  const { stdout } = useStdout();
  const width = Math.max(20, stdout.columns || 80);
  const height = Math.max(8, stdout.rows || 24);
  const topRef = useRef(0);
  // The table's lines: rows, and a heading above each stack's rows (src/cli/top/stacks.ts).
  const items = tableItems(snap.rows);
  const { tableRows, previewRows } = layout(height, items.length);

  const [failing, setFailing] = useState(false);
  useInput((input, key) => {
    // For tests only (AMUX_TEST_TOP_FAIL, src/guides/configuration.md): `!` fails inside a render or
    // in a timer, so that the terminal's restoration after an error can be tested as a person sees it.
    const fail = process.env.AMUX_TEST_TOP_FAIL;
    if (input === '!' && fail === 'render') return setFailing(true);
    if (input === '!' && fail === 'throw') return void setTimeout(() => {
      throw new Error('a failure asked for by AMUX_TEST_TOP_FAIL');
    });
    const effect = controller.key(input, toKeyInfo(key), tableRows);
    if (effect) onOutside(effect);
  });
  if (failing) throw new Error('a render failure asked for by AMUX_TEST_TOP_FAIL');

  const { rows, ui } = snap;
  const mode = ui.mode;
  const selectedIndex = rows.findIndex((r) => r.id === ui.selectedId);
  const selectedItem = items.findIndex((it) => it.kind === 'row' && it.session.id === ui.selectedId);
  let top = scrollTop(selectedItem, items.length, tableRows, topRef.current);
  // Scrolling up to a stack's first row shows its heading too.
  if (top === selectedItem && top > 0 && items[top - 1]!.kind === 'stack') top--;
  topRef.current = top;
  const cols = columns(width, rows);
  const paint = (status: SessionStatus) => (color ? STATUS_COLOR[status] : undefined);

  const lines: ReactNode[] = [];
  const blank = (key: string) => <Text key={key}> </Text>;
  lines.push(<Text key="header" wrap="truncate-end" bold>{headerLine(snap, width)}</Text>);

  if (mode.kind === 'help') {
    const body = height - 1 - 2;
    for (let i = 0; i < body; i++) {
      const text = HELP[i];
      lines.push(text === undefined ? blank(`h${i}`) : <Text key={`h${i}`} wrap="truncate-end">{truncate(text, width) || ' '}</Text>);
    }
  } else {
    lines.push(<Text key="heads" wrap="truncate-end" bold>{truncate(headerText(cols), width)}</Text>);
    const shown = items.slice(top, top + tableRows);
    if (shown.length === 0) {
      lines.push(<Text key="r-none" wrap="truncate-end" dimColor>{truncate(rows.length === 0 && snap.sessions.length ? '  no session matches the filter (Esc clears it)' : "  no sessions: start one with 'amux run'", width)}</Text>);
    }
    for (const it of shown) {
      if (it.kind === 'stack') {
        lines.push(<Text key={`s-${it.name}`} wrap="truncate-end" bold>{truncate(`  ${it.text}`, width)}</Text>);
        continue;
      }
      const s = it.session;
      const selected = s.id === ui.selectedId;
      const r = rowText(s, cols, selected);
      lines.push(
        <Text key={`r-${s.id}`} wrap="truncate-end" inverse={selected} dimColor={isTerminal(s.status) && !selected}>
          {r.before}
          <Text color={paint(s.status)}>{r.status}</Text>
          {r.after}
        </Text>,
      );
    }
    for (let i = Math.max(shown.length, 1); i < tableRows; i++) lines.push(blank(`rb${i}`));
    const selected = rows[selectedIndex];
    lines.push(<Text key="ptitle" wrap="truncate-end" dimColor>{previewTitle(selected, snap, width)}</Text>);
    const preview = snap.preview.id === (selected?.id ?? null) ? snap.preview : { kind: 'note', text: '' };
    const text = preview.kind === 'note' ? (preview.text ? `  ${preview.text}` : '') : preview.text;
    const plines = previewLines(text, previewRows, width);
    plines.forEach((l, i) => lines.push(<Text key={`p${i}`} wrap="truncate-end" dimColor={preview.kind === 'note'}>{l || ' '}</Text>));
    for (let i = plines.length; i < previewRows; i++) lines.push(blank(`pb${i}`));
  }

  lines.push(<Footer key="footer" ink={ink} snap={snap} width={width} color={color} />);
  return (
    <Box flexDirection="column" width={width} height={height - 1} overflow="hidden">
      {lines}
    </Box>
  );
}

function Footer({ ink, snap, width, color }: { ink: Ink; snap: TopSnapshot; width: number; color: boolean }) {
  const { Text } = ink;
  const { mode, note, filter } = snap.ui;
  const input = (prompt: string, text: string, hint: string) => {
    const room = Math.max(1, width - textWidth(prompt) - textWidth(hint) - 2);
    const shown = textWidth(text) > room ? `…${[...text].slice(-(room - 1)).join('')}` : text;
    return (
      <Text wrap="truncate-end">
        {prompt}{shown}<Text inverse> </Text>{fit(hint, Math.max(0, width - textWidth(prompt) - textWidth(shown) - 1), true)}
      </Text>
    );
  };
  if (mode.kind === 'filter') return input('/', filter, 'Enter keep · Esc cancel');
  if (mode.kind === 'send') return input(`send to ${mode.label}: `, mode.text, 'Enter send · Esc cancel');
  if (mode.kind === 'confirm') return <Text wrap="truncate-end" bold>{truncate(mode.question, width)}</Text>;
  if (mode.kind === 'help') return <Text wrap="truncate-end" dimColor>{truncate('any key: back', width)}</Text>;
  if (note) return <Text wrap="truncate-end" color={color && note.error ? 'red' : undefined} bold={note.error}>{truncate(note.text, width)}</Text>;
  return <Text wrap="truncate-end" dimColor>{truncate(HINTS, width)}</Text>;
}
