import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TestContext } from 'node:test';
import { SshLab, sshdUnavailable, type SshHost } from '../helpers/sshd.js';

/**
 * src/guides/remote.md: amux driving the daemons of other machines over SSH. Two "hosts" are two
 * private sshds on 127.0.0.1, each with its own AMUX_HOME (test/helpers/sshd.ts); each test has its
 * own local home, hence its own SSH master connections.
 */
describe('remote hosts over ssh', () => {
  let lab: SshLab | null = null;
  let a: SshHost;
  let b: SshHost;
  let why: string | null = sshdUnavailable();

  before(async () => {
    if (why) return;
    lab = new SshLab();
    try {
      a = await lab.host();
      b = await lab.host();
    } catch (err) {
      why = `cannot start sshd: ${(err as Error).message}`;
    }
    if (why) process.stdout.write(`# remote tests skipped: ${why}\n`);
  });
  after(async () => {
    await lab?.cleanup();
  });

  /** A fresh local home, or null (the test is skipped) when there is no sshd. */
  function local(t: TestContext, extra: Record<string, string> = {}) {
    if (why || !lab) {
      t.skip(why ?? 'no sshd');
      return null;
    }
    return lab.local(t, extra);
  }

  test('run, ps, logs -f, wait with exit codes, kill and rm on a host', async (t) => {
    const me = local(t);
    if (!me) return;
    const on = (...args: string[]) => ['--host', a.url, ...args];
    const id = await me.ok(on('run', '-n', 'counter', '--', 'sh', '-c', 'for i in 1 2 3; do echo line$i; sleep 0.2; done; exit 4'));
    assert.match(id, /^[0-9a-f]{8}$/);
    // It runs there, not here.
    assert.equal((await me.json(['ps'])).length, 0);
    assert.equal((await a.remote.json(['ps'])).map((s: any) => s.id).join(), id);
    const followed = await me.run(on('logs', '-f', id));
    assert.equal(followed.code, 0, followed.stderr);
    assert.equal(followed.stdout, 'line1\nline2\nline3\n');
    const waited = await me.run(on('wait', id));
    assert.equal(waited.code, 4, waited.stderr);
    const listed = await me.json(on('ps'));
    assert.equal(listed[0].id, id);
    assert.equal(listed[0].exitCode, 4);
    const sleeper = await me.ok(on('run', '--', 'sleep', '600'));
    assert.equal((await me.run(on('kill', '--grace', '1s', sleeper))).code, 0);
    assert.equal((await me.run(on('wait', sleeper))).code, 143);
    assert.equal((await me.run(on('rm', id, sleeper))).code, 0);
    assert.deepEqual(await me.json(on('ps')), []);
    // The far side's home and environment, not this machine's.
    const where = await me.run(on('run', '-w', '-e', 'EXTRA=1', '--', 'sh', '-c', 'echo "$AMUX_HOME $EXTRA $PWD"'));
    assert.equal(where.code, 0, where.stderr);
    assert.equal(where.stdout, `${a.remote.home} 1 ${process.env.HOME}\n`);
    await me.ok(on('prune'));
  });

  test('exec keeps stdout and stderr apart and exits with the job; exec -i sends stdin', async (t) => {
    const me = local(t);
    if (!me) return;
    const sh = await me.ok(['--host', a.url, 'run']);
    const r = await me.run(['--host', a.url, 'exec', sh, '--', 'sh', '-c', 'echo out; echo err >&2; exit 5']);
    assert.equal(r.code, 5, r.stderr);
    assert.equal(r.stdout, 'out\n');
    assert.equal(r.stderr, 'err\n');
    const i = await me.run(['--host', a.url, 'exec', '-i', sh, '--', 'read x; echo "got $x"'], { input: 'hello\n' });
    assert.equal(i.code, 0, i.stderr);
    assert.equal(i.stdout, 'got hello\n');
    const big = 'x'.repeat(300_000);
    const c = await me.run(['--host', a.url, 'exec', '-i', sh, '--', 'wc -c'], { input: big });
    assert.equal(c.stdout.trim(), '300000');
    await me.run(['--host', a.url, 'rm', '-f', sh]);
  });

  test('AMUX_HOST picks the host; two hosts are two daemons', async (t) => {
    const me = local(t);
    if (!me) return;
    const onA = await me.ok(['run', '--', 'true'], { env: { AMUX_HOST: a.url } });
    const onB = await me.ok(['--host', b.url, 'run', '--', 'true']);
    assert.ok((await a.remote.json(['ps'])).some((s: any) => s.id === onA));
    assert.ok(!(await a.remote.json(['ps'])).some((s: any) => s.id === onB));
    assert.ok((await b.remote.json(['ps'])).some((s: any) => s.id === onB));
    // --host wins over AMUX_HOST.
    const r = await me.run(['--host', b.url, 'inspect', onA], { env: { AMUX_HOST: a.url } });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^amux: no such session: /);
    await me.ok(['--host', a.url, 'rm', onA]);
    await me.ok(['--host', b.url, 'rm', onB]);
  });

  test('events -f follows there until the session is removed', async (t) => {
    const me = local(t);
    if (!me) return;
    const id = await me.ok(['--host', a.url, 'run', '--', 'true']);
    const followed = me.run(['--host', a.url, 'events', '-f', id]);
    await me.ok(['--host', a.url, 'wait', id]);
    await me.ok(['--host', a.url, 'rm', id]);
    const r = await followed;
    assert.equal(r.code, 0, r.stderr);
    const types = r.stdout.trim().split('\n').map((l) => JSON.parse(l).type);
    assert.deepEqual([types[0], types.at(-1)], ['session_created', 'session_removed'], types.join());
  });

  test('attach needs a terminal here too', async (t) => {
    const me = local(t);
    if (!me) return;
    const r = await me.run(['--host', a.url, 'attach', 'whatever']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^amux: cannot attach to whatever: stdin and stdout must be a terminal/);
  });

  test('contexts: add, ls, use, --context, rm; config.json keeps the settings', async (t) => {
    const me = local(t);
    if (!me) return;
    const { writeFileSync, readFileSync } = await import('node:fs');
    writeFileSync(`${me.home}/config.json`, '{"maxLive": 7}\n');
    assert.equal(await me.ok(['context', 'add', 'a', a.url]), 'a');
    assert.equal(await me.ok(['context', 'add', 'b', b.url]), 'b');
    const dup = await me.run(['context', 'add', 'a', b.url]);
    assert.equal(dup.code, 1);
    assert.match(dup.stderr, /^amux: context 'a' exists/);
    assert.deepEqual(await me.json(['context', 'ls']), [
      { name: 'local', host: null, current: true },
      { name: 'a', host: a.url, current: false },
      { name: 'b', host: b.url, current: false },
    ]);
    const onB = await me.ok(['--context', 'b', 'run', '--', 'true']);
    assert.ok((await b.remote.json(['ps'])).some((s: any) => s.id === onB));
    await me.ok(['context', 'use', 'b']);
    assert.equal((await me.json(['ps']))[0].id, onB); // the current context is b
    assert.equal((await me.json(['--context', 'local', 'ps'])).length, 0);
    // The local daemon still reads its settings from the same file.
    assert.equal((await me.json(['--context', 'local', 'daemon', 'status'])).settings.maxLive, 7);
    // A far side whose own current context points elsewhere still serves its own daemon.
    writeFileSync(`${b.remote.home}/config.json`, JSON.stringify({ contexts: { x: { host: 'ssh://nowhere.invalid' } }, context: 'x' }));
    try {
      assert.equal((await me.json(['ps']))[0].id, onB);
    } finally {
      writeFileSync(`${b.remote.home}/config.json`, '{}');
    }
    const rm = await me.run(['context', 'rm', 'b']);
    assert.equal(rm.code, 0);
    assert.match(rm.stderr, /now it is 'local'/);
    assert.equal((await me.json(['ps'])).length, 0);
    const none = await me.run(['--context', 'b', 'ps']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^amux: no context 'b'; see 'amux context ls'\n$/);
    assert.equal(JSON.parse(readFileSync(`${me.home}/config.json`, 'utf8')).maxLive, 7);
    await me.ok(['--host', b.url, 'rm', onB]);
  });

  test('fleet ps: one table with HOST, --json host and errors, a host that is down reported, exit 1 only if all failed', async (t) => {
    const me = local(t, { AMUX_CONNECT_TIMEOUT: '5s' });
    if (!me) return;
    const down = `ssh://127.0.0.1:${await lab!.deadPort()}`;
    await me.ok(['context', 'add', 'a', a.url]);
    await me.ok(['context', 'add', 'b', b.url]);
    await me.ok(['context', 'add', 'down', down]);
    const onA = await me.ok(['--context', 'a', 'run', '-n', 'fleet-a', '--', 'sleep', '600']);
    const onB = await me.ok(['--context', 'b', 'run', '-n', 'fleet-b', '--', 'sleep', '600']);
    const here = await me.ok(['run', '-n', 'fleet-here', '--', 'sleep', '600']);

    const table = await me.run(['ps', '--context', 'a,b,down']);
    assert.equal(table.code, 0, table.stderr);
    // (Other tests of this suite may have left finished sessions on the hosts.)
    const lines = table.stdout.trim().split('\n');
    assert.match(lines[0]!, /^HOST +ID +NAME +STATUS +EXIT +AGE +COMMAND$/);
    const mine = lines.filter((l) => l.includes(' fleet-'));
    assert.equal(mine.length, 2, table.stdout);
    assert.match(mine[0]!, new RegExp(`^a +${onA} +fleet-a `));
    assert.match(mine[1]!, new RegExp(`^b +${onB} +fleet-b `));
    assert.ok(!lines.some((l) => l.includes(here)));
    assert.match(table.stderr, new RegExp(`^amux: down: ${down}: cannot connect \\(.*Connection refused.*\\)`));
    assert.equal(table.stderr.trim().split('\n').length, 1);

    const json = await me.run(['ps', '--all-contexts', '--json']);
    assert.equal(json.code, 0, json.stderr);
    const parsed = JSON.parse(json.stdout);
    const ours = new Set([here, onA, onB]);
    assert.deepEqual(parsed.sessions.filter((s: any) => ours.has(s.id)).map((s: any) => `${s.host}:${s.id}`), [`local:${here}`, `a:${onA}`, `b:${onB}`]);
    assert.deepEqual(parsed.errors.map((e: any) => e.host), ['down']);
    assert.match(parsed.errors[0].message, /cannot connect/);

    const quiet = (await me.ok(['ps', '-q', '--context=b,a', '--status', 'working,idle'])).split('\n');
    assert.deepEqual(quiet, [`b:${onB}`, `a:${onA}`]);
    const newest = (await me.ok(['ps', '-q', '--context', 'a,b', '--status', 'working,idle', '-n', '1'])).split('\n');
    assert.deepEqual(newest, [`b:${onB}`], '-n: the newest of all hosts');

    const allDown = await me.run(['ps', '--context', 'down', '--json']);
    assert.equal(allDown.code, 1);
    assert.deepEqual(JSON.parse(allDown.stdout).sessions, []);
    const unknown = await me.run(['ps', '--context', 'a,nope']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^amux: no context 'nope'/);

    // HOST:ID in every command: kill and rm print the ids as named.
    assert.equal(await me.ok(['kill', '--grace', '1s', `a:${onA}`, `b:fleet-b`, here]), `a:${onA}\nb:${onB}\n${here}`);
    assert.equal(await me.ok(['rm', `a:${onA}`, `b:${onB}`, `local:${here}`]), `a:${onA}\nb:${onB}\nlocal:${here}`);
  });

  test('HOST:ID refs: wait across hosts with exit codes in argument order, logs, exec, inspect', async (t) => {
    const me = local(t);
    if (!me) return;
    await me.ok(['context', 'add', 'a', a.url]);
    await me.ok(['context', 'add', 'b', b.url]);
    const ok = await me.ok(['--context', 'a', 'run', '--', 'sh', '-c', 'sleep 1; echo from-a']);
    const bad = await me.ok(['--context', 'b', 'run', '--', 'sh', '-c', 'sleep 0.5; exit 6']);
    const w = await me.run(['wait', `a:${ok}`, `b:${bad}`, '--json']);
    assert.equal(w.code, 6, w.stderr);
    assert.deepEqual(JSON.parse(w.stdout).map((r: any) => [r.host, r.id, r.exitCode]), [['a', ok, 0], ['b', bad, 6]]);
    assert.equal((await me.run(['wait', `b:${bad}`, `a:${ok}`])).code, 6);
    assert.equal((await me.run(['wait', `a:${ok}`])).code, 0);
    const anyAcross = await me.run(['wait', '--any', `a:${ok}`, `b:${bad}`]);
    assert.equal(anyAcross.code, 2);
    assert.match(anyAcross.stderr, /^amux: --any waits on one daemon/);
    assert.equal(await me.ok(['logs', `a:${ok}`]), 'from-a');
    assert.equal(JSON.parse(await me.ok(['inspect', `b:${bad}`])).session.exitCode, 6);
    const sh = await me.ok(['--context', 'b', 'run']);
    const e = await me.run(['exec', `b:${sh}`, '--', 'sh', '-c', 'echo out; echo err >&2; exit 9']);
    assert.deepEqual([e.code, e.stdout, e.stderr], [9, 'out\n', 'err\n']);
    const missing = await me.run(['logs', `nope:${ok}`]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^amux: no context 'nope'/);
    await me.ok(['rm', '-f', `a:${ok}`, `b:${bad}`, `b:${sh}`]);
  });

  test('a host that is down: one line naming it, exit 3', async (t) => {
    const me = local(t);
    if (!me) return;
    const url = `ssh://127.0.0.1:${await lab!.deadPort()}`;
    const r = await me.run(['--host', url, 'ps']);
    assert.equal(r.code, 3);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`^amux: ${url}: cannot connect \\(.*Connection refused.*\\); check`));
  });

  test('a host that accepts but never answers: reported after its connect timeout, exit 3', async (t) => {
    const me = local(t, { AMUX_CONNECT_TIMEOUT: '2s' });
    if (!me) return;
    const { createServer } = await import('node:net');
    const held: import('node:net').Socket[] = [];
    const silent = createServer((c) => held.push(c));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    t.after(() => {
      for (const c of held) c.destroy();
      silent.close();
    });
    const url = `ssh://127.0.0.1:${(silent.address() as { port: number }).port}`;
    await me.ok(['context', 'add', 'silent', url]);
    await me.ok(['context', 'add', 'a', a.url]);
    const r = await me.run(['ps', '--context', 'silent,a', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const { errors } = JSON.parse(r.stdout);
    assert.deepEqual(errors.map((e: any) => e.host), ['silent']);
    assert.match(errors[0].message, /cannot connect \(.*timed out.*\)/);
    assert.match(r.stderr, /^amux: silent: ssh:\/\/127\.0\.0\.1:\d+: cannot connect/);
  });

  test('failed authentication: one line naming the host, exit 3, no prompt', async (t) => {
    const me = local(t, { AMUX_SSH_CONFIG: lab?.badConfig ?? '' });
    if (!me) return;
    const r = await me.run(['--host', a.url, 'ps']);
    assert.equal(r.code, 3);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`^amux: ${a.url}: authentication failed \\(.*Permission denied.*\\); .*ssh-agent`));
  });

  test('amux missing on the far side names AMUX_REMOTE_PATH, exit 3', async (t) => {
    const me = local(t, { AMUX_REMOTE_PATH: '/nonexistent/amux' });
    if (!me) return;
    const r = await me.run(['--host', a.url, 'ps']);
    assert.equal(r.code, 3);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`^amux: ${a.url}: amux was not found there .*AMUX_REMOTE_PATH`));
  });

  test('a far side of another API version, or one too old for dial-stdio, exit 3', async (t) => {
    if (!lab || why) return t.skip(why ?? 'no sshd');
    const newer = lab.fakeAmux('amux-api2', `printf 'HTTP/1.1 200 OK\\r\\nAmux-Api: 2\\r\\nContent-Length: 2\\r\\nConnection: close\\r\\n\\r\\n{}'`);
    const older = lab.fakeAmux('amux-old', `echo "amux: unknown daemon action '$2': use start, stop, status or run" >&2; exit 2`);
    for (const [fake, re] of [[newer, /speaks API version 2, this client 1; install the same amux release/], [older, /cannot serve remote clients .*upgrade amux on that host/]] as const) {
      const me = lab.local(t, { AMUX_REMOTE_PATH: fake });
      const r = await me.run(['--host', a.url, 'ps']);
      assert.equal(r.code, 3, r.stderr);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, new RegExp(`^amux: ${a.url}: `));
      assert.match(r.stderr, re);
    }
  });

  test('a bad --host is a usage error (exit 2)', async (t) => {
    const me = local(t);
    if (!me) return;
    for (const bad of ['box', 'http://box', 'ssh://-oProxyCommand=x', 'ssh://box/path']) {
      const r = await me.run(['--host', bad, 'ps']);
      assert.equal(r.code, 2, `${bad}: ${r.stderr}`);
      assert.match(r.stderr, /^amux: bad host .*use ssh:\/\/\[user@\]host\[:port\]\n$/);
    }
  });
});
