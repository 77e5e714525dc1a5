/**
 * The runnable examples of the docs (issue 32 item 5, ADR 0065), read as the docs conventions say:
 * in Markdown, a fenced block with the info string `sh` is run line by line (a trailing `\` goes on
 * with the next line; `#` lines are comments); its first line may be a marker
 * `# example: needs sshd | needs terminal | needs minutes | needs agents | skip: WHY`. In a
 * command's `--help`, the closing `Examples:` block (src/cli/hints.ts) gives `  # what` then
 * `  command`. A line ending in `# exit N` is expected to exit N (else 0).
 */

export type Marker =
  | { kind: 'sshd' | 'terminal' | 'minutes' | 'agents' }
  | { kind: 'skip'; why: string }
  | { kind: 'bad'; why: string };

export interface Example {
  /** Where it is: `README.md:42` or `amux logs --help`. */
  where: string;
  /** The 1-based line of the example in its file (0 for --help). */
  line: number;
  /** The shell text as written (continuation lines kept, joined by newlines). */
  text: string;
  /** The exit code it is expected to end with. */
  exit: number;
}

export interface Block {
  /** `README.md:40`: the file and the line of the opening fence. */
  where: string;
  marker: Marker | null;
  examples: Example[];
}

/** The marker of a first line `# example: …`, null for any other line. */
export function parseMarker(line: string): Marker | null {
  const m = /^\s*#\s*example:\s*(.*?)\s*$/.exec(line);
  if (!m) return null;
  const body = m[1]!;
  const needs = /^needs (sshd|terminal|minutes|agents)$/.exec(body);
  if (needs) return { kind: needs[1] as 'sshd' | 'terminal' | 'minutes' | 'agents' };
  const skip = /^skip:\s*(.*)$/.exec(body);
  if (skip) return skip[1] ? { kind: 'skip', why: skip[1] } : { kind: 'bad', why: "'# example: skip:' must say why" };
  if (body === 'skip') return { kind: 'bad', why: "'# example: skip:' must say why" };
  return { kind: 'bad', why: `unknown marker '# example: ${body}' (needs sshd, needs terminal, needs minutes, needs agents, skip: WHY)` };
}

/** The exit code a line says it ends with (`… # exit 3`), or 0. */
export function expectedExit(line: string): number {
  const m = /#\s*exit\s+(\d+)\s*$/.exec(line);
  return m ? Number(m[1]) : 0;
}

/** The `sh` blocks of a Markdown file, each with its runnable lines. `file` names it in `where`. */
export function markdownBlocks(file: string, markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( {0,3})(`{3,}|~{3,})\s*([^\s`]*)/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[2]!;
    const info = open[3]!;
    const body: Array<{ n: number; text: string }> = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`).exec(lines[j]!);
      if (close) break;
      body.push({ n: j + 1, text: lines[j]!.slice(Math.min(open[1]!.length, /^ */.exec(lines[j]!)![0].length)) });
    }
    if (info === 'sh') blocks.push(shBlock(`${file}:${i + 1}`, file, body));
    i = j;
  }
  return blocks;
}

function shBlock(where: string, file: string, body: Array<{ n: number; text: string }>): Block {
  const first = body.find((l) => l.text.trim() !== '');
  const marker = first ? parseMarker(first.text) : null;
  const examples: Example[] = [];
  for (let k = 0; k < body.length; k++) {
    const start = body[k]!;
    const t = start.text.trim();
    if (t === '' || t.startsWith('#')) continue;
    const parts = [start.text];
    while (/\\$/.test(parts[parts.length - 1]!) && k + 1 < body.length) parts.push(body[++k]!.text);
    examples.push({ where: `${file}:${start.n}`, line: start.n, text: parts.join('\n'), exit: expectedExit(parts[parts.length - 1]!) });
  }
  return { where, marker, examples };
}

/** The command lines of a `--help` text's closing Examples block (each below its `# what` line). */
export function helpExamples(where: string, help: string): Example[] {
  const at = help.lastIndexOf('\nExamples:\n');
  if (at < 0) return [];
  return help
    .slice(at + '\nExamples:\n'.length)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((text) => ({ where, line: 0, text, exit: expectedExit(text) }));
}

/** Shell words of a line (quotes removed), with the operators `| ; & && || < >` as words of their own. */
export function shellWords(line: string): string[] {
  const out: string[] = [];
  for (const m of line.replace(/\\\n/g, ' ').matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|(&&|\|\||[|;&<>()])|([^\s|;&<>()'"]+)/g)) {
    if (m[3] !== undefined) out.push(m[3]);
    else out.push(m[1] ?? m[2] ?? m[4]!);
  }
  return out;
}

/**
 * How a line must be run (ADR 0065): `terminal` when an amux command in it takes a terminal (`top`,
 * `attach`); `bounded` when one runs until stopped (`logs -f`, `events -f`, `up` without `-d`,
 * `daemon run`): it passes once it printed something and is still running, then gets Ctrl-C; else
 * `plain`: it must end by itself.
 */
export function runKind(line: string): 'plain' | 'bounded' | 'terminal' {
  const words = shellWords(line.replace(/#.*$/, ''));
  let kind: 'plain' | 'bounded' | 'terminal' = 'plain';
  for (let i = 0; i < words.length; i++) {
    if (words[i] !== 'amux') continue;
    let j = i + 1;
    while (j < words.length && words[j]!.startsWith('-')) j += ['--host', '--context'].includes(words[j]!) ? 2 : 1;
    const command = words[j];
    const rest: string[] = [];
    for (let k = j + 1; k < words.length && !['|', ';', '&&', '||', '&', ')'].includes(words[k]!); k++) rest.push(words[k]!);
    if (rest.includes('-h') || rest.includes('--help')) continue;
    if (command === 'top' || command === 'attach') return 'terminal';
    const follows = rest.some((w) => w === '--follow' || /^-[a-zA-Z]*f[a-zA-Z]*$/.test(w));
    if ((command === 'logs' || command === 'events') && follows) kind = 'bounded';
    if (command === 'up' && !rest.some((w) => w === '-d' || w === '--detach' || w === '--example' || /^-[a-zA-Z]*d$/.test(w))) kind = 'bounded';
    if (command === 'daemon' && rest[0] === 'run') kind = 'bounded';
  }
  return kind;
}
