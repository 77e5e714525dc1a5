import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { guideTopics, GUIDES_DIR } from '../../src/cli/guides.js';
import { buildProgram } from '../../src/cli/program.js';
import { parseGuide, parseInline, parseMarkdown } from '../../src/cli/reference/doc.js';
import { manPages } from '../../src/cli/reference/man.js';
import { commandsOf } from '../../src/cli/reference/pages.js';
import { escape, toRoff } from '../../src/cli/reference/roff.js';
import { toTerminal } from '../../src/cli/reference/terminal.js';
import { BIN } from '../helpers/amux.js';

/*
 * The reference of ADR 0063: man pages and `amux help` from commander's definitions and the guides.
 */

const root = join(__dirname, '..', '..', '..');
const MAN = join(root, 'dist', 'man');
const program = buildProgram(() => undefined);
const pages = manPages();

/** Runs the built CLI without a daemon (help needs none). */
function amux(args: string[], env: NodeJS.ProcessEnv = {}): { code: number | null; stdout: string; stderr: string } {
  const e: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', AMUX_HOME: '/nonexistent/amux-reference-test', ...env };
  delete e.NODE_EXTRA_CA_CERTS;
  const r = spawnSync(process.execPath, [BIN, ...args], { env: e, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A man page's text with roff's fonts and escapes of '-', '\' and '"' undone, for looking up flags and command lines. */
const unescaped = (roff: string) => roff.replace(/\\f[BIR]/g, '').replace(/\\-/g, '-').replace(/\\e/g, '\\').replace(/\\\(dq/g, '"');

describe('man pages (ADR 0063)', () => {
  test('dist/man holds exactly the pages the definitions and the guides give, byte for byte', () => {
    const built = readdirSync(MAN).filter((f) => /\.[17]$/.test(f)).sort();
    assert.deepEqual(built, [...pages.keys()].sort(), 'npm run build writes one page per command and guide, and no other');
    for (const [file, text] of pages) assert.equal(readFileSync(join(MAN, file), 'utf8'), text, `dist/man/${file} is what the definitions give: run npm run build`);
  });

  test('package.json ships every page (man, files) and the guides amux help reads', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { man: string[]; files: string[] };
    assert.deepEqual([...pkg.man].sort(), [...pages.keys()].map((f) => `dist/man/${f}`).sort(), "package.json's man lists every page");
    assert.ok(pkg.files.includes('dist/man'), 'files ships dist/man');
    assert.ok(pkg.files.includes('src/guides/*.md'), 'files ships the guides');
  });

  test('every command has a page naming its usage, every argument, every flag and every example', () => {
    const help = program.createHelp();
    const commands = commandsOf(program);
    assert.ok(commands.length > 20);
    for (const cmd of commands) {
      const file = `amux-${cmd.name()}.1`;
      const page = pages.get(file);
      assert.ok(page, `a page ${file}`);
      const text = unescaped(page);
      assert.ok(text.includes(`amux ${cmd.name()}`), `${file}: its synopsis`);
      for (const a of help.visibleArguments(cmd)) assert.ok(text.includes(help.argumentTerm(a)), `${file}: argument ${a.name()}`);
      for (const o of help.visibleOptions(cmd)) {
        for (const flag of [o.short, o.long].filter((f): f is string => !!f)) assert.ok(text.includes(flag), `${file}: option ${flag}`);
        assert.ok(text.includes(o.description.slice(0, 40)), `${file}: what ${o.flags} does`);
      }
    }
    // The examples of --help, line by line (ADR 0023).
    const run = unescaped(pages.get('amux-run.1')!);
    for (const line of ['amux run -w --rm -- npm test', '# stream its output, exit with its code, then remove it']) assert.ok(run.includes(line), line);
  });

  test('amux(1) lists every command and every guide; a guide is amux-TOPIC(7)', () => {
    const main = unescaped(pages.get('amux.1')!);
    for (const cmd of commandsOf(program)) assert.ok(main.includes(`amux-${cmd.name()}`), `amux.1 names ${cmd.name()}`);
    const topics = guideTopics();
    assert.ok(topics.length >= 1, `guides in ${GUIDES_DIR}`);
    for (const t of topics) {
      assert.ok(main.includes(`amux-${t}`), `amux.1 names the guide ${t}`);
      assert.match(pages.get(`amux-${t}.7`)!, new RegExp(`^\\.TH "AMUX\\\\-${t.toUpperCase().replace(/-/g, '\\\\\\\\-')}" "7"`, 'm'));
    }
  });

  test('the two meanings of truncated and more are in the reference (issue 32 item 6)', () => {
    const logs = unescaped(pages.get('amux-logs.1')!);
    assert.match(logs, /page while more is true; truncated: older bytes were dropped/);
    const mcp = unescaped(pages.get('amux-mcp.1')!).replace(/\n/g, ' ');
    const readOutput = mcp.slice(mcp.indexOf('.SS "read_output"'), mcp.indexOf('.SS "screen"'));
    assert.match(readOutput, /\.TP more more output can be read from nextOffset now: page while it is true/, 'read_output: more');
    assert.match(readOutput, /\.TP truncated the old name of more, kept for one release/, 'read_output: truncated');
    assert.match(mcp, /\.TP stdout\.truncated not all of the stream is in this answer/, 'exec: truncated');
  });

  test('groff reads every page without a warning', (t) => {
    if (spawnSync('groff', ['--version']).status !== 0) return t.skip('groff is not installed');
    for (const file of pages.keys()) {
      const r = spawnSync('groff', ['-t', '-man', '-Tutf8', '-ww', '-z', join(MAN, file)], { encoding: 'utf8' });
      assert.equal(r.status, 0, `${file}: ${r.stderr}`);
      // A word longer than its column (a JSON shape in an option's text) cannot be broken: that is the text, not the roff.
      const warnings = r.stderr.split('\n').filter((l) => l !== '' && !/warning .*: can't break line$/.test(l));
      assert.deepEqual(warnings, [], `${file}: groff warns`);
    }
  });

  test('a page is the same whenever it is built: no date in it', () => {
    for (const text of pages.values()) assert.match(text, /^\.TH "[^"]+" "[17]" "" "amux \d+\.\d+\.\d+/m);
  });
});

describe('the Markdown the guides use (docs conventions)', () => {
  test('blocks: headings, paragraphs, nested lists, fenced code, pipe tables', () => {
    const md = [
      '# Title', '', 'One line', 'goes on.', '', '## Part', '',
      '- one', '- two', '  - nested *em*', '', '  more of two', '- three', '',
      '1. first', '2. second', '',
      '```sh', 'amux run -- echo hi', '  indented', '```', '',
      '| a | b |', '| --- | :-: |', '| `x\\|y` | 2 |', '',
      'after',
    ].join('\n');
    const blocks = parseMarkdown(md);
    assert.deepEqual(blocks.map((b) => b.kind), ['heading', 'paragraph', 'heading', 'list', 'list', 'code', 'table', 'paragraph']);
    assert.deepEqual(blocks[1], { kind: 'paragraph', text: [{ text: 'One line goes on.' }] });
    const list = blocks[3] as Extract<(typeof blocks)[number], { kind: 'list' }>;
    assert.equal(list.items.length, 3);
    assert.deepEqual(list.items[1]!.map((b) => b.kind), ['paragraph', 'list', 'paragraph']);
    assert.equal((blocks[4] as { ordered: boolean }).ordered, true);
    assert.deepEqual(blocks[5], { kind: 'code', lang: 'sh', text: 'amux run -- echo hi\n  indented' });
    const table = blocks[6] as Extract<(typeof blocks)[number], { kind: 'table' }>;
    assert.deepEqual(table.rows, [[[{ text: 'x|y', style: 'code' }], [{ text: '2' }]]]);
  });

  test('inline: code, strong, em, links; snake_case and escapes stay text', () => {
    assert.deepEqual(parseInline('a `--x` **b** *c* _d_ [e](http://f) snake_case_name \\*g\\*'), [
      { text: 'a ' }, { text: '--x', style: 'code' }, { text: ' ' }, { text: 'b', style: 'strong' }, { text: ' ' }, { text: 'c', style: 'em' },
      { text: ' ' }, { text: 'd', style: 'em' }, { text: ' ' }, { text: 'e', href: 'http://f' }, { text: ' snake_case_name *g*' },
    ]);
    assert.deepEqual(parseInline('``a ` b``'), [{ text: 'a ` b', style: 'code' }]);
    assert.deepEqual(parseInline('2 * 3 * 4'), [{ text: '2 * 3 * 4' }]);
  });

  test('a guide starts with # Title and a summary paragraph', () => {
    assert.throws(() => parseGuide('amux-x', 'no title'), /starts with '# Title'/);
    assert.throws(() => parseGuide('amux-x', '# T\n\n- a list'), /summary paragraph/);
    assert.equal(parseGuide('amux-x', '# T\n\nWhat it is.\n\n## A\n').summary, 'T: What it is.');
  });

  test('roff: hyphens, backslashes, leading dots and quotes, and non-ASCII are escaped', () => {
    assert.equal(escape('--flag a\\b …'), '\\-\\-flag a\\eb \\[u2026]');
    const roff = toRoff({ name: 'amux-x', section: 7, summary: 'a "quoted" one', blocks: parseMarkdown('.dot\n\n```\n.also\n\'quote\n```') }, '1.2.3');
    assert.match(roff, /^\.TH "AMUX\\-X" "7" "" "amux 1\.2\.3"/);
    assert.match(roff, /^\\&\.dot$/m);
    assert.match(roff, /^\\&\.also$/m);
    assert.match(roff, /^\\&'quote$/m);
    assert.match(roff, /\\- a "quoted" one/);
  });

  test('terminal: wrapped at the width, code never wrapped, tables in columns or as rows', () => {
    const page = parseGuide('amux-x', `# T\n\nSummary.\n\n${'word '.repeat(30)}\n\n\`\`\`\n${'x'.repeat(120)}\n\`\`\`\n\n| a | b |\n|---|---|\n| 1 | 2 |\n`);
    const out = toTerminal(page, { width: 40, color: false });
    for (const line of out.split('\n')) if (!line.includes('xxx')) assert.ok(line.length <= 40, `wrapped: ${line}`);
    assert.ok(out.includes(`    ${'x'.repeat(120)}`), 'code as it is');
    assert.match(out, /^ {2}a {2}b\n {2}1 {2}2$/m);
    const narrow = toTerminal(parseGuide('amux-x', `# T\n\nS.\n\n| a | b |\n|---|---|\n| ${'y'.repeat(30)} | ${'z'.repeat(30)} |\n`), { width: 40, color: false });
    assert.match(narrow, /^ {2}a: y{30}\n {2}b: z{30}$/m);
    assert.doesNotMatch(out, /\x1b/, 'no escape codes without colour');
    assert.match(toTerminal(page, { width: 40, color: true }), /\x1b\[1mamux-x\x1b\[22m/);
  });
});

describe('amux help (ADR 0063)', () => {
  test('alone: the commands and the topics', () => {
    const r = amux(['help']);
    assert.equal(r.code, 0, r.stderr);
    for (const cmd of commandsOf(program)) assert.match(r.stdout, new RegExp(`^ {2}${cmd.name()} `, 'm'), `lists ${cmd.name()}`);
    for (const t of guideTopics()) assert.match(r.stdout, new RegExp(`^ {2}${t} `, 'm'), `lists the topic ${t}`);
  });

  test('COMMAND: its page, every option in it; COMMAND ACTION: the same page', () => {
    const run = amux(['help', 'run']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^amux-run - start a session/);
    for (const o of program.commands.find((c) => c.name() === 'run')!.options) assert.ok(run.stdout.includes(o.long!), `help run names ${o.long}`);
    const group = amux(['help', 'group']);
    const add = amux(['help', 'group', 'add']);
    assert.equal(add.code, 0, add.stderr);
    assert.equal(add.stdout, group.stdout);
    assert.match(add.stdout, /--parallel <n>/);
    assert.equal(amux(['help', 'daemon', 'status']).code, 0);
  });

  test('TOPIC: the guide', () => {
    const [topic] = guideTopics();
    const r = amux(['help', topic!]);
    assert.equal(r.code, 0, r.stderr);
    const first = readFileSync(join(GUIDES_DIR, `${topic}.md`), 'utf8').split('\n')[0]!.slice(2);
    assert.ok(r.stdout.startsWith(`amux-${topic} - ${first}:`), r.stdout.slice(0, 200));
  });

  test('a name that is neither, or an action a command has not: one line, exit 2', () => {
    for (const [args, want] of [
      [['help', 'frob'], /^amux: no command or topic 'frob': commands in 'amux --help'; topics: /],
      [['help', 'group', 'frob'], /^amux: 'group' has no action 'frob': add, ls, rm$/],
      [['help', 'ps', 'x'], /^amux: 'ps' has no actions: amux help ps$/],
      [['help', '../etc/passwd'], /^amux: no command or topic/],
    ] as const) {
      const r = amux([...args]);
      assert.equal(r.code, 2, args.join(' '));
      assert.equal(r.stdout, '');
      assert.match(r.stderr.trimEnd(), want);
      assert.equal(r.stderr.trim().split('\n').length, 1);
    }
  });

  test('a guide added to the directory is a topic (completion, amux help)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'amux-guides-'));
    try {
      writeFileSync(join(dir, 'extra.md'), '# Extra\n\nOne more.\n');
      writeFileSync(join(dir, 'README.txt'), 'not a guide');
      assert.deepEqual(guideTopics(dir), ['extra']);
      assert.deepEqual([...manPages(dir).keys()].filter((f) => f.endsWith('.7')), ['amux-extra.7']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the reference is a bundle of its own: neither the fast paths nor the other commands load it (ADR 0025)', () => {
    const bundle = (name: string) => readFileSync(join(root, 'dist', 'src', 'cli', name), 'utf8');
    const names = ['toRoff', 'toTerminal', 'parseMarkdown', 'programPage', 'mcpToolBlocks'];
    for (const file of ['bundle.js', 'bundle-full.js']) for (const name of names) assert.ok(!bundle(file).includes(name), `${file} has ${name}`);
    for (const name of names.filter((n) => n !== 'toRoff')) assert.ok(bundle('bundle-help.js').includes(name), `bundle-help.js has ${name}`);
    // Loaded from its code cache (ADR 0069).
    assert.match(bundle('bundle-full.js'), /requireBundle\(require\("node:path"\)\.join\(__dirname,"bundle-help\.js"\)\)/);
  });
});
