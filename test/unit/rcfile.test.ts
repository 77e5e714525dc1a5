import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Mark, MarkerStream } from '../../src/core/markers.js';
import { buildJobScript } from '../../src/shell/job-script.js';
import { buildEnvFile, buildRcfile, isCopyableEnvName } from '../../src/shell/rcfile.js';
import { chunkFilter } from '../../src/tmux/commands.js';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'amux-unit-'));
  dirs.push(d);
  return d;
}

/** A minimal environment for the bash we start, so the test does not depend on the caller's. */
const BASH_ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent-home', TERM: 'xterm-test', LEAK: 'from-server' };

function bash(script: string, args: string[] = []): Buffer {
  return execFileSync('bash', ['--norc', '--noprofile', '-c', script, 'bash', ...args], { env: BASH_ENV, maxBuffer: 16 * 1024 * 1024 });
}

const HOSTILE: Record<string, string> = {
  QUOTE: "it's",
  DQUOTE: 'say "hi"',
  DOLLAR: '$HOME ${HOME}',
  BACKTICK: '`id`',
  SUBST: '$(id)',
  NEWLINES: 'a\nb\n\n',
  UNICODE: 'héllo ✓ 日本語 🎉',
  EMPTY: '',
  SEMI: 'a; exit 1',
  GLOB: '*',
  BACKSLASH: 'C:\\path\\n',
  BANG: '!!',
  ESC: '\x1b[31m\x01',
  BIG: "x'$(y)`\n".repeat(12_500),
};

describe('isCopyableEnvName', () => {
  for (const name of ['FOO', 'foo', '_X', 'A1', 'PATH', 'HOME', 'LANG', 'AMUX_HOME']) {
    test(`copies ${name}`, () => assert.equal(isCopyableEnvName(name), true));
  }
  for (const name of [
    '', '1FOO', 'FOO-BAR', 'A B', 'X;rm', 'A=B', 'é', 'BASH_FUNC_f%%',
    'PWD', 'OLDPWD', 'SHLVL', '_', 'TMUX', 'TMUX_PANE', 'TERM', 'COLORTERM', 'PS1', 'PROMPT_COMMAND',
    'HISTFILE', 'SHELLOPTS', 'BASHOPTS', 'UID', 'EUID', 'PPID', 'BASHPID', 'BASH_ENV', 'ENV', 'BASH_XTRACEFD',
    'AMUX_INTERNAL_NONCE',
  ]) {
    test(`skips ${JSON.stringify(name)}`, () => assert.equal(isCopyableEnvName(name), false));
  }
});

describe('buildEnvFile', () => {
  test('exports copyable variables only, values quoted', () => {
    const text = buildEnvFile({ FOO: 'bar', SPACED: 'a b', PWD: '/evil', 'A B': 'x', TMUX: '/tmp/x', BASH_ENV: '/evil', SHLVL: '9' });
    const exports = text.split('\n').filter((l) => l.startsWith('export '));
    assert.deepEqual(exports, ['export FOO=bar', "export SPACED='a b'"]);
    assert.ok(text.endsWith('\n'));
  });

  test('hostile values round-trip through bash byte-exact', () => {
    const dir = tempDir();
    const file = join(dir, 'env');
    writeFileSync(file, buildEnvFile(HOSTILE));
    const names = Object.keys(HOSTILE);
    const out = bash(`source "$1" || exit 99; printf '%s\\0' ${names.map((n) => `"$${n}"`).join(' ')}`, [file]);
    const values = out.toString('utf8').split('\0');
    assert.equal(values.pop(), '');
    assert.deepEqual(Object.fromEntries(names.map((n, i) => [n, values[i]])), HOSTILE);
  });

  test("drops the server's variables, keeps TERM, never sets internal ones", () => {
    const dir = tempDir();
    const file = join(dir, 'env');
    writeFileSync(file, buildEnvFile({ FOO: 'x', SHLVL: '42', PWD: '/evil', TMUX: 'evil', PS1: 'evil', 'BAD-NAME': 'x' }));
    const out = bash(`source "$1" || exit 99; printf '%s|' "\${LEAK-unset}" "$TERM" "$FOO" "$SHLVL" "$PWD" "\${TMUX-unset}" "\${PS1-unset}"`, [file]);
    const [leak, term, foo, shlvl, pwd, tmux, ps1] = out.toString().split('|');
    assert.equal(leak, 'unset');
    assert.equal(term, 'xterm-test');
    assert.equal(foo, 'x');
    assert.notEqual(shlvl, '42');
    assert.notEqual(pwd, '/evil');
    assert.equal(tmux, 'unset');
    assert.notEqual(ps1, 'evil');
  });
});

describe('buildRcfile', () => {
  const NONCE = '5eed1e55';
  const SID = 'abcd1234';

  function layout(firstJob: number | null) {
    const base = tempDir();
    const hostile = "dir with 'quotes' $(id) `x` ;";
    const spec = {
      sessionId: SID,
      nonce: NONCE,
      envFile: join(base, hostile, 'env'),
      cwd: join(base, hostile, 'cwd'),
      jobsDir: join(base, hostile, 'jobs'),
      exitsDir: join(base, hostile, 'exits'),
      daemonPidFile: join(base, hostile, 'daemon.pid'),
      firstJob,
      umask: 0o022,
      streamChunkBytes: 4096,
      streamFilter: chunkFilter(3),
    };
    for (const d of [spec.cwd, spec.jobsDir, spec.exitsDir]) mkdirSync(d, { recursive: true });
    writeFileSync(spec.envFile, buildEnvFile({ GREETING: "it's $(id)" }));
    const rc = join(base, 'rc');
    writeFileSync(rc, buildRcfile(spec));
    return { spec, rc };
  }

  test('names the session, the nonce and the first job, paths quoted', () => {
    const { spec, rc } = layout(1);
    const text = readFileSync(rc, 'utf8');
    assert.ok(text.includes(`__amux_nonce=${NONCE}\n`));
    assert.ok(text.includes(`__amux_sid=${SID}\n`));
    assert.ok(text.includes('__amux_next=1\n'));
    const q = (p: string) => `'${p.replace(/'/g, `'\\''`)}'`;
    assert.ok(text.includes(`source ${q(spec.envFile)}\n`));
    assert.ok(text.includes(`cd -- ${q(spec.cwd)} || exit 97\n`));
    assert.ok(text.includes(`__amux_exits=${q(spec.exitsDir)}\n`));
    assert.ok(text.includes(`__amux_jobs=${q(spec.jobsDir)}\n`));
  });

  test('a shell session has no first job', () => {
    const { rc } = layout(null);
    assert.ok(readFileSync(rc, 'utf8').includes('__amux_next=\n'));
  });

  test('bash -n accepts it', () => {
    for (const firstJob of [1, null]) {
      const { rc } = layout(firstJob);
      execFileSync('bash', ['-n', rc]);
    }
  });

  /**
   * Runs the rcfile the way tmux does (`bash --noprofile --rcfile RC -i`), with `input` typed at
   * the prompts. Not a TTY, so bash prints no prompt on stdout and warns about job control on stderr.
   */
  function interactive(rc: string, input: string): { status: number | null; stdout: Buffer } {
    const r = spawnSync('bash', ['--noprofile', '--rcfile', rc, '-i'], { env: BASH_ENV, input, timeout: 10_000 });
    return { status: r.status, stdout: r.stdout };
  }

  test('runs the first job at the prompt, reports its exit in a file and a marker', () => {
    const { spec, rc } = layout(1);
    writeFileSync(join(spec.jobsDir, '1.bash'), `printf 'job:%s:%s\\n' "$PWD" "$GREETING"\nexport SET_BY_JOB=yes\n(exit 3)\n`);
    const { status, stdout } = interactive(rc, `printf 'after:%s\\n' "$SET_BY_JOB"\n`);
    assert.equal(status, 0);
    const pieces = new MarkerStream(NONCE).feed(stdout, true).map((p) => ('mark' in p ? p.mark : p.data.toString()));
    assert.deepEqual(pieces, [
      { kind: 'start', seq: 1 } satisfies Mark,
      `job:${spec.cwd}:it's $(id)\n`,
      { kind: 'end', seq: 1, code: 3 } satisfies Mark,
      'after:yes\n',
    ]);
    assert.equal(readFileSync(join(spec.exitsDir, `${SID}.1`), 'utf8'), '3\n');
    assert.ok(existsSync(join(spec.exitsDir, `${SID}.shell`)), 'the EXIT trap marks the shell as gone');
  });

  test('a job with stdin reads it; once it has ended, the shell no longer holds its read end', () => {
    const { spec, rc } = layout(1);
    writeFileSync(spec.envFile, buildEnvFile({ PATH: BASH_ENV.PATH })); // the capture runs tee and split
    const streams = join(spec.jobsDir, '1');
    mkdirSync(streams);
    const stdinFile = join(streams, 'stdin'); // a plain file stands in for the daemon's FIFO
    writeFileSync(stdinFile, 'from stdin\n');
    writeFileSync(join(spec.jobsDir, '1.bash'), buildJobScript({ seq: 1, mode: 'foreground', script: 'read -r line; echo "got [$line]"', streamDir: streams, stdinFifo: stdinFile }));
    const { status, stdout } = interactive(rc, `printf 'in:[%s] held:%s\\n' "$__amux_in" "$(ls -l /proc/$$/fd | grep -c ' -> .*/jobs/1/stdin$')"\n`);
    assert.equal(status, 0);
    const text = new MarkerStream(NONCE).feed(stdout, true).map((p) => ('mark' in p ? `<${p.mark.kind}>` : p.data.toString())).join('');
    // The pane's copy goes to /dev/fd/4, which cannot be opened on the socket spawnSync gives: the captured copy tells.
    assert.equal(text, '<start><end>in:[] held:0\n');
    assert.equal(readFileSync(join(streams, 'out.000000'), 'utf8'), 'got [from stdin]\n');
    assert.equal(readFileSync(join(spec.exitsDir, `${SID}.1`), 'utf8'), '0\n');
  });

  test('after a captured job the shell prepares the next capture; a job attaches to it; at exit nothing of it is left (ADR 0026)', async () => {
    const { spec, rc } = layout(1);
    writeFileSync(spec.envFile, buildEnvFile({ PATH: BASH_ENV.PATH })); // the capture runs tee and split
    const job = (seq: number, script: string, prepared: boolean) => {
      const streamDir = join(spec.jobsDir, String(seq));
      if (!prepared) mkdirSync(streamDir);
      writeFileSync(join(spec.jobsDir, `${seq}.bash`), buildJobScript({ seq, mode: 'foreground', script, streamDir, prepared }));
      return streamDir;
    };
    const first = job(1, 'echo one', false);
    const second = job(2, 'echo two; echo oops >&2; (exit 4)', true);
    // Typed at the prompts: wait for the prepared capture, hand it to job 2 as the daemon does
    // (rename, then __amux_next), then wait for the one prepared after job 2 before the shell exits.
    const waitReady = 'until [[ -e $__amux_jobs/next/ready ]]; do read -r -t 0.05 <> <(:); done';
    const { status, stdout } = interactive(rc, [
      `${waitReady}; cp "$__amux_jobs/next/ready" "$__amux_jobs/ready.1"; mv "$__amux_jobs/next" "$__amux_jobs/2"; __amux_next=2`,
      `${waitReady}; cp "$__amux_jobs/next/ready" "$__amux_jobs/ready.2"; printf 'prep:%s\\n' "$__amux_prep"`,
      '',
    ].join('\n'));
    assert.equal(status, 0);
    const text = new MarkerStream(NONCE).feed(stdout, true).map((p) => ('mark' in p ? `<${p.mark.kind}${p.mark.seq}>` : p.data.toString())).join('');
    assert.equal(text, '<start1><end1><start2><end2>prep:yes\n');
    assert.equal(readFileSync(join(first, 'out.000000'), 'utf8'), 'one\n');
    assert.equal(readFileSync(join(second, 'out.000000'), 'utf8'), 'two\n', 'job 2 wrote through the prepared capture');
    assert.equal(readFileSync(join(second, 'err.000000'), 'utf8'), 'oops\n');
    assert.equal(readFileSync(join(spec.exitsDir, `${SID}.2`), 'utf8'), '4\n');
    // Every process of both prepared captures ends: the first drained job 2, the second was released at exit.
    const pids = ['ready.1', 'ready.2'].flatMap((f) => readFileSync(join(spec.jobsDir, f), 'utf8').trim().split(' ').map(Number));
    assert.equal(pids.length, 4);
    const alive = () => pids.filter((p) => existsSync(`/proc/${p}`) && !/\) Z /.test(readFileSync(`/proc/${p}/stat`, 'utf8')));
    for (const deadline = Date.now() + 30_000; Date.now() < deadline && alive().length > 0; ) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(alive(), []);
  });

  // `exit N` in a job and a hung-up shell need a real terminal ([[ -t 0 ]]): covered on tmux by
  // test/integration/exit-codes.test.ts and daemon-recovery.test.ts.
  test('a shell session runs nothing at the prompt', () => {
    const { spec, rc } = layout(null);
    const out = bash('source "$1"; eval "$PROMPT_COMMAND"; printf "pwd:%s" "$PWD"', [rc]);
    assert.equal(out.toString(), `pwd:${spec.cwd}`);
    assert.equal(existsSync(join(spec.exitsDir, `${SID}.1`)), false);
  });
});
