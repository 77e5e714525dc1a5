import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readForeground } from '../../src/process/foreground.js';

const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

/** Polls `check` every 20 ms until it gives a value; fails after `ms` (a bound on a wait, never a timed assertion). */
async function until<T>(what: string, check: () => T | undefined | null, ms = 30_000): Promise<T> {
  for (const deadline = Date.now() + ms; ; await new Promise((r) => setTimeout(r, 20))) {
    const v = check();
    if (v !== undefined && v !== null) return v;
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
  }
}

/** Runs `body` with the shell of a fresh tmux pane (bash, no rc files) and a way to type into it; the server ends after, pass or fail. */
async function onPane(name: string, body: (shell: number, type: (line: string) => void) => Promise<void>): Promise<void> {
  const socket = `amux-${name}-${process.pid}`;
  const tmux = (...args: string[]) => spawnSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  try {
    assert.equal(tmux('new-session', '-d', '-x', '80', '-y', '24', 'bash --norc --noprofile').status, 0);
    const shell = Number(tmux('display-message', '-p', '#{pane_pid}').stdout.trim());
    await body(shell, (line) => tmux('send-keys', line, 'Enter'));
  } finally {
    tmux('kill-server');
  }
}

test('a thread that wakes between its stat and its system call is running, never an unknown wait (yes on a pane)', async (t) => {
  if (!has('tmux') || !has('yes')) return t.skip('tmux and yes are needed');
  await onPane('fg-race', async (shell, type) => {
    type('yes');
    await until('yes owns the terminal', () => readForeground(shell, true)?.procs.find((p) => p.comm === 'yes'));
    // `yes` alternates between running and its write waiting for tmux: `stat` and `syscall` are two
    // reads, and it often wakes between them (measured: one read in thirty beside a busy tmux).
    const states = new Map<string, number>();
    const unknown: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const fg = readForeground(shell, true);
      for (const th of fg?.procs.find((p) => p.comm === 'yes')?.threads ?? []) {
        states.set(th.state, (states.get(th.state) ?? 0) + 1);
        if (th.state === 'S' && th.wait === 'unknown') unknown.push(`look ${i}`);
      }
    }
    t.diagnostic(`states seen: ${JSON.stringify(Object.fromEntries(states))}`);
    assert.ok((states.get('S') ?? 0) > 0 && (states.get('R') ?? 0) > 0, 'yes was seen both waiting and running');
    assert.deepEqual(unknown, [], 'a sleeping yes whose wait was not read');
  });
});

test("a look between two commands of a loop, the group's last member gone and the shell yet to take the terminal back, judges the shell: never an empty group", async (t) => {
  if (!has('tmux')) return t.skip('tmux is needed');
  await onPane('fg-gap', async (shell, type) => {
    // A command a thousand times a second: each ends, and the shell takes the terminal back, over and over.
    type('while :; do /bin/true; done');
    await until('the loop runs commands', () => readForeground(shell, false)?.procs.find((p) => p.comm === 'true'));
    // Until the look has landed in that gap 10 times: with the terminal's group gone, it judged the
    // shell (an empty group was `unknown`, which the screen then decided: `idle` for a silent loop).
    let gaps = 0;
    await until('looks in the gap between two commands', () => {
      const fg = readForeground(shell, false);
      assert.ok(fg && fg.procs.length > 0, `a look with no process: ${JSON.stringify(fg)}`);
      if (fg.pgid !== shell && fg.procs.every((p) => p.pid === shell)) gaps++;
      return gaps >= 10 ? gaps : null;
    });
  });
});
