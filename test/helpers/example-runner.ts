import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { TestContext } from 'node:test';
import { type AmuxHome, BIN, sleep } from './amux.js';
import { runKind, type Example } from './examples.js';
import { terminal } from './terminal.js';

/**
 * Runs documented examples as a reader would type them (ADR 0065): each line in `bash -c`, with
 * `amux` on PATH, a private AMUX_HOME and HOME, from the example's directory. Lines of one file (or
 * one command's scene) share the shell's state as a terminal session would: variables and the
 * directory a line leaves are there for the next line (kept in a state file between lines).
 */
export class ExampleShell {
  readonly dir: string;
  readonly home: string;
  private readonly root: string;
  private readonly state: string;
  private readonly bin: string;

  /** `h`: the amux installation; `cwd`: where the first line runs (default: a fresh empty directory). */
  constructor(readonly h: AmuxHome, cwd?: string, readonly extraEnv: Record<string, string> = {}) {
    const root = mkdtempSync('/tmp/amux-ex-');
    this.home = join(root, 'home');
    this.bin = join(root, 'bin');
    this.dir = cwd ?? join(root, 'work');
    for (const d of [this.home, this.bin, this.dir]) mkdirSync(d, { recursive: true });
    symlinkSync(BIN, join(this.bin, 'amux'));
    this.state = join(root, 'state.sh');
    writeFileSync(this.state, `cd ${shq(this.dir)}\n`);
    this.root = root;
  }

  env(): NodeJS.ProcessEnv {
    const env: Record<string, string | undefined> = {
      ...process.env,
      HOME: this.home,
      AMUX_HOME: this.h.home,
      NO_COLOR: '1',
      PATH: [this.bin, dirname(process.execPath), process.env.PATH ?? '/usr/bin:/bin'].join(':'),
      ...this.h.env,
      ...this.extraEnv,
    };
    // A pyenv shim finds its versions through HOME unless told where they are.
    if (!env.PYENV_ROOT && process.env.HOME && existsSync(join(process.env.HOME, '.pyenv'))) env.PYENV_ROOT = join(process.env.HOME, '.pyenv');
    for (const k of ['NODE_EXTRA_CA_CERTS', 'TMUX', 'TMUX_PANE', 'AMUX_SESSION_ID', 'AMUX_HOST', 'AMUX_CONTEXT']) if (!(k in this.extraEnv)) delete env[k];
    return env as NodeJS.ProcessEnv;
  }

  /** The script that runs `text` in the state the lines before it left, and keeps the state it leaves. */
  private script(text: string): string {
    return [
      '__amux_base=$(compgen -v)',
      `. ${shq(this.state)}`,
      '__amux_save() {',
      '  __amux_rc=$?',
      '  { printf "cd %q\\n" "$PWD"',
      '    for __amux_v in $(compgen -v); do',
      '      case "$__amux_v" in __amux*) continue ;; esac',
      '      case $\'\\n\'"$__amux_base"$\'\\n\' in *$\'\\n\'"$__amux_v"$\'\\n\'*) continue ;; esac',
      '      declare -p "$__amux_v" 2>/dev/null',
      `    done; } > ${shq(this.state)}.new && mv ${shq(this.state)}.new ${shq(this.state)}`,
      '  exit $__amux_rc',
      '}',
      'trap __amux_save EXIT',
      text,
      '',
    ].join('\n');
  }

  /**
   * Runs one example and checks it (ADR 0065): a plain line must end with its expected exit code; a
   * bounded one (`logs -f`, `up`) passes when it printed something and still runs, then gets Ctrl-C.
   * `stdin` is its input (default: none). The assertion message shows the line and its output.
   */
  async check(ex: Example, opts: { stdin?: string; text?: string; t?: TestContext; env?: Record<string, string>; cwd?: string } = {}): Promise<Outcome> {
    let text = opts.text ?? ex.text;
    // A scene's own directory: the line runs there (as after a cd).
    if (opts.cwd) text = `cd ${shq(opts.cwd)} && ${text}`;
    const kind = runKind(text);
    if (kind === 'terminal') {
      assert.ok(opts.t, 'a terminal example needs its test context');
      return this.inTerminal(ex, text, opts.t, opts.env);
    }
    const out = await this.spawnLine(text, kind, opts.stdin, opts.env);
    const shown = `${ex.where}: ${text}\n--- exit ${out.code}${out.running ? ' (still running, then Ctrl-C)' : ''} ---\n--- stdout ---\n${out.stdout}--- stderr ---\n${out.stderr}`;
    if (kind === 'bounded' && out.running) {
      assert.ok(out.stdout.length > 0, `${shown}\nit ran until stopped but printed nothing`);
    } else {
      assert.ok(!out.timedOut, `${shown}\nstill running after ${PLAIN_LIMIT_MS / 1000}s`);
      assert.equal(out.code, ex.exit, `${shown}\nexpected exit ${ex.exit}`);
    }
    return out;
  }

  private spawnLine(text: string, kind: 'plain' | 'bounded', stdin?: string, env: Record<string, string> = {}): Promise<Outcome> {
    return new Promise((resolve, reject) => {
      const child = spawn('bash', ['-c', this.script(text)], { env: { ...this.env(), ...env }, cwd: this.dir, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let running = false;
      let timedOut = false;
      const group = (sig: NodeJS.Signals) => {
        try {
          process.kill(-child.pid!, sig);
        } catch {
          /* gone */
        }
      };
      const stop = () => {
        running = true;
        group('SIGINT');
        setTimeout(() => group('SIGKILL'), 20_000).unref();
      };
      child.stdout.on('data', (d: Buffer) => {
        out.push(d);
        // Bounded: it printed, and it has not ended: that is what it does until stopped.
        if (kind === 'bounded' && !running && child.exitCode === null) setImmediate(() => child.exitCode === null && !running && stop());
      });
      child.stderr.on('data', (d: Buffer) => err.push(d));
      const limit = setTimeout(() => {
        timedOut = child.exitCode === null;
        if (kind === 'bounded') stop();
        else group('SIGKILL');
      }, PLAIN_LIMIT_MS);
      child.on('error', reject);
      child.on('close', (code, signal) => {
        clearTimeout(limit);
        resolve({ code: code ?? 128 + (signal === 'SIGINT' ? 2 : 9), stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), running, timedOut });
      });
      child.stdin.on('error', () => undefined);
      child.stdin.end(stdin ?? '');
    });
  }

  /**
   * A line that takes a terminal (`top`, `attach`): typed into a terminal of its own (a private tmux
   * server, test/helpers/terminal.ts). It passes when it takes the screen (the alternate screen is
   * on) and leaves as a person leaves it (`q`; `C-b d`), exiting 0.
   */
  private async inTerminal(ex: Example, text: string, t: TestContext, extra: Record<string, string> = {}): Promise<Outcome> {
    const env = { ...this.env(), ...extra };
    const term = terminal(this.h, t, { width: 120, height: 30, env: { ...env, PS1: 'term$ ' } });
    await term.until('the prompt', (s) => /term\$/.test(s), 60_000);
    term.text(`. ${this.state} && clear && ${text.replace(/\s*#.*$/, '')}; echo "rc=$?"`);
    term.keys('Enter');
    const deadline = Date.now() + 60_000;
    let took = false;
    while (Date.now() < deadline) {
      if (term.format('#{alternate_on}') === '1') {
        took = true;
        break;
      }
      if (/rc=\d+/.test(term.screen())) break;
      await sleep(100);
    }
    const screenWhile = term.screen();
    assert.ok(took, `${ex.where}: ${text}\nnever took the terminal; screen:\n${screenWhile}`);
    if (/\bamux\s+(?:[-\w]+\s+)*attach\b/.test(text)) term.keys('C-b', 'd');
    else term.keys('q');
    const end = await term.until('the line ended', (s) => /rc=\d+/.test(s), 60_000);
    const code = Number(/rc=(\d+)/.exec(end)![1]);
    assert.equal(code, ex.exit, `${ex.where}: ${text}\nexited ${code}; screen while it ran:\n${screenWhile}\nafter:\n${end}`);
    return { code, stdout: screenWhile, stderr: '', running: false, timedOut: false };
  }

  cleanup(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
  /** A bounded line still running when it was seen (then stopped with Ctrl-C). */
  running: boolean;
  timedOut: boolean;
}

/** The longest a plain example may run (a `--timeout 1m` in an example is shorter). */
export const PLAIN_LIMIT_MS = 90_000;

/** A single-quoted shell word. */
export function shq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
