import Table = require('cli-table3');
import { useColor } from './output.js';

/**
 * Boxed tables (cli-table3) for the human output of the commands whose tables are small: `stats`,
 * `daemon status`, and `inspect` on a terminal (ADR 0023). `ps`, `history` and `jobs` keep
 * `formatTable` (src/cli/output.ts): cli-table3 costs far more than their budget (ADR 0008), and
 * this module, loaded only by those three commands, is what loads it.
 */

/** No rule between rows; bold headings and grey borders only when colour is on (a TTY, no NO_COLOR, no --no-color). */
function style(): { head: string[]; border: string[]; compact: boolean } {
  return useColor() ? { head: ['bold'], border: ['grey'], compact: true } : { head: [], border: [], compact: true };
}

/** The room a table may take: the terminal's width, or 100 columns when stdout is not a terminal. */
function width(): number {
  return Math.max(40, process.stdout.isTTY ? process.stdout.columns || 100 : 100);
}

/** Two columns, a key and its value; long values wrap within the width. */
export function keyValueTable(rows: ReadonlyArray<readonly [string, string]>): string {
  const keyWidth = Math.max(...rows.map(([k]) => k.length)) + 2;
  const valueWidth = Math.max(10, ...rows.map(([, v]) => Math.max(...v.split('\n').map((l) => l.length)) + 2));
  const table = new Table({
    style: style(),
    colWidths: [keyWidth, Math.min(valueWidth, width() - keyWidth - 3)],
    wordWrap: true,
    wrapOnWordBoundary: false,
  });
  table.push(...rows.map(([k, v]) => [k, v]));
  return `${table.toString()}\n`;
}

/** A table with a heading row; `right`: the columns aligned to the right (numbers). */
export function gridTable(head: readonly string[], rows: ReadonlyArray<readonly string[]>, right: readonly number[] = []): string {
  const table = new Table({ head: [...head], style: style(), colAligns: head.map((_, i) => (right.includes(i) ? 'right' : 'left')) });
  table.push(...rows.map((r) => [...r]));
  return `${table.toString()}\n`;
}
