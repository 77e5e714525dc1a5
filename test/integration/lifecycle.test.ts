import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { amuxHome, sleep, type AmuxHome } from '../helpers/amux.js';

/** Events of a session, oldest first, from `inspect` (its last 50). */
async function events(h: AmuxHome, id: string): Promise<Array<{ type: string; data: Record<string, unknown> }>> {
  return (JSON.parse(await h.ok(['inspect', id])) as { events: Array<{ type: string; data: Record<string, unknown> }> }).events;
}

/** The `tickN` lines the command has written so far. */
async function ticks(h: AmuxHome, id: string): Promise<number> {
  return (await h.ok(['logs', id])).split('\n').filter((l) => /^tick\d+$/.test(l)).length;
}

describe('timeouts (run --timeout, --idle-timeout)', () => {
  test('--timeout 2s: expired by TERM after 2 s, reason recorded, wait exits 128+15', async (t) => {
    const h = amuxHome(t);
    const id = await h.ok(['run', '--timeout', '2s', '--', 'sleep', '100']);
    const w = await h.run(['wait', id]);
    assert.equal(w.code, 143, w.stderr);
    const s = await h.session(id);
    assert.equal(s.status, 'expired');
    assert.equal(s.timeoutMs, 2000);
    assert.equal(s.signal, 'SIGTERM', 'TERM ended it; no KILL after the grace was needed');
    assert.equal(s.exitCode, 143, "the main command's own status, written by its shell");
    assert.match(s.error, /--timeout of 2s/);
    assert.ok(s.durationMs >= 2000, `expired after ${s.durationMs} ms, not before its limit`);
    const types = (await events(h, id)).map((e) => e.type);
    assert.ok(types.indexOf('timeout') >= 0 && types.indexOf('timeout') < types.lastIndexOf('state_changed'), types.join(','));
    const change = (await events(h, id)).filter((e) => e.type === 'state_changed').at(-1)!;
    assert.deepEqual([change.data.from, change.data.to, change.data.reason], ['working', 'expired', 'timeout']);
    assert.deepEqual(h.tmuxSessions().filter((n) => n.includes(id)), [], 'its tmux session is closed');
  });

  test('--idle-timeout: a silent command expires; a chatty one does not; paused time does not count', async (t) => {
    const h = amuxHome(t);
    // The chatty ones print every 0.2 s against a limit of 5 s: no busy machine stalls them that
    // long, so they expire only if output did not reset their clock (or a pause did not stop it).
    const silent = await h.ok(['run', '--idle-timeout', '1500ms', '--', 'echo started; sleep 100']);
    const chatty = await h.ok(['run', '--idle-timeout', '5s', '--', 'while :; do date +%s%N; sleep 0.2; done']);
    const paused = await h.ok(['run', '--idle-timeout', '5s', '--', 'while :; do date +%s%N; sleep 0.2; done']);
    await h.until(paused, (s) => s.status === 'working');
    await h.ok(['pause', paused]);
    const pausedAt = Date.now();
    assert.equal((await h.run(['wait', silent])).code, 143);
    const s = await h.session(silent);
    assert.equal(s.status, 'expired');
    assert.match(s.error, /no output for its --idle-timeout of 1\.5s/);
    assert.ok(s.durationMs >= 1500, `${s.durationMs} ms`);
    // Silent while paused for longer than its limit, and a refresh more (the clock is the point).
    await sleep(Math.max(0, pausedAt + 7_500 - Date.now()));
    assert.equal((await h.session(chatty)).status, 'working', 'output keeps resetting the idle clock');
    assert.equal((await h.session(paused)).status, 'paused', 'a paused session does not expire for silence');
    await h.ok(['resume', paused]);
    assert.equal((await h.session(paused)).status, 'working');
    await h.ok(['kill', chatty, paused]);
  });

  test('a shell session with --idle-timeout expires at its prompt; wait exits 143, as its record says (ADR 0016)', async (t) => {
    const h = amuxHome(t);
    const id = await h.ok(['run', '--idle-timeout', '1s']);
    assert.equal((await h.run(['wait', id])).code, 143);
    const s = await h.session(id);
    assert.equal(s.status, 'expired');
    assert.equal(s.exitCode, 143);
    assert.equal(s.signal, 'SIGTERM');
  });

  test('stats count expiries: expiry and failure rates over a known set', async (t) => {
    const h = amuxHome(t);
    const expired = await h.ok(['run', '--timeout', '1s', '--', 'sleep', '100']);
    const ok = await h.ok(['run', '--', 'exit 0']);
    const bad = await h.ok(['run', '--', 'exit 1']);
    await h.run(['wait', expired, ok, bad]);
    const s = await h.json<any>(['stats']);
    assert.deepEqual([s.byStatus.expired, s.byStatus.completed, s.byStatus.failed, s.terminal], [1, 1, 1, 3]);
    assert.equal(s.expiryRate, 1 / 3);
    assert.equal(s.failureRate, 1 / 3);
    assert.equal(s.eventsByType.timeout, 1);
    assert.deepEqual((await h.json<any[]>(['history', '--status', 'expired'])).map((x) => x.id), [expired]);
  });

  test('bad limits are usage errors; nothing is created', async (t) => {
    const h = amuxHome(t);
    for (const args of [['--timeout', 'soon'], ['--idle-timeout', '5x'], ['--timeout', '-1s']]) {
      const r = await h.run(['run', ...args, '--', 'true']);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stderr.trim().split('\n').length, 1);
      assert.match(r.stderr, new RegExp(args[0]!));
    }
    const zero = await h.run(['run', '--timeout', '0', '--', 'true']);
    assert.equal(zero.code, 2);
    assert.match(zero.stderr, /timeout must be longer than 0/);
    assert.equal(await h.ok(['ps', '-q']), '');
  });
});

describe('the maxLive queue', () => {
  test('MAX_LIVE=2: the third run is pending, then runs to its exit code; FIFO; pending can be killed and removed', async (t) => {
    const h = amuxHome(t, { AMUX_MAX_LIVE: '2' });
    const a = await h.ok(['run', '--', 'sleep', '100']);
    const b = await h.ok(['run', '--', 'sleep', '100']);
    const c = await h.ok(['run', '--', 'echo third; exit 3']);
    const d = await h.ok(['run', '--', 'sleep', '100']);
    const e = await h.ok(['run', '--', 'sleep', '100']);
    const f = await h.ok(['run', '--', 'sleep', '100']);
    const ps = JSON.parse(await h.ok(['ps', '--json'])) as Array<{ id: string; status: string; startedAt: string | null }>;
    const status = Object.fromEntries(ps.map((s) => [s.id, s.status]));
    assert.deepEqual([status[a], status[b], status[c], status[d], status[e], status[f]], ['working', 'working', 'pending', 'pending', 'pending', 'pending']);
    assert.equal(ps.find((s) => s.id === c)!.startedAt, null);
    assert.equal((await h.ok(['ps', '--status', 'pending', '-q'])).split('\n').length, 4, 'ps shows pending sessions');
    const health = JSON.parse(await h.ok(['daemon', 'status', '--json']));
    assert.deepEqual([health.live, health.pending, health.settings.maxLive], [2, 4, 2]);

    // A pending session is killed without having run, and a pending one is removed without -f.
    await h.ok(['kill', e]);
    const killed = await h.session(e);
    assert.deepEqual([killed.status, killed.startedAt, killed.exitCode], ['stopped', null, null]);
    await h.ok(['rm', f]);
    assert.equal((await h.session(f)).removed, true);
    assert.deepEqual(h.tmuxSessions().filter((n) => n.includes(e) || n.includes(f)), []);

    // `wait` works on a pending session: freeing a slot starts the oldest pending one (c), which ends with 3.
    const waiting = h.run(['wait', c]);
    await h.ok(['kill', a]);
    assert.equal((await waiting).code, 3);
    const third = await h.session(c);
    assert.deepEqual([third.status, third.exitCode], ['failed', 3]);
    assert.match(await h.ok(['logs', c]), /third/);
    // c finished at once and freed its slot in turn: d runs now, next in line.
    const dd = await h.until(d, (s) => s.status !== 'pending');
    assert.equal(dd.status, 'working');
    assert.ok(Date.parse(dd.startedAt) >= Date.parse(third.startedAt), 'FIFO: d started after c');
    const types = (await events(h, c)).map((x) => `${x.type}${x.data.to ? `:${x.data.from}>${x.data.to}` : ''}`);
    assert.deepEqual(types, ['session_created', 'state_changed:pending>working', 'job_started', 'state_changed:working>failed', 'job_finished']);
    await h.ok(['kill', b, d]);
  });

  test('run -w beyond the limit waits for its slot, then streams and exits with the code', async (t) => {
    const h = amuxHome(t, { AMUX_MAX_LIVE: '1' });
    const a = await h.ok(['run', '--', 'sleep 1; exit 0']);
    const r = await h.run(['run', '-w', '--', 'echo queued-output; exit 4']);
    assert.equal(r.code, 4, r.stderr);
    assert.equal(r.stdout, 'queued-output\n');
    assert.equal((await h.session(a)).status, 'completed');
  });

  test('pending sessions survive a daemon restart and start when a slot frees', async (t) => {
    const h = amuxHome(t, { AMUX_MAX_LIVE: '1' });
    const a = await h.ok(['run', '--', 'sleep', '100']);
    const b = await h.ok(['run', '--', 'exit 7']);
    await h.ok(['daemon', 'stop']);
    assert.equal((await h.session(b)).status, 'pending', 'still queued after the restart');
    await h.ok(['kill', a]);
    assert.equal((await h.run(['wait', b])).code, 7);
  });
});

describe('pause and resume', () => {
  test('pause → no output; resume → output again; the exit code is kept', async (t) => {
    const h = amuxHome(t);
    // It ticks until told to end (a file), not for a fixed time that a busy machine could outlast
    // before the pause reaches it.
    const done = join(h.home, 'done');
    const id = await h.ok(['run', '--', `i=0; while [ ! -e ${done} ]; do i=$((i+1)); echo tick$i; sleep 0.1; done; exit 5`]);
    while (!/tick3/.test(await h.ok(['logs', id]))) await sleep(100);
    assert.equal(await h.ok(['pause', id]), id);
    assert.equal((await h.session(id)).status, 'paused');
    // (The shell itself notes the stop in the pane, as after Ctrl-Z: only the command's lines count.)
    const before = await ticks(h, id);
    await sleep(1000);
    assert.equal(await ticks(h, id), before, 'the command writes nothing while paused');
    assert.equal((await h.run(['exec', id, '--', 'true'])).code, 1, 'exec is refused while paused');
    assert.equal(await h.ok(['pause', id]), id, 'pausing again is a no-op');
    await h.ok(['resume', id]);
    for (const deadline = Date.now() + 30_000; (await ticks(h, id)) <= before + 3; await sleep(100)) {
      assert.ok(Date.now() < deadline, 'ticks again once resumed');
    }
    writeFileSync(done, '');
    assert.equal((await h.run(['wait', id])).code, 5, 'the command resumes and its exit code is its own');
    const changes = (await events(h, id)).filter((e) => e.type === 'state_changed').map((e) => `${e.data.from}>${e.data.to}`);
    assert.deepEqual(changes.slice(1), ['working>paused', 'paused>working', 'working>failed']);
  });

  test('a paused session can be killed; pause of a finished or unknown session is a clear error', async (t) => {
    const h = amuxHome(t);
    const id = await h.ok(['run', '--', 'sleep', '100']);
    await h.ok(['pause', id]);
    await h.ok(['kill', '--grace', '2s', id]);
    const s = await h.session(id);
    assert.equal(s.status, 'stopped');
    assert.equal(s.signal, 'SIGTERM', 'the stopped process was continued to take its TERM');
    for (const [args, code, msg] of [[['pause', id], 1, /has finished/], [['resume', id], 1, /has finished/], [['pause', 'nosuch'], 1, /no such session: nosuch/]] as const) {
      const r = await h.run(args);
      assert.equal(r.code, code, r.stderr);
      assert.match(r.stderr, msg);
      assert.equal(r.stderr.trim().split('\n').length, 1);
    }
  });
});

describe("the shell under the pane's process", () => {
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return !/^\S+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      return false;
    }
  };

  test('a hangup still ends a shell busy in its own loop (tmux server killed): no orphan is left', async (t) => {
    const h = amuxHome(t);
    const id = await h.ok(['run', '--', 'while :; do date +%N; sleep 0.1; done']);
    const { pid } = await h.until(id, (s) => s.pid !== null && s.status === 'working');
    assert.ok(alive(pid));
    execFileSync('tmux', ['-S', h.tmuxSocket, 'kill-server']);
    for (const deadline = Date.now() + 30_000; Date.now() < deadline && alive(pid); ) await sleep(100);
    assert.ok(!alive(pid), `bash ${pid} outlived the hangup`);
    assert.equal((await h.run(['wait', id])).code, 1);
    assert.equal((await h.session(id)).error, 'tmux session no longer exists');
  });
});

describe('retention', () => {
  test('finishedTtl (test setting) closes the tmux session of a finished session; its log and row stay', async (t) => {
    const h = amuxHome(t, { AMUX_TEST_FINISHED_TTL: '1s', AMUX_TEST_SWEEP_INTERVAL: '300ms' });
    const done = await h.ok(['run', '--', 'echo kept-output']);
    const live = await h.ok(['run', '--', 'sleep', '100']);
    const s = await h.until(done, (x) => x.closedAt !== null);
    assert.equal(s.status, 'completed');
    assert.ok(!h.tmuxSessions().includes(`amux-${done}`), 'tmux session closed');
    assert.ok(h.tmuxSessions().includes(`amux-${live}`), 'a live session is left alone');
    assert.equal(await h.ok(['logs', done]), 'kept-output');
    assert.ok((await events(h, done)).some((e) => e.type === 'session_closed'));
    const attach = await h.run(['attach', done]);
    assert.notEqual(attach.code, 0);
    assert.ok(existsSync(join(h.home, 'sessions', done)), 'files stay until rm, prune or historyRetention');
  });

  test('prune removes finished sessions older than --older-than; live ones stay', async (t) => {
    const h = amuxHome(t);
    const one = await h.ok(['run', '--', 'exit 0']);
    const two = await h.ok(['run', '--', 'exit 2']);
    const live = await h.ok(['run', '--', 'sleep', '100']);
    await h.run(['wait', one, two]);
    assert.equal(await h.ok(['prune', '--older-than', '1h']), '', 'nothing ended an hour ago');
    const removed = (await h.ok(['prune'])).split('\n').sort();
    assert.deepEqual(removed, [one, two].sort());
    for (const id of [one, two]) {
      const s = await h.session(id);
      assert.equal(s.removed, true);
      assert.ok(!existsSync(join(h.home, 'sessions', id)));
    }
    assert.equal((await h.session(two)).exitCode, 2, 'the history row keeps the exit code');
    assert.equal(await h.ok(['ps', '-q']), live);
    assert.equal((await h.run(['prune', '--older-than', 'old'])).code, 2);
  });
});

describe('settings', () => {
  test('bad values are clear errors naming the setting', async (t) => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ AMUX_MAX_LIVE: 'many' }, /AMUX_MAX_LIVE="many": must be a whole number/],
      [{ AMUX_MAX_LIVE: '-1' }, /AMUX_MAX_LIVE/],
      [{ AMUX_FINISHED_TTL: 'later' }, /AMUX_FINISHED_TTL/],
      [{ AMUX_HISTORY_RETENTION: '10s' }, /historyRetention: must be at least 1m/],
    ];
    for (const [env, message] of cases) {
      const h = amuxHome(t, env);
      const r = await h.run(['ps']);
      assert.equal(r.code, 2, `${JSON.stringify(env)}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split('\n').length, 1);
    }
    const h = amuxHome(t);
    writeFileSync(join(h.home, 'config.json'), JSON.stringify({ maxLive: 'two' }));
    const r = await h.run(['ps']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /maxLive in config\.json/);
  });

  test('daemon status --json shows the settings in force: config.json, the environment winning, finishedTtl clamped', async (t) => {
    const h = amuxHome(t, { AMUX_MAX_LIVE: '3', AMUX_FINISHED_TTL: '10s' });
    writeFileSync(join(h.home, 'config.json'), JSON.stringify({ maxLive: 9, historyRetention: '2d', finishedTtl: '5h' }));
    await h.ok(['daemon', 'start']);
    const { settings } = JSON.parse(await h.ok(['daemon', 'status', '--json']));
    assert.equal(settings.maxLive, 3, 'the variable wins');
    assert.equal(settings.historyRetentionMs, 2 * 86_400_000);
    assert.equal(settings.finishedTtlMs, 60_000, '10s is clamped to the 1m minimum');
    assert.match(await h.ok(['daemon', 'status']), /^│ maxLive +│ 3 +│$/m);
  });
});

describe('graceful daemon stop', () => {
  test('runs in flight during a stop all land whole; a wait in flight still gets the exit code', async (t) => {
    const h = amuxHome(t);
    const waited = await h.ok(['run', '--', 'sleep 2; exit 6']);
    const wait = h.run(['wait', waited]);
    await sleep(300);
    const runs = Array.from({ length: 6 }, (_, i) => h.run(['run', '--', `echo run${i}; sleep 100`]));
    const stop = h.run(['daemon', 'stop']);
    const results = await Promise.all(runs);
    assert.equal((await stop).code, 0);
    assert.equal((await wait).code, 6, 'the wait reconnects to a new daemon and gets the code');
    const ps = JSON.parse(await h.ok(['ps', '--json'])) as Array<{ id: string; status: string; pid: number | null }>;
    for (const r of results) {
      assert.equal(r.code, 0, r.stderr);
      const s = ps.find((x) => x.id === r.stdout.trim());
      assert.ok(s, `${r.stdout.trim()} is in ps`);
      assert.ok(['working', 'idle'].includes(s.status) && s.pid, `${s.id} is ${s.status}`);
    }
    assert.equal(ps.length, 7, 'no half-created session');
    assert.equal(readdirSync(join(h.home, 'sessions')).length, 7);
  });
});
