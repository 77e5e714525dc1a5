import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { amuxHome, sleep } from '../helpers/amux.js';

describe('sessions outlive the daemon', () => {
  test('kill -9 of the daemon while sessions run and finish: nothing lost, real exit codes', async (t) => {
    const h = amuxHome(t);
    const quick = await h.ok(['run', '--', 'sleep 1; exit 3']);
    const ok = await h.ok(['run', '--', 'sleep 1']);
    const long = await h.ok(['run', '-n', 'long', '--', 'sleep 300']);
    const pid = h.daemonPid();
    assert.ok(pid);
    process.kill(pid, 'SIGKILL');
    await sleep(2000); // both short sessions finish while no daemon runs
    // the next CLI call starts a new daemon, which reconciles SQLite with tmux
    assert.equal((await h.run(['wait', quick])).code, 3);
    assert.equal((await h.run(['wait', ok])).code, 0);
    assert.notEqual(h.daemonPid(), pid);
    const s = await h.session(long);
    assert.ok(['working', 'idle'].includes(s.status), s.status);
    await h.ok(['send', 'long', 'still here']);
    const ps = await h.json<any[]>(['ps']);
    assert.equal(ps.length, 3);
  });

  test('run --rm ended while its output settles: removed by the daemon that stops, or by the next one after a kill -9', async (t) => {
    // Its output settles for a minute here (a second by default): the stop and the kill come inside it.
    const h = amuxHome(t, { AMUX_TEST_SETTLE: '1m' });
    const a = await h.ok(['run', '--rm', '--', 'echo bye; exit 4']);
    await h.until(a, (s) => s.status === 'failed');
    assert.match(await h.ok(['daemon', 'stop']), /stopped/);
    // Removed by the daemon that stopped (its files gone before any other daemon runs), nothing left half-done in its log.
    assert.equal(existsSync(join(h.home, 'sessions', a)), false, 'the stopping daemon left the --rm session');
    assert.doesNotMatch(readFileSync(join(h.home, 'daemon.log'), 'utf8'), /uncaught|unhandled/);
    const sa = JSON.parse(await h.ok(['inspect', a]));
    assert.equal(sa.session.removed, true);
    assert.equal(sa.session.exitCode, 4);
    assert.match(sa.lastOutput ?? '', /bye/);
    const b = await h.ok(['run', '--rm', '--', 'exit 5']);
    await h.until(b, (s) => s.status === 'failed');
    process.kill(h.daemonPid()!, 'SIGKILL');
    // The next daemon removes it as it starts.
    const sb = await h.session(b);
    assert.equal(sb.removed, true);
    assert.equal(sb.exitCode, 5);
    assert.equal(existsSync(join(h.home, 'sessions', b)), false);
  });

  test('daemon stop leaves sessions running; a new daemon adopts them', async (t) => {
    const h = amuxHome(t);
    const id = await h.ok(['run', '--', 'sleep 2; echo done; exit 8']);
    assert.match(await h.ok(['daemon', 'stop']), /stopped/);
    assert.equal((await h.run(['daemon', 'status'])).code, 3);
    assert.ok(h.tmuxSessions().includes(`amux-${id}`));
    assert.equal((await h.run(['wait', id])).code, 8);
    assert.match(await h.ok(['logs', id]), /done/);
  });

  test('the tmux server killed under it: failed "tmux session no longer exists"', async (t) => {
    const h = amuxHome(t);
    const a = await h.ok(['run', '--', 'sleep 300']);
    const b = await h.ok(['run']);
    execFileSync('tmux', ['-S', h.tmuxSocket, 'kill-server']);
    assert.equal((await h.run(['wait', a, b])).code, 1);
    for (const id of [a, b]) {
      const s = await h.session(id);
      assert.equal(s.status, 'failed');
      assert.equal(s.error, 'tmux session no longer exists');
    }
    assert.equal((await h.run(['daemon', 'status'])).code, 0);
    // and amux still works: a new tmux server is started on demand
    assert.equal((await h.run(['run', '-w', '--', 'exit 0'])).code, 0);
    // The new server numbers its panes from %0 again: the old session must not reach them.
    const b2 = await h.ok(['run', '--', 'echo I-AM-NEW; sleep 60']);
    await h.until(b2, (s) => s.logBytes > 0);
    const screen = await h.run(['logs', '--screen', a]);
    assert.equal(screen.code, 1);
    assert.doesNotMatch(screen.stdout, /I-AM-NEW/);
    assert.equal((await h.run(['send', a, 'x'])).code, 1);
  });

  test('50 CLIs at once: 50 distinct sessions, no error, one daemon', async (t) => {
    const h = amuxHome(t);
    let polling = true;
    const poller = (async () => {
      // ps keeps refreshing while sessions are being created (a refresh must not judge them gone)
      while (polling) await h.run(['ps', '-q']);
    })();
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => h.run(['run', '-n', `w${i}`, '--', 'sleep 60'])));
    polling = false;
    await poller;
    await new Promise((r) => setTimeout(r, 2500)); // at least one more refresh of all of them
    const statuses = (await h.json<any[]>(['ps'])).map((s) => s.status);
    assert.deepEqual(statuses.filter((s) => !['working', 'idle'].includes(s)), [], 'no live session was judged finished');
    for (const r of results) assert.equal(r.code, 0, r.stderr);
    const ids = results.map((r) => r.stdout.trim());
    assert.equal(new Set(ids).size, 50);
    for (const id of ids) assert.match(id, /^[0-9a-f]{8}$/);
    const mixed = await Promise.all([
      ...ids.slice(0, 10).map((id) => h.run(['kill', '--grace', '1s', id])),
      ...Array.from({ length: 20 }, () => h.run(['ps', '-q'])),
      ...ids.slice(10, 20).map((id) => h.run(['rm', '-f', id])),
    ]);
    for (const r of mixed) assert.equal(r.code, 0, r.stderr);
    const daemons = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => l.includes('daemon/amuxd.js'))
      .map((l) => Number(l.trim().split(/\s+/)[0]))
      .filter((pid) => {
        try {
          return execFileSync('cat', [`/proc/${pid}/environ`], { encoding: 'utf8' }).includes(`AMUX_HOME=${h.home}\0`);
        } catch {
          return false;
        }
      });
    assert.equal(daemons.length, 1, `daemons for this home: ${daemons}`);
    const ps = await h.json<any[]>(['ps']);
    assert.equal(ps.length, 40);
    await h.run(['kill', ...ps.map((s) => s.id)]);
  });
});
