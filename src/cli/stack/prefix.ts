/** The colours of service prefixes, in turn (as docker compose and overmind do). */
const COLOURS = [36, 33, 32, 35, 34, 96, 93, 92, 95, 94];

/** `db   | ` for each key, padded to the longest; each in its own colour when `color`. */
export function prefixes(keys: readonly string[], color: boolean): Map<string, string> {
  const width = Math.max(0, ...keys.map((k) => k.length));
  return new Map(keys.map((k, i) => {
    const text = `${k.padEnd(width)} | `;
    return [k, color ? `\x1b[${COLOURS[i % COLOURS.length]}m${text}\x1b[0m` : text];
  }));
}

/** Puts `prefix` before every line of a text that comes in pieces; a last line without its newline waits for the rest (or `end`). */
export class LinePrefixer {
  private partial = '';

  constructor(private readonly prefix: string) {}

  push(text: string): string {
    const all = this.partial + text;
    const cut = all.lastIndexOf('\n');
    if (cut < 0) {
      this.partial = all;
      return '';
    }
    this.partial = all.slice(cut + 1);
    return all.slice(0, cut + 1).split('\n').slice(0, -1).map((l) => `${this.prefix}${l}\n`).join('');
  }

  end(): string {
    const rest = this.partial;
    this.partial = '';
    return rest === '' ? '' : `${this.prefix}${rest}\n`;
  }
}
