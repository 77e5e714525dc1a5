import type { SessionStatus } from '../core/status.js';
import { importModule } from './code-cache.js';

/** Colours only on a TTY, never with NO_COLOR or --no-color (src/guides/sessions.md). */
export function useColor(stream: NodeJS.WriteStream = process.stdout): boolean {
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') return false;
  if (process.argv.includes('--no-color')) return false;
  return stream.isTTY === true;
}

type Paint = (s: string) => string;

/** Status colouring; chalk is loaded only when colour is on, off the non-TTY hot path. */
export async function statusPainter(color: boolean): Promise<(status: SessionStatus) => string> {
  if (!color) return (s) => s;
  const { default: chalk } = await importModule<typeof import('chalk')>('chalk');
  const paint: Record<SessionStatus, Paint> = {
    pending: chalk.gray, working: chalk.cyan, idle: chalk.yellow, paused: chalk.magenta,
    completed: chalk.green, failed: chalk.red, stopped: chalk.gray, expired: chalk.red,
  };
  return (s) => paint[s](s);
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Writes and waits until the data is handed to the OS (so an exit right after loses nothing). */
export function writeOut(data: string | Buffer, stream: NodeJS.WriteStream = process.stdout): Promise<void> {
  return new Promise((resolve) => {
    if (stream.write(data)) resolve();
    else stream.once('drain', () => resolve());
  });
}

/**
 * Aligned, borderless columns like `docker ps`: two spaces between columns, the last one not
 * padded. `plain` gives a cell's text without colour codes, for measuring it. Hand-written rather
 * than cli-table3, which costs ~45 ms per 100 rows on `amux ps`'s hot path (ADR 0008).
 */
export function formatTable(head: string[], rows: string[][], plain: (cell: string) => string = (c) => c): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => plain(r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c + ' '.repeat(widths[i]! - plain(c).length + 2))).join('').trimEnd();
  return `${[line(head), ...rows.map(line)].join('\n')}\n`;
}
