import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { EventView } from '../../src/protocol/events.js';
import { amuxHome, BIN, sleep, type AmuxHome } from '../helpers/amux.js';

const ndjson = (text: string): EventView[] => text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as EventView);

/** `amux ARGS…` left running: its output so far, and its end (killed after `limitMs`, which fails the test). */
function spawnAmux(h: AmuxHome, args: readonly string[], limitMs = 30_000) {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', AMUX_HOME: h.home, ...h.env };
  delete env.NODE_EXTRA_CA_CERTS;
  const child = spawn(process.execPath, [BIN, ...args], { env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
  const done = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on('close', (code, signal) => {
    clearTimeout(timer);
    resolve({ code, signal });
  }));
  return {
    child, done,
    get stdout() { return stdout; },
    get stderr() { return stderr; },
    /** Polls (bounded) until the printed events satisfy `pred`. */
    async until(pred: (events: EventView[]) => boolean, timeoutMs = 20_000): Promise<EventView[]> {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const whole = stdout.slice(0, stdout.lastIndexOf('\n') + 1);
        if (pred(ndjson(whole))) return ndjson(whole);
        await sleep(50);
      }
      throw new Error(`amux ${args.join(' ')} never printed the expected events; got:\n${stdout}\nstderr: ${stderr}`);
    },
  };
}

describe('amux events', () => {
  test('-f on a session prints its whole life in order, and ends by itself once it is removed', async (t) => {
    // A long idle threshold: no working/idle flapping in the middle of the sequence.
    const h = amuxHome(t, { AMUX_IDLE_THRESHOLD: '1h' });
    const gate = join(h.home, 'go');
    const id = await h.ok(['run', '--', `while [ ! -e '${gate}' ]; do sleep 0.05; done; exit 3`]);
    const follower = spawnAmux(h, ['events', id, '-f']);
    // Connected and past the backlog: what follows is read live.
    await follower.until((evs) => evs.some((e) => e.type === 'state_changed' && e.data.to === 'working'));
    writeFileSync(gate, '');
    await h.until(id, (s) => s.status === 'failed');
    await follower.until((evs) => evs.some((e) => e.type === 'job_finished'));
    assert.equal(follower.child.exitCode, null, 'a follow waits for the session to be removed, not just to end');
    await h.ok(['rm', id]);
    const end = await follower.done;
    assert.equal(end.code, 0, follower.stderr);
    assert.equal(follower.stderr, '');

    const evs = ndjson(follower.stdout);
    assert.deepEqual(evs.map((e) => e.type), ['session_created', 'state_changed', 'job_started', 'state_changed', 'job_finished', 'session_removed']);
    assert.deepEqual(evs.filter((e) => e.type === 'state_changed').map((e) => [e.data.from, e.data.to]), [['pending', 'working'], ['working', 'failed']]);
    assert.equal(evs[3]!.data.error, 'command exited with code 3');
    assert.deepEqual(evs[4]!.data, { status: 'failed', exitCode: 3 });
    assert.deepEqual(evs.map((e) => e.jobId), [null, null, `job-${id}-1`, null, `job-${id}-1`, null]);
    for (const [i, e] of evs.entries()) {
      assert.equal(e.sessionId, id);
      assert.match(e.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      if (i > 0) assert.ok(e.id > evs[i - 1]!.id, 'ids increase: written order');
    }
    // The same log read afterwards, by the removed session's full id; -f of a removed session ends at once.
    assert.equal(await h.ok(['events', id]), follower.stdout.trim());
    const again = await h.run(['events', id, '-f']);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(ndjson(again.stdout).map((e) => e.id), evs.map((e) => e.id));
  });

  test('without an ID: every session, in written order; --since keeps only recent events', async (t) => {
    const h = amuxHome(t);
    const a = await h.ok(['run', '--', 'true']);
    assert.equal((await h.run(['wait', a])).code, 0);
    const aEnded = Date.now();
    await sleep(3000); // a gap, so that a window can hold B's events and none of A's
    const bStart = Date.now();
    const b = await h.ok(['run', '--', 'exit 4']);
    assert.equal((await h.run(['wait', b])).code, 4);

    const all = ndjson(await h.ok(['events']));
    assert.deepEqual([...new Set(all.map((e) => e.sessionId))], [a, b]);
    assert.deepEqual(all.map((e) => e.id), [...all.map((e) => e.id)].sort((x, y) => x - y));
    assert.ok(all.filter((e) => e.sessionId === a).every((e) => Date.parse(e.createdAt) <= aEnded));

    // A window that starts in the gap: the daemon measures it back from when it reads the call, some
    // time between the call's start and its end. Aimed just after A's end from the call's start, it
    // starts in the gap when the call ended before B began; a call that a busy machine made slower
    // than that says nothing, and is made again.
    const inGap = async (args: string[]): Promise<string> => {
      for (let tries = 1; ; tries++) {
        const since = Date.now() - aEnded - 1;
        const out = await h.ok(['events', ...args, '--since', `${since}ms`]);
        if (Date.now() - since <= bStart) return out;
        assert.ok(tries < 20, `no events call in ${tries} answered within the ${bStart - aEnded} ms gap`);
      }
    };
    const recent = ndjson(await inGap([]));
    assert.deepEqual([...new Set(recent.map((e) => e.sessionId))], [b]);
    assert.deepEqual(recent, all.filter((e) => e.sessionId === b));
    assert.deepEqual(ndjson(await inGap([b])), recent);
    assert.equal(await inGap([a]), '');
  });
});

describe('amux history and stats', () => {
  const h = amuxHome({ after }, { AMUX_IDLE_THRESHOLD: '1h' });
  let c1: string, c2: string, f: string, k: string;

  test('a known set of sessions: 2 completed, 1 failed with exit 3 (removed), 1 stopped by kill', async () => {
    c1 = await h.ok(['run', '--', 'true']);
    c2 = await h.ok(['run', '--', 'sleep 0.2']);
    f = await h.ok(['run', '--', 'sleep 0.1; exit 3']);
    k = await h.ok(['run', '--', 'sleep 300']);
    assert.equal((await h.run(['wait', c1, c2])).code, 0);
    assert.equal((await h.run(['wait', f])).code, 3);
    await h.ok(['kill', k]);
    await h.ok(['rm', f]);
  });

  test('history keeps the removed session with its exit code, newest first', async () => {
    const list = await h.json<any[]>(['history']);
    assert.deepEqual(list.map((s) => s.id), [k, f, c2, c1]);
    const gone = list[1];
    assert.equal(gone.status, 'failed');
    assert.equal(gone.exitCode, 3);
    assert.equal(gone.removed, true);
    assert.ok(Date.parse(gone.removedAt) >= Date.parse(gone.endedAt));
    assert.deepEqual((await h.json<any[]>(['ps'])).map((s) => s.id), [k, c2, c1], 'ps does not show it');

    const table = (await h.ok(['history'])).split('\n');
    assert.match(table[0]!, /^ID\s+NAME\s+STATUS\s+EXIT\s+AGE\s+DURATION\s+REMOVED\s+COMMAND$/);
    assert.equal(table.length, 5);
    assert.match(table[2]!, new RegExp(`^${f}\\s+failed\\s+3\\s+\\d+[smhd]\\s+\\S+\\s+\\d+[smhd] ago\\s+sleep 0\\.1; exit 3$`));
    assert.match(table[1]!, new RegExp(`^${k}\\s+stopped\\s+143\\s+\\d+[smhd]\\s+\\S+\\s+sleep 300$`), 'not removed: REMOVED is empty');
  });

  test('history --status, -n, --since', async () => {
    const ids = async (args: string[]) => (await h.json<any[]>(['history', ...args])).map((s) => s.id);
    assert.deepEqual(await ids(['--status', 'failed']), [f]);
    assert.deepEqual(await ids(['--status', 'completed,stopped']), [k, c2, c1]);
    assert.deepEqual(await ids(['--status', 'expired']), []);
    assert.deepEqual(await ids(['-n', '2']), [k, f]);
    assert.deepEqual(await ids(['-n', '0']), []);
    assert.deepEqual(await ids(['--since', '1h', '--status', 'completed', '-n', '1']), [c2]);
    assert.deepEqual(await ids(['--since', '0']), [], 'a window that starts now');
  });

  test('stats --json: counts, durations, rates and events per type of this set', async () => {
    const s = await h.json<any>(['stats']);
    assert.deepEqual(s.byStatus, { pending: 0, working: 0, idle: 0, paused: 0, completed: 2, failed: 1, stopped: 1, expired: 0 });
    assert.equal(s.total, 4);
    assert.equal(s.terminal, 4);
    assert.equal(s.failureRate, 0.25);
    assert.equal(s.expiryRate, 0);
    assert.equal(s.windowMs, 86_400_000);
    const durations = (await h.json<any[]>(['history'])).map((x) => x.durationMs as number);
    assert.equal(s.durationCount, 4);
    assert.equal(s.avgDurationMs, Math.round(durations.reduce((x, y) => x + y, 0) / 4));
    assert.equal(s.p95DurationMs, Math.max(...durations)); // nearest rank ceil(0.95·4) = 4
    const { state_changed: changes, ...rest } = s.eventsByType;
    assert.deepEqual(rest, { job_finished: 4, job_started: 4, session_created: 4, session_removed: 1 });
    assert.ok(changes >= 8, 'each started (pending → working) and ended');
    // The same numbers as counting the event log.
    const counted: Record<string, number> = {};
    for (const e of ndjson(await h.ok(['events']))) counted[e.type] = (counted[e.type] ?? 0) + 1;
    assert.deepEqual(s.eventsByType, counted);
    assert.equal(s.eventsTotal, Object.values(counted).reduce((x, y) => x + y, 0));
  });

  test('stats: an empty window has null rates; the human tables', async () => {
    const empty = await h.json<any>(['stats', '--since', '0']);
    assert.equal(empty.total, 0);
    assert.equal(empty.failureRate, null);
    assert.equal(empty.expiryRate, null);
    assert.equal(empty.avgDurationMs, null);
    const text = await h.ok(['stats', '--since', '2h']);
    // cli-table3 tables (ADR 0023): the summary, the sessions by status, the events by type.
    assert.match(text, /^Sessions created and events written since \S+Z \(last 2h\)$/m);
    assert.match(text, /^│ sessions +│ 4 +│$/m);
    assert.match(text, /^│ failures +│ 25\.0% \(1 of 4 ended\) +│$/m);
    assert.match(text, /^│ expired +│ 0\.0% \(0 of 4 ended\) +│$/m);
    assert.match(text, /^│ duration +│ avg \S+, p95 \S+ \(over 4\) +│$/m);
    assert.match(text, /^│ pending │ working │ idle │ paused │ completed │ failed │ stopped │ expired │$/m);
    assert.match(text, /^│ +0 │ +0 │ +0 │ +0 │ +2 │ +1 │ +1 │ +0 │$/m);
    assert.match(text, /^│ session_created +│ +4 │$/m);
    assert.doesNotMatch(text, /\x1b\[/, 'no colour with NO_COLOR');
  });

  test('bad input: one clear line and the exit code of src/guides/sessions.md', async () => {
    const cases: [string[], number, RegExp][] = [
      [['events', '--since', '5x'], 2, /invalid --since '5x': give a duration before now/],
      [['history', '--since', '5x'], 2, /invalid --since '5x': give a duration before now/],
      [['stats', '--since', '-1h'], 2, /--since/],
      [['history', '-n', '-1'], 2, /invalid -n '-1'/],
      [['history', '--status', 'bogus'], 2, /unknown status 'bogus'/],
      [['events', 'nosuch'], 1, /no such session: nosuch/],
      [['events', 'nosuch', '-f'], 1, /no such session: nosuch/],
    ];
    for (const [args, code, message] of cases) {
      const r = await h.run(args);
      assert.equal(r.code, code, `amux ${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^amux: .+\n$/, `one line: ${JSON.stringify(r.stderr)}`);
      assert.match(r.stderr, message);
    }
  });
});
