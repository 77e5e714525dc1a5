import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { REST_PACE_MS } from '../../src/core/look-pace.js';
import { decodeSyscall } from '../../src/core/waits.js';
import { descendantsOf } from '../../src/process/process-table.js';
import { amuxHome, sleep } from '../helpers/amux.js';

/**
 * Looks rest while nobody calls (ADR 0071). With AMUX_TEST_REST_AFTER=1s, a program that sleeps is
 * looked at every REST_PACE_MS once nobody has called for a second; when it starts to read the
 * terminal the daemon records `idle` by itself (the test reads the database, never the API, until
 * it has); the first call finds it so, and typing into it works as ever.
 */
describe('looks rest while nobody calls', () => {
  const trace = join(tmpdir(), `amux-rest-trace-${process.pid}.jsonl`);
  const h = amuxHome({ after }, { AMUX_TEST_REST_AFTER: '1s', AMUX_LOOK_TRACE: trace });
  after(() => rmSync(trace, { force: true }));

  test('a resting session still becomes idle on its own, and the first call sees it', async () => {
    const id = (await h.ok(['run', '--', "bash -c 'sleep 12; read -r x; echo got:$x'"])).trim();
    // From here on, nobody calls until the database shows the change.
    const db = new Database(join(h.home, 'amux.db'), { readonly: true, fileMustExist: true });
    let status = '';
    try {
      const deadline = Date.now() + 120_000;
      while (Date.now() < deadline) {
        status = (db.prepare('SELECT status FROM sessions WHERE id = ?').get(id) as { status: string }).status;
        if (status === 'idle') break;
        await sleep(200);
      }
    } finally {
      db.close();
    }
    assert.equal(status, 'idle', 'recorded idle with nobody calling');

    // The looks at it while it slept: once it had been still for the rest time, some came a
    // REST_PACE_MS apart (load only stretches the gaps; looks every second never make one so long).
    const looks = existsSync(trace)
      ? readFileSync(trace, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { at: number; id: string; verdict: { verdict: string } })
      : [];
    const asleep = looks.filter((l) => l.id === id && l.verdict.verdict !== 'input').map((l) => l.at);
    const gaps = asleep.slice(1).map((at, i) => at - asleep[i]!);
    assert.ok(asleep.length >= 3, `the sleeping program was looked at: ${asleep.length} looks`);
    assert.ok(gaps.some((g) => g >= REST_PACE_MS - 500), `a gap of a resting pace among ${JSON.stringify(gaps)}`);

    const inspected = (await h.json<{ session: { status: string; reason: string } }>(['inspect', id, '--json'])).session;
    assert.equal(inspected.status, 'idle');
    assert.equal(inspected.reason, 'reading the terminal');
    await h.ok(['send', id, 'hi']);
    const waited = await h.run(['wait', id, '--timeout', '60s']);
    assert.equal(waited.code, 0, waited.stderr);
    assert.match((await h.ok(['logs', id])), /got:hi/);
  });

  test('the first call after a rest answers from a look at every session, not from the resting pace', async () => {
    // `touch` then `read`: once the kernel shows the program reading its terminal, the test calls
    // at once. Resting looks come every REST_PACE_MS, so without a look at every session before the
    // answer, the call would find it `working (sleeping)` most of the time.
    const id = (await h.ok(['run', '--', "bash -c 'sleep 9; read -r x'"])).trim();
    const db = new Database(join(h.home, 'amux.db'), { readonly: true, fileMustExist: true });
    const shell = (db.prepare('SELECT pid FROM sessions WHERE id = ?').get(id) as { pid: number }).pid;
    db.close();
    const reading = (): boolean =>
      descendantsOf(shell).some((pid) => {
        try {
          const call = decodeSyscall(process.arch, readFileSync(`/proc/${pid}/syscall`, 'utf8'));
          return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'bash' && call?.call === 'read' && call.fd === 0;
        } catch {
          return false;
        }
      });
    const deadline = Date.now() + 120_000;
    while (!reading() && Date.now() < deadline) await sleep(20);
    assert.ok(reading(), 'the program reads its terminal');
    const s = (await h.json<{ session: { status: string; reason: string } }>(['inspect', id, '--json'])).session;
    assert.deepEqual([s.status, s.reason], ['idle', 'reading the terminal']);
  });
});
