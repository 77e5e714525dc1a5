import type { Block, Page, Span } from './doc.js';

/**
 * A page as a man page in the man(7) macros (ADR 0063), read by man-db (groff) and mandoc alike:
 * `.TH`, `.SH NAME`, then the blocks. Text is escaped for roff: a backslash, a hyphen-minus (`\-`, so
 * that a flag copied from the page is still `--flag`), a line starting with `.` or `'`, and every
 * character outside ASCII as `\[uXXXX]`. Tables go through tbl (the page's first line asks for it).
 * Nothing in it depends on the day it was built, so a page built twice is the same file.
 */
export function toRoff(page: Page, version: string): string {
  const out: string[] = [];
  if (hasTable(page.blocks)) out.push("'\\\" t");
  // No hyphenation, ragged right: a flag or a command line is never split or stretched.
  out.push(`.TH ${quote(page.name.toUpperCase())} ${quote(String(page.section))} "" ${quote(`amux ${version}`)} ${quote(page.section === 1 ? 'amux manual' : 'amux guides')}`, '.nh', '.ad l');
  out.push('.SH NAME', `${escape(page.name)} \\- ${escape(page.summary)}`);
  blocks(page.blocks, out);
  return `${out.join('\n')}\n`;
}

function hasTable(bs: Block[]): boolean {
  return bs.some((b) => b.kind === 'table' || (b.kind === 'list' && b.items.some(hasTable)));
}

function blocks(bs: Block[], out: string[]): void {
  for (const b of bs) block(b, out);
}

function block(b: Block, out: string[]): void {
  switch (b.kind) {
    case 'heading':
      // Level 1 is the page's own title (in NAME); level 2 a section, deeper a subsection.
      if (b.level <= 2) out.push(`.SH ${quote(plainText(b.text).toUpperCase())}`);
      else out.push(`.SS ${quote(plainText(b.text))}`);
      return;
    case 'paragraph':
      out.push('.PP', ...lines(inline(b.text)));
      return;
    case 'code':
      out.push('.PP', '.RS 4', '.nf', ...b.text.split('\n').map((l) => guardLine(escape(l))), '.fi', '.RE');
      return;
    case 'list':
      b.items.forEach((item, n) => {
        out.push(`.IP ${b.ordered ? `${n + 1}.` : '\\(bu'} ${b.ordered ? 4 : 2}`);
        item.forEach((inner, k) => {
          if (inner.kind === 'paragraph') {
            if (k > 0) out.push('.IP "" ' + (b.ordered ? 4 : 2));
            out.push(...lines(inline(inner.text)));
          } else {
            out.push('.RS');
            block(inner, out);
            out.push('.RE');
          }
        });
      });
      out.push('.PP');
      return;
    case 'terms':
      for (const item of b.items) out.push('.TP', guardLine(inline(item.term)), ...lines(inline(item.body)));
      return;
    case 'table': {
      const cols = b.header.length;
      out.push('.PP', '.TS', 'allbox;', `${Array(cols).fill('lb').join(' ')}`, `${Array(cols).fill('lx').join(' ')}.`);
      const row = (cells: Span[][]) => cells.map((c) => `T{\n${guardLine(inline(c))}\nT}`).join('\t');
      out.push(row(b.header), ...b.rows.map(row), '.TE');
      return;
    }
  }
}

/** Roff escapes of inline spans: code and strong in bold, em in italics, a link's target after it. */
function inline(spans: Span[]): string {
  return spans
    .map((s) => {
      const text = escape(s.text);
      const styled = s.style === 'code' || s.style === 'strong' ? `\\fB${text}\\fR` : s.style === 'em' ? `\\fI${text}\\fR` : text;
      return s.href && s.href !== s.text ? `${styled} <${escape(s.href)}>` : styled;
    })
    .join('');
}

/** A paragraph's text as source lines: one per line of text, none starting with a control character. */
function lines(text: string): string[] {
  return text.split('\n').map(guardLine);
}

function guardLine(line: string): string {
  return /^[.']/.test(line) ? `\\&${line}` : line;
}

function plainText(spans: Span[]): string {
  return spans.map((s) => s.text).join('');
}

/** Text as roff reads it literally. */
export function escape(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\e';
    else if (ch === '-') out += '\\-';
    else if (c > 0x7e || (c < 0x20 && ch !== '\n')) out += c > 0xffff ? `\\[u${c.toString(16).toUpperCase()}]` : `\\[u${c.toString(16).toUpperCase().padStart(4, '0')}]`;
    else out += ch;
  }
  return out;
}

/** A macro argument in double quotes. */
function quote(text: string): string {
  return `"${escape(text).replace(/"/g, '\\(dq')}"`;
}
