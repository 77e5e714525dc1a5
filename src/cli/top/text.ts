/**
 * Text that fits a terminal width, for `amux top` (src/guides/sessions.md "Dashboard"; ADR 0020): column widths of
 * code points, cutting and padding, and the short forms of runtimes, CPU and memory. Pure.
 */

/** Columns a code point takes in a terminal: 0 for combining marks, 2 for wide (CJK, emoji), else 1. */
export function charWidth(cp: number): number {
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0xfe00 && cp <= 0xfe0f)) return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) || (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1f64f) || (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  ) return 2;
  return 1;
}

export function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += charWidth(ch.codePointAt(0)!);
  return w;
}

/** Control characters (a tab, an escape left in a name) as one space each, so that widths hold. */
export function clean(text: string): string {
  return text.replace(/[\x00-\x1f\x7f-\x9f]/g, ' ');
}

/** `text` cut to at most `width` columns, with `…` where it was cut. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return '';
  if (textWidth(text) <= width) return text;
  let out = '';
  let w = 0;
  for (const ch of text) {
    const cw = charWidth(ch.codePointAt(0)!);
    if (w + cw > width - 1) break;
    out += ch;
    w += cw;
  }
  return `${out}…`;
}

/** `text` cut or padded to exactly `width` columns; `right` aligns it to the right. */
export function fit(text: string, width: number, right = false): string {
  const t = truncate(text, width);
  const pad = ' '.repeat(Math.max(0, width - textWidth(t)));
  return right ? pad + t : t + pad;
}

// ---------------------------------------------------------------------------------------------
// Figures

/** Runtime: `12s`, `3m04s`, `2h03m`, `3d04h` (at most 6 columns up to 99 days). */
export function formatRuntime(ms: number | null): string {
  if (ms === null) return '-';
  const s = Math.max(0, Math.floor(ms / 1000));
  const two = (n: number) => String(n).padStart(2, '0');
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${two(s % 60)}s`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h${two(Math.floor((s % 3600) / 60))}m`;
  return `${Math.floor(s / 86_400)}d${two(Math.floor((s % 86_400) / 3600))}h`;
}

/** CPU % of one core: `0.4`, `12`, `230`; `-` while unknown (the first look). */
export function formatCpu(pct: number | null | undefined): string {
  if (pct === null || pct === undefined) return '-';
  return pct < 10 ? pct.toFixed(1) : String(Math.round(pct));
}

/** Resident memory: `640K`, `9.5M`, `120M`, `1.2G`; `-` while unknown. */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '-';
  const units = ['K', 'M', 'G', 'T'];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 && i > 0 ? v.toFixed(1) : Math.round(v)}${units[i]}`;
}
