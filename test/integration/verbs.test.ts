import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { amuxHome, sleep } from '../helpers/amux.js';

describe('restart, rename, labels, filters, formats, restart policies, delays', () => {
  const h = amuxHome({ after });

  test('restart: same command, cwd, env, name and labels in a new session linked to the old one, which stays in history', async () => {
    const old = await h.ok(['run', '-n', 'rs', '-C', '/tmp', '-e', 'GREETING=hello there', '-l', 'team=ci', '--', 'echo "$GREETING from $PWD"; sleep 300']);
    await h.until(old, (s) => s.logBytes > 0);
    const fresh = await h.ok(['restart', 'rs']);
    assert.notEqual(fresh, old);
    const s = await h.session('rs');
    assert.equal(s.id, fresh, 'the name moved to the new session');
    assert.equal(s.restartOf, old);
    assert.equal(s.restarts, 1);
    assert.deepEqual(s.labels, { team: 'ci' });
    await h.until(fresh, (x) => x.logBytes > 0);
    assert.match(await h.ok(['logs', fresh]), /hello there from \/tmp/, 'same environment and directory');
    const prev = await h.session(old);
    assert.equal(prev.status, 'stopped', 'a live session is stopped first');
    assert.equal(prev.removed, true, 'the old one is removed but kept in history');
    const events = (await h.ok(['events', old])).split('\n').map((l) => JSON.parse(l));
    assert.ok(events.some((e) => e.type === 'restarted' && e.data.newId === fresh && e.data.by === 'user'));
    assert.equal((await h.run(['restart', old])).code, 1, 'a removed session cannot be restarted: its environment is gone');
  });

  test('restart of a finished session, by API too', async () => {
    const id = await h.ok(['run', '--', 'exit 4']);
    assert.equal((await h.run(['wait', id])).code, 4);
    const r = await h.api('POST', `/v1/sessions/${id}/restart`, {});
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.restartOf, id);
    assert.equal((await h.run(['wait', r.body.id])).code, 4);
  });

  test('rename: unique names, --clear, bad names refused', async () => {
    const id = await h.ok(['run', '-n', 'before', '--', 'sleep 300']);
    assert.equal(await h.ok(['rename', 'before', 'after']), id);
    assert.equal((await h.session(id)).name, 'after');
    await h.ok(['run', '-n', 'taken', '--', 'sleep 300']);
    const clash = await h.run(['rename', 'after', 'taken']);
    assert.equal(clash.code, 1);
    assert.match(clash.stderr, /already used/);
    assert.equal((await h.run(['rename', 'after', 'deadbeef'])).code, 2, 'a name that reads as an id');
    assert.equal((await h.run(['rename', 'after'])).code, 2, 'no name and no --clear');
    await h.ok(['rename', 'after', '--clear']);
    assert.equal((await h.session(id)).name, null);
  });

  test('labels and --filter on ps and history; --status live|finished; ps -n', async () => {
    const a = await h.ok(['run', '-n', 'lab-a', '-l', 'stack=demo', '-l', 'tier=web', '--', 'sleep 300']);
    const b = await h.ok(['run', '-n', 'lab-b', '-l', 'stack=demo', '--', 'true']);
    await h.run(['wait', b]);
    const ids = async (args: string[]) => (await h.ok(['ps', '-q', ...args])).split('\n').filter(Boolean);
    assert.deepEqual(await ids(['--filter', 'label=stack=demo']), [b, a]);
    assert.deepEqual(await ids(['--filter', 'label=stack=demo', '--filter', 'label=tier']), [a]);
    assert.deepEqual(await ids(['--filter', 'name=lab-?', '--status', 'finished']), [b]);
    assert.deepEqual(await ids(['--filter', 'label=stack', '--status', 'live']), [a]);
    assert.equal((await ids(['-n', '1'])).length, 1);
    assert.match(await h.ok(['history', '--filter', 'label=tier=web', '--format', '{{.Name}}']), /^lab-a$/);
    const bad = await h.run(['ps', '--filter', 'colour=red']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /name=GLOB/);
    assert.equal((await h.run(['run', '-l', 'bad key=1', '--', 'true'])).code, 2);
  });

  test('--format on ps, jobs and inspect; unknown fields name the valid ones', async () => {
    const id = await h.ok(['run', '-n', 'fmt', '-l', 'k=v', '--', 'exit 3']);
    await h.run(['wait', id]);
    assert.equal(await h.ok(['ps', '--filter', 'name=fmt', '--format', '{{.ID}}\\t{{.Status}}\\t{{.ExitCode}}\\t{{.Labels}}']), `${id}\tfailed\t3\tk=v`);
    assert.match(await h.ok(['ps', '--filter', 'name=fmt', '--format', 'table {{.Name}}\\t{{.ExitCode}}']), /^NAME\s+EXIT CODE\nfmt\s+3$/);
    assert.deepEqual(JSON.parse(await h.ok(['ps', '--filter', 'name=fmt', '--format', 'json'])).labels, { k: 'v' });
    assert.equal(await h.ok(['inspect', 'fmt', '--format', '{{.Status}} {{.ExitCode}}']), 'failed 3');
    assert.equal(await h.ok(['jobs', 'fmt', '--format', '{{.ID}} {{.ExitCode}}']), `job-${id}-1 3`);
    const bad = await h.run(['ps', '--format', '{{.Colour}}']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown field 'Colour'; fields: id, name, status/);
  });

  test('--restart on-failure:2 restarts a failing command twice with backoff, each an event; then it stays failed', async () => {
    const first = await h.ok(['run', '-n', 'flaky', '--restart', 'on-failure:2', '--', 'exit 7']);
    const last = await waitFor(async () => {
      const s = await h.session('flaky');
      return s.restarts === 2 && s.status === 'failed' ? s : null;
    });
    assert.equal(last.exitCode, 7);
    assert.equal(last.restartPolicy, 'on-failure:2');
    const chain = JSON.parse(await h.ok(['history', '--filter', 'name=flaky', '--json'])) as any[];
    assert.equal(chain.length, 3, 'three runs: the first and two restarts');
    assert.equal(chain.at(-1).id, first);
    const restarted = JSON.parse(`[${(await h.ok(['events', first])).split('\n').join(',')}]`).find((e: any) => e.type === 'restarted');
    assert.equal(restarted.data.by, 'policy');
    // The policy says its limit was reached: no third restart comes.
    await waitFor(async () => (await h.ok(['events', last.id])).includes('"restarts_exhausted"') || null);
    assert.equal((await h.session('flaky')).id, last.id, 'no third restart');
  });

  test('--restart always: kill ends the policy; on-failure does not restart a success', async () => {
    // The first run ends at once (completed); the restart then runs until it is killed.
    const { mkdtempSync, rmSync } = await import('node:fs');
    const flagDir = mkdtempSync('/tmp/amux-flag-');
    after(() => rmSync(flagDir, { recursive: true, force: true }));
    const flag = `${flagDir}/ran`;
    await h.ok(['run', '-n', 'forever', '--restart', 'always', '--', `if [ -e ${flag} ]; then sleep 300; else touch ${flag}; fi`]);
    const second = await waitFor(async () => {
      const s = await h.session('forever');
      return s.restarts >= 1 && s.status === 'working' ? s : null;
    });
    await h.ok(['kill', 'forever']);
    await sleep(2500);
    const s = await h.session('forever');
    assert.equal(s.id, second.id, 'no restart after kill');
    assert.equal(s.status, 'stopped');
    const ok = await h.ok(['run', '-n', 'fine', '--restart', 'on-failure', '--', 'true']);
    await h.run(['wait', ok]);
    await sleep(1500);
    assert.equal((await h.session('fine')).id, ok);
  });

  test('--delay: pending with a reason and startAfter until due; rm while waiting leaves nothing to start', async () => {
    // A delay that the CLI calls below cannot outlast on a busy machine (each a node start): the
    // look at the pending one and the rm of the other are made while both wait.
    const gone = await h.ok(['run', '--delay', '15s', '--', 'echo never']);
    const id = await h.ok(['run', '--delay', '15s', '--', 'echo late']);
    const s = await h.session(id);
    assert.equal(s.status, 'pending');
    assert.equal(s.reason, 'delayed');
    assert.ok(Date.parse(s.startAfter) > Date.parse(s.createdAt));
    const due = Date.parse((await h.session(gone)).startAfter);
    await h.ok(['rm', gone]);
    assert.equal((await h.run(['wait', id])).code, 0);
    assert.ok(Date.parse((await h.session(id)).startedAt) >= Date.parse(s.startAfter));
    // The removed one was due first: its time has come and gone once the later one ran.
    const g = await h.session(gone);
    assert.ok(due <= Date.parse(s.startAfter), `due ${due}, the other ${s.startAfter}`);
    assert.equal(g.startedAt, null);
    assert.equal(g.status, 'stopped');
  });

  test("docker's run -w DIR is refused with a hint, nothing started", async () => {
    const before = await h.ok(['ps', '-q']);
    const r = await h.run(['run', '-w', '/tmp', '--', 'ls']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /did you mean -C \/tmp\?/);
    assert.equal(await h.ok(['ps', '-q']), before);
  });

  async function waitFor<T>(probe: () => Promise<T | null>, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = await probe();
      if (v) return v;
      if (Date.now() > deadline) throw new Error('condition never held');
      await sleep(200);
    }
  }
});

describe('where the docs and the behaviour disagreed (issue 22)', () => {
  const h = amuxHome({ after });

  test('send --keys refuses a word that is not a key, types nothing', async () => {
    const id = await h.ok(['run', '--', 'cat']);
    await h.until(id, (s) => s.status === 'idle');
    await sleep(300);
    const before = (await h.session(id)).logBytes;
    const r = await h.run(['send', '--keys', id, 'Ctrl-C']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /'Ctrl-C' is not a tmux key name: did you mean C-c\?/);
    await sleep(300);
    assert.equal((await h.session(id)).logBytes, before, 'nothing was typed');
    assert.equal((await h.run(['send', '--keys', id, 'NoSuchKey'])).code, 2);
    await h.ok(['send', '--keys', id, 'C-c']);
    await h.until(id, (s) => s.status !== 'idle' && s.status !== 'working');
  });

  test('amux help NAME of no command or topic is a usage error; of a command, its page (ADR 0063)', async () => {
    const r = await h.run(['help', 'frob']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^amux: no command or topic 'frob': commands in 'amux --help'; topics: .*\n$/);
    const ok = await h.run(['help', 'ps']);
    assert.equal(ok.code, 0);
    assert.match(ok.stdout, /^ {2}amux ps \[options\]$/m);
  });

  test('daemon run with a daemon running fails (exit 1) naming its pid', async () => {
    await h.ok(['daemon', 'start']);
    const r = await h.run(['daemon', 'run']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /already running .*\(pid \d+\)/);
  });
});

describe('groups with their own parallel limit; settings changed live', () => {
  const h = amuxHome({ after });

  test('run -g queues by the group limit, other sessions unaffected; raising the limit starts waiting ones at once', async () => {
    assert.equal(await h.ok(['group', 'add', 'builds', '--parallel', '1']), 'builds');
    const a = await h.ok(['run', '-g', 'builds', '--', 'sleep 300']);
    const b = await h.ok(['run', '-g', 'builds', '--', 'sleep 300']);
    const free = await h.ok(['run', '--', 'sleep 300']);
    assert.equal((await h.session(a)).status, 'working');
    assert.equal((await h.session(b)).status, 'pending', 'the group is full');
    assert.equal((await h.session(free)).status, 'working', 'a session outside the group does not wait');
    assert.deepEqual(JSON.parse(await h.ok(['group', 'ls', '--json'])), [{ name: 'builds', parallel: 1, live: 1, pending: 1 }]);
    await h.ok(['group', 'add', 'builds', '--parallel', '2']);
    await h.until(b, (s) => s.status === 'working');
    assert.equal((await h.session(b)).group, 'builds');
    const r = await h.run(['run', '-g', 'nosuch', '--', 'true']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /no such group 'nosuch'; create it first/);
    await h.ok(['kill', a, b, free]);
  });

  test('group rm refuses while sessions wait in it; ends the group otherwise', async () => {
    await h.ok(['group', 'add', 'one', '--parallel', '1']);
    const a = await h.ok(['run', '-g', 'one', '--', 'sleep 300']);
    const b = await h.ok(['run', '-g', 'one', '--', 'sleep 300']);
    assert.equal((await h.run(['group', 'rm', 'one'])).code, 1);
    await h.ok(['kill', b]);
    await h.ok(['group', 'rm', 'one']);
    assert.equal((await h.run(['group', 'rm', 'one'])).code, 1);
    assert.equal((await h.run(['group', 'add', 'x'])).code, 2, '--parallel is required');
    await h.ok(['kill', a]);
  });

  test('config set maxLive takes effect at once and is kept in config.json; bad values change nothing', async () => {
    await h.ok(['config', 'set', 'maxLive', '1']);
    const a = await h.ok(['run', '--', 'sleep 300']);
    const b = await h.ok(['run', '--', 'sleep 300']);
    assert.equal((await h.session(b)).status, 'pending');
    assert.equal(JSON.parse(await h.ok(['daemon', 'status', '--json'])).settings.maxLive, 1);
    const { readFileSync } = await import('node:fs');
    assert.deepEqual(JSON.parse(readFileSync(`${h.home}/config.json`, 'utf8')), { maxLive: 1 });
    const bad = await h.run(['config', 'set', 'maxLive', 'lots']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /bad setting maxLive/);
    assert.equal((await h.run(['config', 'set', 'maxlive', '3'])).code, 2, 'keys are exact');
    const empty = await h.run(['config', 'set', 'maxLive', '']);
    assert.equal(empty.code, 2, 'an empty value is not a value (it would read as "not set")');
    assert.equal(empty.stderr, "amux: an empty value for maxLive: give one, or go back to the default with 'amux config unset maxLive'\n");
    assert.deepEqual(JSON.parse(readFileSync(`${h.home}/config.json`, 'utf8')), { maxLive: 1 }, 'unchanged');
    await h.ok(['config', 'unset', 'maxLive']);
    await h.until(b, (s) => s.status === 'working');
    await h.ok(['kill', a, b]);
  });
});

describe('run --after', () => {
  const h = amuxHome({ after });

  test('starts once its dependencies completed; pending with a reason naming them meanwhile', async () => {
    const gate = await h.ok(['run', '--', 'cat']); // ends when its input ends
    const next = await h.ok(['run', '--after', gate, '--', 'echo second']);
    const s = await h.session(next);
    assert.equal(s.status, 'pending');
    assert.equal(s.reason, `after ${gate}`);
    assert.deepEqual(s.after, [gate]);
    await h.ok(['send', '--keys', gate, 'C-d']);
    assert.equal((await h.run(['wait', next])).code, 0);
    assert.match(await h.ok(['logs', next]), /second/);
  });

  test('a dependency that fails makes it failed, never started, naming it', async () => {
    const bad = await h.ok(['run', '--', 'sleep 0.5; exit 3']);
    const ok = await h.ok(['run', '--', 'true']);
    const dep = await h.ok(['run', '--after', `${ok},${bad}`, '--', 'echo never']);
    assert.equal((await h.run(['wait', dep])).code, 1);
    const s = await h.session(dep);
    assert.equal(s.status, 'failed');
    assert.equal(s.startedAt, null);
    assert.equal(s.reason, 'dependency failed');
    assert.match(s.error, new RegExp(`dependency ${bad} ended failed, exit 3; never started`));
    const r = await h.run(['run', '--after', 'nosuch', '--', 'true']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /no such session: nosuch/);
  });
});

describe('events -f over all sessions', () => {
  const h = amuxHome({ after });

  test('shows only new events unless --since or --after', async () => {
    const old = await h.ok(['run', '--', 'true']);
    await h.run(['wait', old]);
    const { spawn } = await import('node:child_process');
    const { BIN } = await import('../helpers/amux.js');
    const follow = (args: string[]) => {
      const env: NodeJS.ProcessEnv = { ...process.env, AMUX_HOME: h.home, NO_COLOR: '1' };
      delete env.NODE_EXTRA_CA_CERTS;
      const child = spawn(process.execPath, [BIN, 'events', '-f', ...args], { env });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      return { child, text: () => out };
    };
    const fresh = follow([]);
    const replay = follow(['--since', '1h']);
    try {
      // Sessions are made until the new follower shows one (it is listening then, however long a
      // busy machine took to start it); then one more, which it must show too.
      const ids = (text: string) => new Set(text.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l).sessionId));
      const made: string[] = [];
      for (const deadline = Date.now() + 60_000; ids(fresh.text()).size === 0; await sleep(100)) {
        assert.ok(Date.now() < deadline, 'the follower never showed a new session');
        made.push(await h.ok(['run', '--', 'true']));
        await h.run(['wait', made.at(-1)!]);
      }
      const next = await h.ok(['run', '--', 'true']);
      await h.run(['wait', next]);
      const deadline = Date.now() + 15_000;
      while (!fresh.text().includes(next) && Date.now() < deadline) await sleep(100);
      const shown = [...ids(fresh.text())];
      assert.ok(shown.includes(next) && !shown.includes(old), `only new sessions: ${shown.join(' ')}`);
      assert.deepEqual(shown.filter((x) => x !== next && !made.includes(x)), [], 'only the new sessions');
      while (!replay.text().includes(next) && Date.now() < deadline) await sleep(100);
      assert.ok(ids(replay.text()).has(old), '--since replays');
    } finally {
      fresh.child.kill();
      replay.child.kill();
    }
  });
});

describe('notices: --on-end and config hooks; ps --usage', () => {
  test('--on-end and hooks.onFailure run with the session in their environment; a failing hook is an error event', async (t) => {
    const { mkdtempSync, writeFileSync, readFileSync, existsSync } = await import('node:fs');
    const out = mkdtempSync('/tmp/amux-hook-');
    t.after(async () => (await import('node:fs')).rmSync(out, { recursive: true, force: true }));
    const h = amuxHome(t);
    const { mkdirSync } = await import('node:fs');
    mkdirSync(h.home, { recursive: true, mode: 0o700 });
    writeFileSync(`${h.home}/config.json`, JSON.stringify({ hooks: { onFailure: `echo "$AMUX_ID $AMUX_STATUS $AMUX_EXIT_CODE" >> ${out}/failures` } }), { mode: 0o600 });
    const ok = await h.ok(['run', '-n', 'noted', '--on-end', `echo "$AMUX_NAME $AMUX_STATUS $AMUX_EXIT_CODE" > ${out}/ended`, '--', 'true']);
    const bad = await h.ok(['run', '--', 'exit 5']);
    const hookFails = await h.ok(['run', '--on-end', 'exit 9', '--', 'true']);
    await h.run(['wait', ok, bad, hookFails]);
    const deadline = Date.now() + 15_000;
    while (!(existsSync(`${out}/ended`) && existsSync(`${out}/failures`)) && Date.now() < deadline) await sleep(100);
    assert.equal(readFileSync(`${out}/ended`, 'utf8'), 'noted completed 0\n');
    assert.equal(readFileSync(`${out}/failures`, 'utf8'), `${bad} failed 5\n`, 'onFailure only for the failure');
    let errors: any[] = [];
    while (errors.length === 0 && Date.now() < deadline) {
      errors = (await h.ok(['events', hookFails])).split('\n').map((l) => JSON.parse(l)).filter((e) => e.type === 'error');
      await sleep(100);
    }
    assert.match(errors[0].data.message, /--on-end hook "exit 9" exited with code 9/);
    assert.equal((await h.run(['daemon', 'status'])).code, 0, 'the daemon lives on');
  });

  test('a bad hooks value stops the daemon from starting with one line', async (t) => {
    const h = amuxHome(t);
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(h.home, { recursive: true, mode: 0o700 });
    writeFileSync(`${h.home}/config.json`, JSON.stringify({ hooks: { onExit: 'x' } }), { mode: 0o600 });
    const r = await h.run(['ps']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /unknown hook 'onExit': use onEnd or onFailure/);
  });

  test('ps --usage: CPU% and MEM of live sessions, blank for finished ones', async (t) => {
    const h = amuxHome(t);
    const busy = await h.ok(['run', '--', 'while :; do :; done']);
    const done = await h.ok(['run', '--', 'true']);
    await h.run(['wait', done]);
    const text = await h.ok(['ps', '--usage']);
    const lines = text.split('\n');
    assert.match(lines[0]!, /CPU%\s+MEM\s+COMMAND$/);
    const busyLine = lines.find((l) => l.startsWith(busy))!;
    assert.match(busyLine, /working\s+\S+\s+\d+(\.\d)?\s+\d+(\.\d)?[KMG]\s+while/);
    assert.match(lines.find((l) => l.startsWith(done))!, /completed\s+0\s+\S+\s+true$/);
    await h.ok(['kill', busy]);
  });
});

describe('more of the mismatches (issue 22): logs --screen flags, prune --status, config key spelling, a linked AMUX_HOME', () => {
  test('logs --screen honours -n and --json, refuses -f, --since-offset and --limit', async (t) => {
    const h = amuxHome(t);
    const id = await h.ok(['run', '--', 'printf "one\\ntwo\\nthree\\n"; sleep 300']);
    await h.until(id, (s) => s.logBytes > 0);
    await sleep(300);
    assert.equal(await h.ok(['logs', '--screen', '-n', '1', id]), 'three');
    assert.match(JSON.parse(await h.ok(['logs', '--screen', '--json', id])).screen, /one\ntwo\nthree/);
    for (const flag of [['-f'], ['--since-offset', '0'], ['--limit', '10']]) {
      const r = await h.run(['logs', '--screen', ...flag, id]);
      assert.equal(r.code, 2, flag.join(' '));
      assert.match(r.stderr, /reads the output stream, not the screen/);
    }
    await h.ok(['kill', id]);
  });

  test('prune --status removes only those finished statuses; a live status is refused', async (t) => {
    const h = amuxHome(t);
    const ok = await h.ok(['run', '--', 'true']);
    const bad = await h.ok(['run', '--', 'exit 2']);
    await h.run(['wait', ok, bad]);
    await sleep(1200); // the end settles (on-end) before removal
    assert.equal(await h.ok(['prune', '--status', 'failed']), bad);
    assert.equal((await h.session(ok)).removed, false);
    const r = await h.run(['prune', '--status', 'working']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /not a finished status/);
  });

  test('a config.json key in another spelling of a known one stops the daemon from starting, naming the key meant', async (t) => {
    const h = amuxHome(t);
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(h.home, { recursive: true, mode: 0o700 });
    writeFileSync(`${h.home}/config.json`, JSON.stringify({ maxlive: 3 }), { mode: 0o600 });
    const r = await h.run(['ps']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown setting 'maxlive' in config.json: did you mean 'maxLive'\?/);
  });

  test('an AMUX_HOME that is a symbolic link of your own is used at its target', async (t) => {
    const h = amuxHome(t);
    const { mkdirSync, symlinkSync, rmSync } = await import('node:fs');
    mkdirSync(h.home, { recursive: true, mode: 0o700 });
    const link = `${h.home}-link`;
    symlinkSync(h.home, link);
    t.after(() => rmSync(link, { force: true }));
    const id = (await h.run(['run', '--', 'true'], { env: { AMUX_HOME: link } })).stdout.trim();
    assert.match(id, /^[0-9a-f]{8}$/);
    assert.equal((await h.session(id)).status !== undefined, true, 'the same home through its real path');
  });
});

describe('history and events by time: --since and --until take times', () => {
  test('history --until and events --until: what came before a time; ISO times and durations', async (t) => {
    const h = amuxHome(t);
    const a = await h.ok(['run', '-n', 'older', '--', 'true']);
    const cut = Date.parse((await h.session(a)).createdAt) + 1;
    const b = await h.ok(['run', '-n', 'newer', '--', 'true']);
    assert.ok(Date.parse((await h.session(b)).createdAt) >= cut, 'b came after the cut');
    const iso = new Date(cut).toISOString();
    const ids = async (args: string[]) => (await h.json<any[]>(['history', '--json', ...args])).map((s) => s.id);
    assert.deepEqual(await ids(['--until', iso]), [a]);
    assert.deepEqual(await ids(['--since', iso]), [b]);
    assert.deepEqual(await ids(['--since', String(cut - 1), '--until', iso]), [a], 'epoch ms');
    assert.deepEqual((await ids(['--since', '1h'])).sort(), [a, b].sort());
    assert.deepEqual(await ids(['--until', '1h']), [], 'a duration before now');
    const events = (await h.ok(['events', '--until', iso])).split('\n').filter(Boolean).map((l) => JSON.parse(l));
    assert.ok(events.length > 0 && events.every((e) => e.sessionId === a && Date.parse(e.createdAt) < cut), JSON.stringify(events));
    const later = (await h.ok(['events', '--since', iso])).split('\n').filter(Boolean).map((l) => JSON.parse(l));
    assert.ok(later.some((e) => e.sessionId === b));
    for (const args of [['history', '--until', 'yesterday'], ['events', '--since', 'soon'], ['events', '-f', '--until', '1m']]) {
      const r = await h.run(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /^amux: [^\n]*(--until|--since)[^\n]*\n$/);
    }
    assert.equal((await h.api('GET', `/v1/history?until=${encodeURIComponent(iso)}`)).body.length, 1);
    assert.equal((await h.api('GET', '/v1/events?until=1m&follow=1')).status, 400);
  });
});

describe('logs by time: --since, --until, -t', () => {
  test('each line with the second it was written by; a window of time reads what was written in it', async (t) => {
    const h = amuxHome(t);
    const id = await h.ok(['run', '--', 'echo early; sleep 3; echo late']);
    assert.equal((await h.run(['wait', id])).code, 0);
    await sleep(1200); // the end's last mark
    const stamped = (await h.ok(['logs', '-t', id])).split('\n');
    const at = (word: string) => Date.parse(stamped.find((l) => l.endsWith(` ${word}`))!.split(' ')[0]!);
    assert.match(stamped[0]!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ early$/);
    assert.ok(at('late') - at('early') >= 2000, `late is stamped ~3 s after early: ${stamped.join(' | ')}`);
    const mid = new Date(at('early') + 1500).toISOString();
    assert.doesNotMatch(await h.ok(['logs', '--since', mid, id]), /early/);
    assert.match(await h.ok(['logs', '--since', mid, id]), /late/);
    assert.match(await h.ok(['logs', '--until', mid, id]), /early/);
    assert.doesNotMatch(await h.ok(['logs', '--until', mid, id]), /late/);
    assert.match(await h.ok(['logs', '--since', '1h', id]), /early\nlate/);
    assert.equal((await h.run(['logs', '-t', '--raw', id])).code, 2);
    assert.equal((await h.run(['logs', '--since', 'yesterday', id])).code, 2);
  });

  test('logs -f -t: the lines so far, then each new line stamped as it arrives, until the session ends', async (t) => {
    const h = amuxHome(t);
    const gate = join(h.home, 'gate');
    const id = await h.ok(['run', '--', `printf 'first\\n'; printf 'half'; while [ ! -e ${gate} ]; do sleep 0.1; done; echo ' done'; echo second`]);
    await h.until(id, (s) => s.logBytes > 0);
    const following = h.run(['logs', '-f', '-t', id]);
    const released = Date.now();
    writeFileSync(gate, '');
    const r = await following;
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.deepEqual(lines.map((l) => l.replace(/^\S+ /, '')), ['first', 'half done', 'second'], r.stdout);
    for (const l of lines) assert.match(l, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ /);
    const at = (i: number) => Date.parse(lines[i]!.split(' ')[0]!);
    assert.ok(at(2) >= Math.floor(released / 1000) * 1000, `second is stamped when it came: ${r.stdout}`);
    assert.equal((await h.run(['logs', '-f', '-t', '--until', '1m', id])).code, 2, '--until is not with -f');
  });
});
