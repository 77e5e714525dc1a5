import type { Block, Page, Span } from './doc.js';

export interface TerminalStyle {
  /** Columns to wrap text at. */
  width: number;
  /** Bold headings and literals (a terminal, no NO_COLOR). */
  color: boolean;
}

const BOLD = (s: string) => `\x1b[1m${s}\x1b[22m`;
/** The widest term with its meaning beside it. */
const TERM_COLUMN = 24;

/**
 * A page as `amux help` prints it (ADR 0063): what its man page says, laid out for a terminal.
 * Headings at the left, text indented by 2 and wrapped at the width, code as it is (never wrapped,
 * so that it can be copied), tables as aligned columns when they fit and as one block a row when
 * they do not. Escape codes only with `color`.
 */
export function toTerminal(page: Page, style: TerminalStyle): string {
  const out: string[] = [];
  out.push(...wrapSpans([{ text: page.name, style: 'strong' }, { text: ` - ${page.summary}` }], style, '', ''));
  for (const b of page.blocks) {
    out.push('');
    render(b, 2, style, out);
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n')}\n`;
}

function render(b: Block, indent: number, style: TerminalStyle, out: string[]): void {
  const pad = ' '.repeat(indent);
  switch (b.kind) {
    case 'heading': {
      const text = text_(b.text, false);
      const at = ' '.repeat(Math.max(0, Math.min(b.level - 2, 1) * 2 + indent - 2));
      out.push(`${at}${style.color ? BOLD(text) : text}`);
      return;
    }
    case 'paragraph':
      out.push(...wrapSpans(b.text, style, pad, pad));
      return;
    case 'code':
      for (const l of b.text.split('\n')) out.push(`${pad}  ${l}`.trimEnd());
      return;
    case 'list':
      b.items.forEach((item, n) => {
        const mark = b.ordered ? `${n + 1}. ` : '- ';
        item.forEach((inner, k) => {
          if (k > 0) out.push('');
          if (k === 0 && inner.kind === 'paragraph') out.push(...wrapSpans(inner.text, style, pad + mark, pad + ' '.repeat(mark.length)));
          else render(inner, indent + mark.length, style, out);
        });
      });
      return;
    case 'terms': {
      // As `--help` lays them out: the term, then its meaning beside it in a column; a term too long
      // for the column has its meaning on the lines below.
      const lengths = b.items.map((item) => length(text_(item.term, false)));
      const column = Math.min(Math.max(...lengths, 0), TERM_COLUMN) + 2;
      b.items.forEach((item, n) => {
        const term = text_(item.term, false);
        const shown = style.color ? BOLD(term) : term;
        const beside = pad + ' '.repeat(column);
        if (lengths[n]! <= TERM_COLUMN) {
          const lines = wrapSpans(item.body, style, beside, beside);
          out.push(`${pad}${shown}${' '.repeat(column - lengths[n]!)}${lines[0]!.slice(beside.length)}`.trimEnd(), ...lines.slice(1));
        } else out.push(`${pad}${shown}`, ...wrapSpans(item.body, style, beside, beside));
      });
      return;
    }
    case 'table': {
      const header = b.header.map((c) => text_(c, false));
      const rows = b.rows.map((r) => r.map((c) => text_(c, false)));
      const widths = header.map((h, c) => Math.max(length(h), ...rows.map((r) => length(r[c] ?? ''))));
      const total = indent + widths.reduce((a, w) => a + w, 0) + 2 * (widths.length - 1);
      if (total <= style.width) {
        const line = (cells: string[]) => `${pad}${cells.map((c, k) => (k === cells.length - 1 ? c : c + ' '.repeat(widths[k]! - length(c)))).join('  ')}`.trimEnd();
        const head = line(header);
        out.push(style.color ? BOLD(head) : head, ...rows.map(line));
      } else {
        // Too wide for columns: each row as "HEADER: cell" lines.
        rows.forEach((r, n) => {
          if (n > 0) out.push('');
          r.forEach((cell, c) => out.push(...wrap(`${header[c]}: ${cell}`, style.width, pad, `${pad}    `)));
        });
      }
      return;
    }
  }
}

function text_(spans: Span[], links: boolean): string {
  return spans.map((s) => (links && s.href && s.href !== s.text ? `${s.text} <${s.href}>` : s.text)).join('');
}

/** Wraps styled text: the words are measured without their escape codes. */
function wrapSpans(spans: Span[], style: TerminalStyle, first: string, rest: string): string[] {
  if (!style.color) return wrap(text_(spans, true), style.width, first, rest);
  // Mark styled runs with private-use characters, wrap, then turn the marks into escape codes.
  const [on, off, ion, ioff] = ['\uE000', '\uE001', '\uE002', '\uE003'];
  const marked = spans
    .map((s) => {
      const t = s.href && s.href !== s.text ? `${s.text} <${s.href}>` : s.text;
      if (s.style === 'code' || s.style === 'strong') return `${on}${t}${off}`;
      if (s.style === 'em') return `${ion}${t}${ioff}`;
      return t;
    })
    .join('');
  let bold = false;
  let italic = false;
  return wrap(marked, style.width, first, rest).map((line) => {
    // A styled run cut by the wrap goes on in the next line.
    let l = (bold ? '\x1b[1m' : '') + (italic ? '\x1b[3m' : '') + line;
    for (const ch of line) {
      if (ch === on) bold = true;
      else if (ch === off) bold = false;
      else if (ch === ion) italic = true;
      else if (ch === ioff) italic = false;
    }
    l = l.replaceAll(on, '\x1b[1m').replaceAll(off, '\x1b[22m').replaceAll(ion, '\x1b[3m').replaceAll(ioff, '\x1b[23m');
    return l + (bold ? '\x1b[22m' : '') + (italic ? '\x1b[23m' : '');
  });
}

/** Length as the terminal shows it: private-use marks take no column. */
function length(s: string): number {
  return [...s.replace(/[\uE000-\uE003]/g, '')].length;
}

/** Greedy word wrap; a word longer than the line stays whole. */
export function wrap(text: string, width: number, first: string, rest: string): string[] {
  const words = text.split(/ +/).filter((w) => w !== '');
  const out: string[] = [];
  let line = first;
  let empty = true;
  for (const w of words) {
    if (!empty && length(line) + 1 + length(w) > width) {
      out.push(line);
      line = rest + w;
    } else line += (empty ? '' : ' ') + w;
    empty = false;
  }
  out.push(line);
  return out;
}
