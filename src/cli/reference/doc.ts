/**
 * One page of the reference, as blocks, whatever it came from (ADR 0063): a command's page is built
 * from commander's definitions (`pages.ts`), a guide's from its Markdown (`parseMarkdown`). The same
 * page is printed in the terminal (`terminal.ts`, `amux help`) and written as a man page (`roff.ts`,
 * `npm run build`), so the two never differ in what they say.
 */

/** A run of text in one style: `code` is a literal to type (a flag, a command line). */
export interface Span {
  text: string;
  style?: 'code' | 'strong' | 'em';
  /** A link's target, shown after its text when it differs. */
  href?: string;
}

export type Block =
  | { kind: 'heading'; level: number; text: Span[] }
  | { kind: 'paragraph'; text: Span[] }
  /** Each item is blocks of its own (a paragraph, a nested list, a code block). */
  | { kind: 'list'; ordered: boolean; items: Block[][] }
  | { kind: 'code'; lang: string; text: string }
  | { kind: 'table'; header: Span[][]; rows: Span[][][] }
  /** Terms and what they mean: a command's arguments and options. */
  | { kind: 'terms'; items: Array<{ term: Span[]; body: Span[] }> };

export interface Page {
  /** `amux-run`, `amux-statuses`, `amux`. */
  name: string;
  /** 1: a command; 7: a guide. */
  section: 1 | 7;
  /** The one line after the name: what it is. */
  summary: string;
  blocks: Block[];
}

export const plain = (text: string): Span[] => [{ text }];
export const code = (text: string): Span => ({ text, style: 'code' });
export const spansText = (spans: Span[]): string => spans.map((s) => s.text).join('');

/** A guide in the subset of CommonMark the guides use (docs conventions): `# Title`, a summary paragraph, then blocks. */
export function parseGuide(name: string, markdown: string): Page {
  const blocks = parseMarkdown(markdown);
  const [first, second] = blocks;
  if (first?.kind !== 'heading' || first.level !== 1) throw new Error(`${name}: a guide starts with '# Title'`);
  if (second?.kind !== 'paragraph') throw new Error(`${name}: a guide's title is followed by a one-line summary paragraph`);
  return { name, section: 7, summary: `${spansText(first.text)}: ${spansText(second.text)}`, blocks: blocks.slice(2) };
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;
const ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])( +|$)/;
const DELIMITER_ROW = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

/**
 * Blocks of Markdown: ATX headings, paragraphs, bullet and ordered lists (nested by indentation),
 * fenced code blocks and pipe tables. No HTML, no setext headings, no indented code (the guides do
 * not use them): such lines are read as paragraph text.
 */
export function parseMarkdown(markdown: string): Block[] {
  const lines = markdown.replace(/\r\n?/g, '\n').replace(/\t/g, '    ').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  const blank = (l: string | undefined) => l === undefined || l.trim() === '';
  while (i < lines.length) {
    const line = lines[i]!;
    if (blank(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const indent = line.length - line.trimStart().length;
      const close = new RegExp(`^ {0,3}${fence[1]![0] === '`' ? '`' : '~'}{${fence[1]!.length},}\\s*$`);
      const body: string[] = [];
      i++;
      while (i < lines.length && !close.test(lines[i]!)) body.push(stripIndent(lines[i++]!, indent));
      i++; // the closing fence (or the end)
      blocks.push({ kind: 'code', lang: fence[2] ?? '', text: body.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ kind: 'heading', level: heading[1]!.length, text: parseInline(heading[2]!) });
      i++;
      continue;
    }
    if (line.includes('|') && DELIMITER_ROW.test(lines[i + 1] ?? '') && (lines[i + 1] ?? '').includes('-')) {
      const header = cells(line);
      const rows: string[][] = [];
      i += 2;
      while (i < lines.length && !blank(lines[i]) && lines[i]!.includes('|')) rows.push(cells(lines[i++]!));
      blocks.push({ kind: 'table', header: header.map(parseInline), rows: rows.map((r) => header.map((_, c) => parseInline(r[c] ?? ''))) });
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      const ordered = /\d/.test(item[2]!);
      const items: Block[][] = [];
      while (i < lines.length) {
        const m = ITEM.exec(lines[i]!);
        if (!m || /\d/.test(m[2]!) !== ordered) break;
        // The item's text starts after its marker; its other lines are indented at least that far.
        const width = m[0].length === lines[i]!.length ? m[1]!.length + m[2]!.length + 1 : m[0].length;
        const body = [lines[i]!.slice(m[0].length)];
        i++;
        while (i < lines.length) {
          const l = lines[i]!;
          if (blank(l)) {
            // A blank line goes on with the item only when an indented line follows it.
            let j = i;
            while (j < lines.length && blank(lines[j])) j++;
            if (j < lines.length && indentOf(lines[j]!) >= width) {
              for (; i < j; i++) body.push('');
              continue;
            }
            break;
          }
          if (indentOf(l) >= width) body.push(l.slice(width));
          else if (ITEM.exec(l) || FENCE.test(l) || HEADING.test(l)) break;
          else body.push(l.trim()); // a lazy continuation of the item's paragraph
          i++;
        }
        items.push(parseMarkdown(body.join('\n')));
        while (i < lines.length && blank(lines[i])) {
          // Blank lines between items of one list.
          let j = i;
          while (j < lines.length && blank(lines[j])) j++;
          const next = ITEM.exec(lines[j] ?? '');
          if (next && /\d/.test(next[2]!) === ordered) i = j;
          else break;
        }
      }
      blocks.push({ kind: 'list', ordered, items });
      continue;
    }
    const text: string[] = [];
    while (i < lines.length && !blank(lines[i]) && !FENCE.test(lines[i]!) && !HEADING.test(lines[i]!) && !ITEM.test(lines[i]!)) text.push(lines[i++]!.trim());
    blocks.push({ kind: 'paragraph', text: parseInline(text.join(' ')) });
  }
  return blocks;
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

function stripIndent(line: string, n: number): string {
  let k = 0;
  while (k < n && line[k] === ' ') k++;
  return line.slice(k);
}

/** The cells of a table row: `| a | b |` or `a | b`; `\|` is a pipe inside a cell. */
function cells(row: string): string[] {
  let r = row.trim();
  if (r.startsWith('|')) r = r.slice(1);
  if (r.endsWith('|') && !r.endsWith('\\|')) r = r.slice(0, -1);
  const out: string[] = [];
  let cell = '';
  let inCode = false;
  for (let k = 0; k < r.length; k++) {
    const ch = r[k]!;
    if (ch === '\\' && r[k + 1] === '|') {
      cell += '|';
      k++;
    } else if (ch === '`') {
      inCode = !inCode;
      cell += ch;
    } else if (ch === '|' && !inCode) {
      out.push(cell.trim());
      cell = '';
    } else cell += ch;
  }
  out.push(cell.trim());
  return out;
}

const PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/;

/** Inline Markdown: `code`, **strong**, *em* or _em_, [text](url), <url>, backslash escapes. */
export function parseInline(text: string): Span[] {
  const out: Span[] = [];
  const push = (span: Span) => {
    const last = out[out.length - 1];
    if (last && !last.style && !last.href && !span.style && !span.href) last.text += span.text;
    else if (span.text !== '') out.push(span);
  };
  let k = 0;
  while (k < text.length) {
    const ch = text[k]!;
    if (ch === '\\' && PUNCTUATION.test(text[k + 1] ?? '')) {
      push({ text: text[k + 1]! });
      k += 2;
      continue;
    }
    if (ch === '`') {
      let n = 1;
      while (text[k + n] === '`') n++;
      const ticks = '`'.repeat(n);
      const end = text.indexOf(ticks, k + n);
      if (end > 0) {
        let inner = text.slice(k + n, end);
        if (/^ .*[^ ].* $/.test(inner)) inner = inner.slice(1, -1);
        push({ text: inner, style: 'code' });
        k = end + n;
        continue;
      }
      push({ text: ticks });
      k += n;
      continue;
    }
    if (ch === '*' || ch === '_') {
      const strong = text[k + 1] === ch;
      const mark = strong ? ch + ch : ch;
      const before = text[k - 1];
      // `_` inside a word (snake_case) is text, as in CommonMark.
      const opens = text[k + mark.length] !== undefined && text[k + mark.length] !== ' ' && (ch === '*' || before === undefined || !/\w/.test(before));
      const end = opens ? findClose(text, mark, k + mark.length) : -1;
      if (end > 0) {
        for (const inner of parseInline(text.slice(k + mark.length, end))) push({ ...inner, style: inner.style === 'code' ? 'code' : strong ? 'strong' : 'em' });
        k = end + mark.length;
        continue;
      }
    }
    if (ch === '[') {
      const m = /^\[([^\]]+)\]\(([^)\s]+)\)/.exec(text.slice(k));
      if (m) {
        for (const inner of parseInline(m[1]!)) push({ ...inner, href: m[2]! });
        k += m[0].length;
        continue;
      }
    }
    if (ch === '<') {
      const m = /^<((?:https?|mailto):[^>\s]+)>/.exec(text.slice(k));
      if (m) {
        push({ text: m[1]!, href: m[1]! });
        k += m[0].length;
        continue;
      }
    }
    push({ text: ch });
    k++;
  }
  return out;
}

/** Where the emphasis that opened before `from` closes: the mark after a non-blank, not inside a code span. */
function findClose(text: string, mark: string, from: number): number {
  for (let k = from; k < text.length; k++) {
    if (text[k] === '\\') {
      k++;
      continue;
    }
    if (text[k] === '`') {
      const end = text.indexOf('`', k + 1);
      if (end > 0) k = end;
      continue;
    }
    if (text.startsWith(mark, k) && text[k - 1] !== ' ' && k > from) {
      if (mark.length === 1 && text[k + 1] === mark) {
        k++; // `**` inside `*…*` belongs to a strong run
        continue;
      }
      const after = text[k + mark.length];
      if (mark[0] === '_' && after !== undefined && /\w/.test(after)) continue;
      return k;
    }
  }
  return -1;
}
