import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { amuxHome, sleep, type AmuxHome } from '../helpers/amux.js';

/** Polls until the session's raw log holds `bytes` bytes (a bounded wait for a condition). */
async function untilLogged(h: AmuxHome, id: string, bytes: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if ((await h.run(['logs', id, '--raw'])).raw.length >= bytes) return;
    await sleep(150);
  }
  throw new Error(`session ${id} never logged ${bytes} bytes`);
}

/** `ps` with a short client deadline: exit 3 ("not answering") if the daemon's event loop is held. */
function psQuick(h: AmuxHome) {
  return h.run(['ps', '-q'], { env: { AMUX_CLIENT_TIMEOUT: '5s' } });
}

/** A session that printed 40 `a`s and a `!` (what makes `(a+)+` backtrack) and stays live. */
async function fortyAsThenBang(h: AmuxHome): Promise<string> {
  const id = await h.ok(['run', '--', "head -c 40 /dev/zero | tr '\\0' a; echo '!'; sleep 600"]);
  await untilLogged(h, id, 41);
  return id;
}

describe('regular expressions of output waits cannot stall the daemon (ADR 0029)', () => {
  const h = amuxHome({ after });

  test('(a+)+$ on aaaa…!: the daemon answers others, and the wait keeps its --timeout', async () => {
    const id = await fortyAsThenBang(h);
    const waiting = h.run(['wait', id, '--until', 'output:(a+)+$', '--timeout', '4s'], { timeoutMs: 30_000 });
    await sleep(500);
    const ps = await psQuick(h);
    assert.equal(ps.code, 0, `ps while the wait runs: ${ps.stderr}`);
    assert.ok(ps.stdout.includes(id));
    const w = await waiting;
    assert.equal(w.code, 124, `the wait ran to its --timeout: ${w.stderr}`);
  });

  test('an expression that must backtrack gets a time budget per match: the wait fails with a clear error, others are answered', async () => {
    const id = await fortyAsThenBang(h);
    const waiting = h.run(['wait', id, '--until', 'output:(a+)+(?=b)', '--timeout', '60s'], { timeoutMs: 30_000 });
    await sleep(300);
    const ps = await psQuick(h);
    assert.equal(ps.code, 0, `ps while the expression backtracks: ${ps.stderr}`);
    const w = await waiting;
    assert.equal(w.code, 2, w.stderr);
    assert.match(w.stderr, /^amux: .*took longer than 5s.*linear time\n$/);
    // The daemon goes on matching for the next wait.
    assert.equal((await h.run(['wait', id, '--until', 'output:a!$', '--timeout', '20s'])).code, 0);
  });

  test('.*Done.* after a 150 KB line is found without holding the daemon', async () => {
    const id = await h.ok(['run', '--', "head -c 150000 /dev/zero | tr '\\0' x; echo; sleep 3; echo Done; sleep 600"]);
    await untilLogged(h, id, 150_000);
    const waiting = h.run(['wait', id, '--until', 'output:.*Done.*', '--timeout', '60s', '--json'], { timeoutMs: 60_000 });
    await sleep(300);
    const ps = await psQuick(h);
    assert.equal(ps.code, 0, `ps while the wait searches: ${ps.stderr}`);
    const w = await waiting;
    assert.equal(w.code, 0, w.stderr);
    assert.equal(JSON.parse(w.stdout)[0].match, 'Done');
  });

  test('one client\'s expensive expressions never hold another\'s wait behind them (ADR 0056)', async () => {
    const id = await fortyAsThenBang(h);
    const hello = await h.ok(['run', '--', 'echo hello; sleep 600']);
    await untilLogged(h, hello, 6);
    // Eight clients, each an expression that must backtrack and runs into its 5 s budget.
    let failed = 0;
    const costly = Array.from({ length: 8 }, () => h.api('POST', '/v1/wait', { ids: [id], until: 'output:(a+)+(?=b)', timeoutMs: 120_000 }).then((r) => {
      failed++;
      return r;
    }));
    // One has reached its budget: the others are under way or queued behind it.
    await Promise.race(costly);
    const failedBefore = failed;
    const innocent = await h.api('POST', '/v1/wait', { ids: [hello], until: 'output:hello', timeoutMs: 120_000 });
    const failedWhenAnswered = failed;
    assert.equal(innocent.status, 200, JSON.stringify(innocent.body));
    assert.equal(innocent.body.results[0].reached, true);
    // One thread, in line: it would have answered after all eight, 5 s each. Now each costly one
    // holds the quick thread for one slice at most, and the long thread ends one per budget.
    assert.ok(failedWhenAnswered - failedBefore <= 2, `${failedWhenAnswered - failedBefore} costly waits ended before a cheap one was answered`);
    for (const r of await Promise.all(costly)) {
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.match(r.body.error.message, /took longer than 5s/);
    }
  });
});
