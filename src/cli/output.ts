import { writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import type { SessionStatus } from '../core/status.js';
import { EXIT } from '../errors.js';

/**
 * Colours only on a TTY, never with NO_COLOR or --no-color (README "Commands"). Without a stream,
 * standard output, asked of the descriptor: `process.stdout` is built on first use, and building
 * it (a stream over a pipe or file) was ~3 ms of `amux ps`.
 */
export function useColor(stream?: NodeJS.WriteStream): boolean {
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') return false;
  if (process.argv.includes('--no-color')) return false;
  return stream ? stream.isTTY === true : isatty(1);
}

/** `amux logs ID | head`: the reader went away; stop quietly like other Unix tools. */
function readerGone(err: NodeJS.ErrnoException): void {
  if (err.code === 'EPIPE') process.exit(EXIT.ok);
  throw err;
}

/** Whether output goes through `process.stdout` (once it does, all of it must, to keep its order). */
let streamed = false;

/** Every command that writes through `process.stdout` (all but the fast `ps` and `--version`) first sets this up. */
export function guardStdout(): void {
  if (streamed) return;
  streamed = true;
  process.stdout.on('error', readerGone);
}

type Paint = (s: string) => string;

/** Status colouring; chalk is loaded only when colour is on, off the non-TTY hot path. */
export async function statusPainter(color: boolean): Promise<(status: SessionStatus) => string> {
  if (!color) return (s) => s;
  const { default: chalk } = await import('chalk');
  const paint: Record<SessionStatus, Paint> = {
    pending: chalk.gray, working: chalk.cyan, idle: chalk.yellow, paused: chalk.magenta,
    completed: chalk.green, failed: chalk.red, stopped: chalk.gray, expired: chalk.red,
  };
  return (s) => paint[s](s);
}

export function printJson(value: unknown): void {
  void writeOut(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Writes and waits until the data is handed to the OS (so an exit right after loses nothing). To
 * standard output without a stream, in a command that has not set up `process.stdout` (`ps`,
 * `--version`): straight to descriptor 1, and what the descriptor would not take at once (a full
 * non-blocking pipe), with all that follows, through `process.stdout`.
 */
export function writeOut(data: string | Buffer, stream?: NodeJS.WriteStream): Promise<void> {
  let rest = typeof data === 'string' ? Buffer.from(data) : data;
  if (!stream && streamed) stream = process.stdout;
  if (!stream) {
    try {
      while (rest.length > 0) rest = rest.subarray(writeSync(1, rest));
      return Promise.resolve();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') {
        readerGone(err as NodeJS.ErrnoException);
        return Promise.resolve();
      }
      guardStdout();
      stream = process.stdout;
    }
  }
  const out = stream;
  return new Promise((resolve) => {
    if (out.write(rest)) resolve();
    else out.once('drain', () => resolve());
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
