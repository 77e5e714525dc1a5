import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { amuxHome } from '../helpers/amux.js';

describe('working → idle → working', () => {
  const h = amuxHome({ after });

  test('a command reading its input is idle at once; send makes it working, then idle again', async () => {
    const id = await h.ok(['run', '-n', 'reader', '--', 'echo ready; while read line; do echo "got $line"; done']);
    const idle = await h.until(id, (s) => s.status === 'idle', 15_000);
    assert.equal(idle.reason, 'reading the terminal');
    await h.ok(['send', 'reader', 'hello world']);
    const plain = await h.ok(['logs', id]);
    assert.match(plain, /got hello world/);
    await h.until(id, (s) => s.status === 'idle', 15_000);
    const events = JSON.parse(await h.ok(['inspect', id])).events.filter((e: any) => e.type === 'state_changed');
    assert.deepEqual(events.map((e: any) => e.data.to), ['working', 'idle', 'working', 'idle']);
  });

  // A program waiting in pause() for a signal: no wait the kernel's evidence can judge (ADR 0015).
  // It prints on SIGALRM every 200 ms: the same text in place, a counter, or (silent) nothing.
  const pacer = join(mkdtempSync('/tmp/amux-pacer-'), 'pacer.py');
  writeFileSync(pacer, [
    'import signal, sys',
    'mode = sys.argv[1]',
    'n = [0]',
    'def tick(*_):',
    '    n[0] += 1',
    "    if mode != 'silent': sys.stdout.write('\\rsame' if mode == 'same' else '\\r%06d' % n[0]); sys.stdout.flush()",
    'signal.signal(signal.SIGALRM, tick)',
    'signal.setitimer(signal.ITIMER_REAL, 0.2, 0.2)',
    'while True: signal.pause()',
    '',
  ].join('\n'));
  after(() => rmSync(dirname(pacer), { recursive: true, force: true }));

  test('a silent command the kernel cannot judge turns idle after the threshold (screen stable)', async () => {
    const id = await h.ok(['run', '--', `python3 ${pacer} silent`]);
    const s = await h.until(id, (x) => x.status === 'idle', 15_000);
    assert.equal(s.reason, 'screen stable');
    assert.ok(Date.now() - Date.parse(s.startedAt) >= 3000, 'not before the idle threshold');
    await h.ok(['kill', id]);
  });

  test('a wait on another process (cat opening a FIFO nobody writes) is working, reason pipe', async () => {
    const id = await h.ok(['run', '--', 'f=$(mktemp -u); mkfifo "$f"; cat "$f"']);
    const s = await h.until(id, (x) => x.reason === 'pipe', 15_000);
    assert.equal(s.status, 'working');
    await new Promise((r) => setTimeout(r, 4000)); // longer than the idle threshold
    assert.equal((await h.session(id)).status, 'working');
    await h.ok(['kill', id]);
  });

  test('a screen redrawn identically in place is idle; an in-place counter is working', async () => {
    // Both write output all the time without moving the cursor; only the screen hash tells them apart.
    // A dozen sessions first, so that these panes have ids past %9 (tmux once mangled those).
    for (let i = 0; i < 12; i++) await h.ok(['run', '--', 'true']);
    const same = await h.ok(['run', '--', `python3 ${pacer} same`]);
    const counter = await h.ok(['run', '--', `python3 ${pacer} counter`]);
    await h.until(same, (s) => s.status === 'idle', 15_000);
    await new Promise((r) => setTimeout(r, 4500)); // longer than the idle threshold
    const c = await h.session(counter);
    assert.equal(c.status, 'working');
    // Its changes keep being seen: a later refresh moves its last activity on (however slow a busy
    // machine makes the refreshes), while the redrawn one stays idle.
    await h.until(counter, (x) => x.status === 'working' && Date.parse(x.lastActivityAt) > Date.parse(c.lastActivityAt));
    assert.equal((await h.session(same)).status, 'idle');
    await h.ok(['kill', same, counter]);
  });

  test('a shell session (no command) is idle at its prompt', async () => {
    const id = await h.ok(['run']);
    const s = await h.until(id, (x) => x.status === 'idle', 10_000);
    assert.equal(s.command, null);
    await h.ok(['send', id, 'echo from-shell']);
    await h.until(id, (x) => x.status === 'idle', 10_000);
    assert.match(await h.ok(['logs', id]), /from-shell/);
  });

  test('send --keys and --no-enter', async () => {
    const id = await h.ok(['run', '--', 'cat']);
    await h.ok(['send', '--no-enter', id, 'partial;']);
    await h.ok(['send', id, '--keys', 'Enter']);
    await h.ok(['send', id, '--keys', 'C-d']);
    assert.equal((await h.run(['wait', id])).code, 0);
    const out = await h.ok(['logs', id]);
    assert.equal(out.split('\n').filter((l) => l === 'partial;').length, 2, out);
  });

  test('send to a finished session is refused with exit 1', async () => {
    const id = await h.ok(['run', '--', 'true']);
    await h.run(['wait', id]);
    const r = await h.run(['send', id, 'x']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /completed/);
    assert.equal(r.stderr.trim().split('\n').length, 1);
  });
});

describe('a refresh that costs what changed (ADR 0043)', () => {
  const h = amuxHome({ after });

  test('while nothing changes, the refreshes ask tmux nothing; statuses stay right', async () => {
    const sleeper = await h.ok(['run', '--', 'sleep 300']);
    const shell = await h.ok(['run']);
    await h.until(shell, (s) => s.status === 'idle', 15_000);
    await new Promise((r) => setTimeout(r, 2500)); // a refresh has seen the prompt's last bytes and its screen
    const spawned = async () => (JSON.parse(await h.ok(['daemon', 'status', '--json'])) as { tmuxCalls: { spawned: number } }).tmuxCalls.spawned;
    // A refresh every 1.5 s listed the panes each time: 2 or 3 in 4 s. Now at most the one every
    // 10 s. A busy machine may take longer to settle the shell's last screen: a few windows of 4 s
    // are watched, and one of them must be quiet (the old rate makes none quiet).
    const counts: number[] = [];
    while (counts.length < 5 && !counts.some((n) => n <= 1)) {
      const before = await spawned();
      await new Promise((r) => setTimeout(r, 4000));
      counts.push((await spawned()) - before);
    }
    assert.ok(counts.some((n) => n <= 1), `tmux processes in windows of 4 s with nothing changing: ${counts.join(', ')}`);
    const rows = JSON.parse(await h.ok(['ps', '--json'])) as { id: string; status: string }[];
    assert.equal(rows.find((r) => r.id === sleeper)?.status, 'working');
    assert.equal(rows.find((r) => r.id === shell)?.status, 'idle');
  });
});
