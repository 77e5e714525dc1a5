import assert from 'node:assert/strict';
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

  test('a silent command the kernel cannot judge turns idle after the threshold (screen stable)', async () => {
    // cat blocks opening a FIFO nobody writes: a wait on another process, neither input nor busy
    const id = await h.ok(['run', '--', 'f=$(mktemp -u); mkfifo "$f"; cat "$f"']);
    const s = await h.until(id, (x) => x.status === 'idle', 15_000);
    assert.equal(s.reason, 'screen stable');
    assert.ok(Date.now() - Date.parse(s.startedAt) >= 3000, 'not before the idle threshold');
    await h.ok(['kill', id]);
  });

  test('a screen redrawn identically in place is idle; an in-place counter is working', async () => {
    // Both write output all the time without moving the cursor; only the screen hash tells them apart.
    // A dozen sessions first, so that these panes have ids past %9 (tmux once mangled those).
    for (let i = 0; i < 12; i++) await h.ok(['run', '--', 'true']);
    // Paced by \`read -t\` on a private FIFO: a wait with a time limit, which only the screen can judge.
    const pace = 'f=$(mktemp -u); mkfifo "$f"; exec 3<>"$f"; rm "$f";';
    const same = await h.ok(['run', '--', `${pace} while :; do printf '\\rsame'; read -t 0.2 -u 3; done`]);
    const counter = await h.ok(['run', '--', `${pace} i=0; while :; do i=$((i+1)); printf '\\r%06d' $i; read -t 0.2 -u 3; done`]);
    await h.until(same, (s) => s.status === 'idle', 15_000);
    await new Promise((r) => setTimeout(r, 4500)); // longer than the idle threshold
    const c = await h.session(counter);
    assert.equal(c.status, 'working');
    assert.ok(Date.now() - Date.parse(c.lastActivityAt) < 3000, `last activity ${c.lastActivityAt}`);
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
