import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildJobScript, type JobMode } from '../../src/shell/job-script.js';

/** The single-quoted bash word of `text`, written here independently of the module under test. */
const sq = (text: string) => `'${text.split("'").join(`'\\''`)}'`;

const HOSTILE = [
  `it's "quoted" $HOME $(touch pwned) \`touch pwned\` \${x:-y}`,
  "'; rm -rf / #",
  "line one\nline two\n'\n",
  "\\'\\\\'",
  '; exit 1 #',
  '$\'\\x27\'',
];

describe('buildJobScript: the text of the script', () => {
  const modes: JobMode[] = ['foreground', 'tty', 'background'];
  const streamDir = '/state/jobs/abcd1234/7';

  test('foreground: start notice, captured streams, the command as one word', () => {
    const s = buildJobScript({ seq: 7, mode: 'foreground', script: 'echo hi; ls', streamDir });
    assert.equal(s, [
      `printf 'fg\\n' > "$__amux_exits/$__amux_sid.7.start"`,
      `__amux_io_open /state/jobs/abcd1234/7`,
      `eval -- 'echo hi; ls' >&"$__amux_o" 2>&"$__amux_e" {__amux_o}>&- {__amux_e}>&- {__amux_sync}>&-`,
      '',
    ].join('\n'));
  });

  test('foreground with a prepared capture: attaches to it instead of opening one (ADR 0026)', () => {
    const s = buildJobScript({ seq: 7, mode: 'foreground', script: 'echo hi', streamDir, prepared: true });
    assert.equal(s, [
      `printf 'fg\\n' > "$__amux_exits/$__amux_sid.7.start"`,
      `__amux_io_attach /state/jobs/abcd1234/7`,
      `eval -- 'echo hi' >&"$__amux_o" 2>&"$__amux_e" {__amux_o}>&- {__amux_e}>&- {__amux_sync}>&-`,
      '',
    ].join('\n'));
  });

  test('foreground with stdin: capture, then the FIFO opened, then the start notice; the command reads it', () => {
    const s = buildJobScript({ seq: 7, mode: 'foreground', script: 'wc -l', streamDir, stdinFifo: `${streamDir}/stdin` });
    assert.equal(s, [
      `__amux_io_open /state/jobs/abcd1234/7`,
      `exec {__amux_in}</state/jobs/abcd1234/7/stdin`,
      `printf 'fg\\n' > "$__amux_exits/$__amux_sid.7.start"`,
      `eval -- 'wc -l' <&"$__amux_in" >&"$__amux_o" 2>&"$__amux_e" {__amux_o}>&- {__amux_e}>&- {__amux_sync}>&- {__amux_in}<&-`,
      '',
    ].join('\n'));
  });

  test('foreground with stdin: the command and the FIFO path each appear only inside one single-quoted word', () => {
    for (const text of HOSTILE) {
      const fifo = `/x/y z/'q' $(touch pwned)/stdin`;
      const s = buildJobScript({ seq: 5, mode: 'foreground', script: text, streamDir: '/d', stdinFifo: fifo });
      const rest = s.split(sq(text)).join('CMD').split(sq(fifo)).join('FIFO');
      assert.equal(rest, `__amux_io_open /d\nexec {__amux_in}<FIFO\nprintf 'fg\\n' > "$__amux_exits/$__amux_sid.5.start"\neval -- CMD <&"$__amux_in" >&"$__amux_o" 2>&"$__amux_e" {__amux_o}>&- {__amux_e}>&- {__amux_sync}>&- {__amux_in}<&-\n`);
      const r = spawnSync('bash', ['-n'], { input: s, encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
    }
  });

  test('tty: start notice, then the command on the terminal', () => {
    const s = buildJobScript({ seq: 12, mode: 'tty', script: 'vim x', streamDir });
    assert.equal(s, `printf 'fg\\n' > "$__amux_exits/$__amux_sid.12.start"\neval -- 'vim x'\n`);
  });

  test('background: one call of __amux_bg with seq, stream dir and command', () => {
    const s = buildJobScript({ seq: 3, mode: 'background', script: 'sleep 9 &', streamDir: "/tmp/it's here" });
    assert.equal(s, `__amux_bg 3 '/tmp/it'\\''s here' 'sleep 9 &'\n`);
  });

  for (const mode of modes) {
    for (const text of HOSTILE) {
      test(`${mode}: ${JSON.stringify(text)} appears only inside one single-quoted word`, () => {
        const s = buildJobScript({ seq: 5, mode, script: text, streamDir });
        const word = sq(text);
        const parts = s.split(word);
        assert.equal(parts.length, 2, 'the quoted word appears exactly once');
        // What is left around the word is the fixed template: no piece of the command is outside it.
        const rest = parts.join('CMD');
        const expected = {
          foreground: `printf 'fg\\n' > "$__amux_exits/$__amux_sid.5.start"\n__amux_io_open ${streamDir}\neval -- CMD >&"$__amux_o" 2>&"$__amux_e" {__amux_o}>&- {__amux_e}>&- {__amux_sync}>&-\n`,
          tty: `printf 'fg\\n' > "$__amux_exits/$__amux_sid.5.start"\neval -- CMD\n`,
          background: `__amux_bg 5 ${streamDir} CMD\n`,
        }[mode];
        assert.equal(rest, expected);
      });
    }
  }

  test('every script is valid bash', () => {
    for (const mode of modes) {
      for (const text of HOSTILE) {
        const s = buildJobScript({ seq: 2, mode, script: text, streamDir: "/x/y z/'q'" });
        const r = spawnSync('bash', ['-n'], { input: s, encoding: 'utf8' });
        assert.equal(r.status, 0, `${mode} ${JSON.stringify(text)}: ${r.stderr}`);
      }
    }
  });

  test('bash reads the quoted word back as exactly the command text', () => {
    // Replace `eval` with a printer of its arguments: the words bash passes are the text, unchanged.
    for (const text of HOSTILE) {
      const s = buildJobScript({ seq: 1, mode: 'tty', script: text, streamDir }).replace(/^eval -- /m, "printf '%s\\0' ");
      const out = execFileSync('bash', ['-c', s.split('\n').slice(1).join('\n')], { encoding: 'utf8' });
      assert.deepEqual(out.split('\0').slice(0, -1), [text]);
    }
  });
});

describe('buildJobScript: run by bash', () => {
  const root = mkdtempSync(join(tmpdir(), 'amux job script '));
  after(() => rmSync(root, { recursive: true, force: true }));
  let n = 0;

  /**
   * Runs the job script of `text` the way the session's shell does (`source` at top level), after
   * a prelude that stands in for the rcfile: `__amux_io_open` opens the two capture fds on files,
   * `__amux_bg` records its arguments and runs the command in a subshell, synchronously.
   */
  function runJob(mode: JobMode, text: string, seq = 7, stdin?: string) {
    const dir = join(root, String(++n));
    const exits = join(dir, 'exits');
    const streams = join(dir, "str'eam $dir");
    const work = join(dir, 'work');
    for (const d of [exits, streams, work]) mkdirSync(d, { recursive: true });
    const job = join(dir, `${seq}.bash`);
    // The job's stdin: a plain file stands in for the FIFO (the daemon's side is tested with the daemon).
    const stdinFifo = stdin === undefined ? undefined : join(dir, "std'in $x");
    if (stdinFifo !== undefined) writeFileSync(stdinFifo, stdin!);
    writeFileSync(job, buildJobScript({ seq, mode, script: text, streamDir: streams, stdinFifo }));
    const prelude = [
      '__amux_exits=$T_EXITS',
      '__amux_sid=abcd1234',
      '__amux_io_open() { printf \'%s\' "$1" > "$__amux_exits/io_open.arg"; exec {__amux_o}>"$1/out" {__amux_e}>"$1/err" {__amux_sync}>/dev/null; }',
      '__amux_bg() {',
      '  printf \'%s\\0\' "$@" > "$__amux_exits/bg.args"',
      '  ( eval "$3" </dev/null >"$2/out" 2>"$2/err"; printf \'%s\\n\' "$?" > "$__amux_exits/$__amux_sid.$1" )',
      '}',
      'cd "$T_WORK" || exit 99',
      'source "$T_JOB"',
      'printf \'%s\\n\' "$?" > "$__amux_exits/status"',
      '[[ -n ${__amux_o-} ]] && exec {__amux_o}>&- {__amux_e}>&-',
      'printf \'%s\' "${leak-unset}" > "$__amux_exits/leak"',
      'exit 0',
      '',
    ].join('\n');
    const preludeFile = join(dir, 'prelude.bash');
    writeFileSync(preludeFile, prelude);
    const r = spawnSync('bash', ['--noprofile', '--norc', preludeFile], {
      encoding: 'utf8', env: { PATH: process.env.PATH, HOME: '/home/should-not-expand', T_EXITS: exits, T_WORK: work, T_JOB: job },
      timeout: 10_000,
    });
    assert.equal(r.status, 0, `the prelude ran to its end: ${r.stderr}`);
    const read = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8') : null);
    return {
      stdout: r.stdout, stderr: r.stderr, work: readdirSync(work).sort(), streams,
      out: read(join(streams, 'out')), err: read(join(streams, 'err')),
      start: read(join(exits, `abcd1234.${seq}.start`)), status: read(join(exits, 'status')),
      leak: read(join(exits, 'leak')), ioArg: read(join(exits, 'io_open.arg')), bgArgs: read(join(exits, 'bg.args')),
      bgExit: read(join(exits, `abcd1234.${seq}`)),
    };
  }

  /** A program that is hard to quote: quotes, $, backticks, $(), a newline inside a word, backslashes. */
  const PROGRAM = [
    `printf '%s\\n' '$HOME' "it's" '\`touch pwned1\`' '$(touch pwned2)' "'; touch pwned3 #"`,
    `printf '[%s]\\n' 'a`,
    `b' 'back\\slash'`,
    `echo "sub:$(echo inner) var:\${undefined_var:-dflt}"`,
    // A child of the job must not hold the capture fds (their pipelines would never see EOF).
    // Checked in a child process: a builtin could see bash's own saved copies of fds.
    `if bash -c ": >&$__amux_o" 2>/dev/null; then echo capture-fd-leaked-to-job; fi`,
    `echo to-err >&2`,
    `leak=top-level`,
    `(exit 3)`,
  ].join('\n');
  const EXPECTED_OUT = "$HOME\nit's\n`touch pwned1`\n$(touch pwned2)\n'; touch pwned3 #\n[a\nb]\n[back\\slash]\nsub:inner var:dflt\n";

  test('foreground: runs the text literally, stdout and stderr into their files', () => {
    const r = runJob('foreground', PROGRAM);
    assert.equal(r.out, EXPECTED_OUT);
    assert.equal(r.err, 'to-err\n');
    assert.equal(r.stdout, '', 'nothing reaches the terminal past the capture');
    assert.equal(r.stderr, '');
    assert.equal(r.start, 'fg\n');
    assert.equal(r.status, '3\n', "the job's status is what `source` returns");
    assert.equal(r.leak, 'top-level', 'a foreground job runs at top level: its variables stay');
    assert.equal(r.ioArg, r.streams, '__amux_io_open got the stream dir');
    assert.deepEqual(r.work, [], 'no command substitution ran');
    assert.equal(r.bgArgs, null);
  });

  test('tty: runs the text literally on the terminal', () => {
    const r = runJob('tty', PROGRAM, 12);
    assert.equal(r.stdout, EXPECTED_OUT);
    assert.equal(r.stderr, 'to-err\n');
    assert.equal(r.start, 'fg\n');
    assert.equal(r.status, '3\n');
    assert.equal(r.leak, 'top-level');
    assert.equal(r.ioArg, null, 'a tty job captures nothing');
    assert.equal(r.out, null);
    assert.deepEqual(r.work, []);
  });

  test('background: __amux_bg gets seq, stream dir and the exact text', () => {
    const r = runJob('background', PROGRAM, 4);
    assert.deepEqual(r.bgArgs!.split('\0').slice(0, -1), ['4', r.streams, PROGRAM]);
    assert.equal(r.out, EXPECTED_OUT);
    assert.equal(r.err, 'to-err\n');
    assert.equal(r.bgExit, '3\n');
    assert.equal(r.start, null, 'the start notice (with the pid) is __amux_bg\'s');
    assert.equal(r.stdout, '');
    assert.deepEqual(r.work, []);
  });

  for (const mode of ['foreground', 'tty', 'background'] as const) {
    test(`${mode}: a quote-breaking text cannot run anything outside its word`, () => {
      // As a shell line this is a syntax error (an unclosed quote): nothing of it may run.
      const r = runJob(mode, "echo hi'; touch pwned #");
      assert.deepEqual(r.work, []);
      assert.notEqual(mode === 'background' ? r.bgExit : r.status, '0\n');
      if (mode === 'background') assert.deepEqual(r.bgArgs!.split('\0').slice(0, -1), ['7', r.streams, "echo hi'; touch pwned #"]);
      const errText = mode === 'tty' ? r.stderr : r.err;
      assert.match(errText ?? '', /unexpected EOF/);
      assert.equal(mode === 'tty' ? r.stdout : r.out, '');
    });
  }

  test('foreground with stdin: the command reads it to EOF; children do not hold the shell\'s copy', () => {
    const r = runJob('foreground', [
      'read -r first',
      'echo "first=$first"',
      'cat',
      'read -r x || echo eof',
      `if bash -c ": <&$__amux_in" 2>/dev/null; then echo stdin-fd-leaked; fi`,
      'leak=$__amux_in',
    ].join('\n'), 7, 'one\ntwo\nthree');
    assert.equal(r.out, 'first=one\ntwo\nthreeeof\n');
    assert.equal(r.err, '');
    assert.equal(r.status, '0\n');
    assert.equal(r.start, 'fg\n');
    assert.match(r.leak!, /^\d+$/, 'the shell holds the read end while the job runs (closed by __amux_io_close)');
  });

  test('foreground: `cd` and functions of the job stay in the shell', () => {
    const r = runJob('foreground', 'mkdir sub && cd sub && f() { :; }; leak="$PWD|$(type -t f)"');
    assert.equal(r.status, '0\n');
    assert.match(r.leak!, /\/work\/sub\|function$/);
    assert.deepEqual(r.work, ['sub']);
  });
});
