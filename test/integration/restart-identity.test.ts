import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { amuxHome, sleep } from '../helpers/amux.js';

async function waitFor<T>(probe: () => Promise<T | null | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await sleep(100);
  }
}

describe('a service keeps its identity across restarts (src/guides/sessions.md "Restart, labels, groups")', () => {
  test('the successor exists at once as restarting; logs NAME shows every run with a header, -f follows into the next; ids stay per run', async (t) => {
    // One live slot: a queued blocker takes it when the first run ends, so the restart is held
    // pending (restarting) for as long as the test looks, on any machine.
    const h = amuxHome(t, { AMUX_MAX_LIVE: '1' });
    const gate = join(h.home, 'gate');
    const first = await h.ok(['run', '-n', 'svc', '--restart', 'on-failure:1', '--', `echo "out $AMUX_SESSION_ID"; while [ ! -e ${gate} ]; do sleep 0.1; done; exit 42`]);
    await h.until(first, (s) => s.logBytes > 0 && s.status === 'working');
    const blocker = await h.ok(['run', '--', 'sleep 300']);
    assert.equal((await h.session(blocker)).status, 'pending');
    const following = h.run(['logs', '-f', 'svc']);
    writeFileSync(gate, '');

    const next = await waitFor(async () => {
      const s = await h.session('svc');
      return s.id !== first ? s : null;
    }, 'the successor');
    assert.equal(next.status, 'pending');
    assert.equal(next.reason, 'restart backoff');
    assert.equal(next.restartOf, first);
    assert.equal(next.restarts, 1);
    assert.deepEqual(
      { id: next.previousEnd.id, status: next.previousEnd.status, exitCode: next.previousEnd.exitCode },
      { id: first, status: 'failed', exitCode: 42 },
    );
    const row = (await h.ok(['ps'])).split('\n').find((l) => l.startsWith(next.id))!;
    assert.match(row, /\bsvc\s+restarting\b/, 'ps shows a chain in backoff as restarting');
    const restarted = (await h.ok(['events', first])).split('\n').map((l) => JSON.parse(l)).find((e) => e.type === 'restarted');
    assert.equal(restarted.data.delayMs, 1000, "the policy's first delay");
    assert.equal(restarted.data.newId, next.id);

    await h.ok(['kill', blocker]); // the slot frees: the second run starts, fails, and the policy's limit ends the chain
    const end = await waitFor(async () => {
      const events = (await h.ok(['events', next.id])).split('\n').map((l) => JSON.parse(l));
      return events.find((e) => e.type === 'restarts_exhausted');
    }, 'the end of the chain');
    assert.deepEqual(end.data, { policy: 'on-failure:1', inARow: 1 });

    const followed = await following;
    assert.equal(followed.code, 0, followed.stderr);
    // Run 1 is followed, or already ended when the follower came (then its header says how).
    const want = new RegExp(`^--- run 1 of svc(, ended failed \\(exit 42\\))? ---\nout ${first}\n--- run 2 of svc ---\nout ${next.id}\n$`);
    assert.match(followed.stdout, want);
    assert.equal(await h.ok(['logs', 'svc']), `--- run 1 of svc, ended failed (exit 42) ---\nout ${first}\n--- run 2 of svc, ended failed (exit 42) ---\nout ${next.id}`);
    assert.equal(await h.ok(['logs', first]), `out ${first}`, 'an id is one run');
    assert.equal(await h.ok(['logs', next.id]), `out ${next.id}`);
    const inspected = (await h.json<any>(['inspect', '--json', 'svc'])).session;
    assert.equal(inspected.restarts, 1);
    assert.equal(inspected.previousEnd.id, first);
  });

  test('rm of the newest run takes the kept logs of the earlier ones', async (t) => {
    const h = amuxHome(t);
    const first = await h.ok(['run', '-n', 'gone', '--restart', 'on-failure:1', '--', 'echo hi; exit 3']);
    const last = await waitFor(async () => {
      const s = await h.session('gone');
      return s.id !== first && s.status === 'failed' ? s : null;
    }, 'the second run ends');
    assert.equal(await h.ok(['logs', first]), 'hi');
    await h.ok(['rm', last.id]);
    const r = await h.run(['logs', first]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /removed/);
  });
  test('run --rm --restart always: each run is removed once, as its successor takes its place, with no error', async (t) => {
    // A restart removes the run it replaces as it ends; --rm's removal, once its output settled
    // (100 ms here), finds it removed: no second removal, no error.
    const h = amuxHome(t, { AMUX_TEST_SETTLE: '100ms' });
    await h.ok(['run', '--rm', '--restart', 'always', '-n', 'again', '--', 'exit 1']);
    const third = await waitFor(async () => {
      const s = await h.session('again');
      return s.restarts >= 2 ? s : null;
    }, 'a third run');
    const history = (await h.json<any[]>(['history'])).filter((s) => s.command === 'exit 1');
    const removed = history.filter((s) => s.id !== third.id);
    assert.ok(removed.length >= 2 && removed.every((s) => s.removed), JSON.stringify(history.map((s) => [s.id, s.removed])));
    assert.doesNotMatch(readFileSync(join(h.home, 'daemon.log'), 'utf8'), /could not remove/);
    for (const s of removed) {
      const events: any[] = JSON.parse(await h.ok(['inspect', s.id])).events;
      assert.deepEqual(events.filter((e) => e.type === 'error'), [], s.id);
    }
  });
});
