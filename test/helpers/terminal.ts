import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { type AmuxHome, BIN, sleep } from './amux.js';

/**
 * `amux top` tested as a person uses it (src/guides/sessions.md "Dashboard"): a second, unrelated tmux server plays
 * the user's terminal; bash runs in its pane, `top` is typed at its prompt, keys go in with
 * send-keys and the screen is read with capture-pane after each one.
 */
export function terminal(h: AmuxHome, t: TestContext, opts: { width?: number; height?: number; env?: Record<string, string | undefined> } = {}) {
  // Outside the amux home: that one is moved away by its own cleanup, which may run first, and a
  // server whose socket is gone could no longer be told to exit.
  const dir = mkdtempSync('/tmp/amux-term-');
  const sock = join(dir, 'term.sock');
  // CI=true on purpose: ink draws nothing until it exits when it thinks it runs in CI; top must not.
  const env: Record<string, string | undefined> = { ...process.env, AMUX_HOME: h.home, PS1: 'term$ ', CI: 'true', NO_COLOR: undefined, FORCE_COLOR: undefined, ...opts.env };
  delete env.NODE_EXTRA_CA_CERTS;
  delete env.TMUX;
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  execFileSync('tmux', ['-S', sock, '-f', '/dev/null', 'new-session', '-d', '-x', String(opts.width ?? 80), '-y', String(opts.height ?? 24), '--', 'bash', '--norc', '--noprofile'], { env: env as NodeJS.ProcessEnv });
  t.after(() => {
    spawnSync('tmux', ['-S', sock, 'kill-server'], { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  });
  const tmux = (...a: string[]) => spawnSync('tmux', ['-S', sock, ...a], { encoding: 'utf8' });
  const screen = () => tmux('capture-pane', '-p').stdout ?? '';
  const term = {
    screen,
    /** The screen with its colours and attributes as escape sequences. */
    screenEscapes: () => tmux('capture-pane', '-p', '-e').stdout ?? '',
    /** tmux key names (`j`, `Down`, `Enter`, `C-c`, `Escape`). */
    keys: (...keys: string[]) => void tmux('send-keys', ...keys),
    /** Literal text, no key names. */
    text: (text: string) => void tmux('send-keys', '-l', text),
    resize: (w: number, hgt: number) => void tmux('resize-window', '-x', String(w), '-y', String(hgt)),
    /** A tmux format of the pane: `#{alternate_on}`, `#{cursor_flag}`, `#{pane_pid}`. */
    format: (f: string) => (tmux('display-message', '-p', f).stdout ?? '').trim(),
    /** Polls the screen until `check` holds (a bounded wait, never a timed assertion). */
    async until(what: string, check: (s: string) => boolean, timeoutMs = 20_000): Promise<string> {
      const deadline = Date.now() + timeoutMs;
      let last = '';
      while (Date.now() < deadline) {
        last = screen();
        if (check(last)) return last;
        await sleep(100);
      }
      assert.fail(`never on the screen: ${what}\n--- screen ---\n${last}--------------`);
    },
    /** Types `amux top` (with `prefix`, e.g. variables) at the prompt and waits for its first frame. */
    async top(prefix = '', args = ''): Promise<string> {
      term.text(`clear; ${prefix} ${process.execPath} ${BIN} top ${args}`.replace(/ +/g, ' '));
      term.keys('Enter');
      return term.until('the dashboard', (s) => /^amux top /m.test(s) && /\? help/.test(s));
    },
    /** After top has ended: the prompt is back and runs a command; returns `top`'s exit code. */
    async back(): Promise<number> {
      await term.until('the shell prompt after top', (s) => /^term\$ *$/m.test(s));
      // The typed line is echoed (not raw mode), runs (Enter is a line end) and prints what stty says.
      term.text('echo "rc=$? $(stty -a | tr " ;" "\\n\\n" | grep -x -e icanon -e echo | tr "\\n" ,)@$((6*7))"');
      term.keys('Enter');
      const s = await term.until('the marker command ran', (x) => /rc=\d+ .*@42/.test(x));
      assert.match(s, /rc=\d+ icanon,echo,@42/, 'the terminal is back in cooked mode with echo');
      assert.equal(term.format('#{alternate_on}'), '0', 'the alternate screen was left');
      assert.equal(term.format('#{cursor_flag}'), '1', 'the cursor is shown');
      return Number(/rc=(\d+) /.exec(s)![1]);
    },
    /** The pid of `top` (the child of the pane's bash). */
    topPid(): number {
      const bash = Number(term.format('#{pane_pid}'));
      const kids = readFileSync(`/proc/${bash}/task/${bash}/children`, 'utf8').trim().split(' ').filter(Boolean).map(Number);
      assert.equal(kids.length, 1, 'one process runs at the prompt');
      return kids[0]!;
    },
  };
  return term;
}
