import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { amuxHome, sleep } from '../helpers/amux.js';

describe('amux daemon', () => {
  test('status exits 3 when not running; start, status --json, stop', async (t) => {
    const h = amuxHome(t);
    const down = await h.run(['daemon', 'status']);
    assert.equal(down.code, 3);
    assert.match(down.stderr, /not running/);
    assert.match(await h.ok(['daemon', 'start']), /running/);
    const st = JSON.parse(await h.ok(['daemon', 'status', '--json']));
    assert.equal(typeof st.pid, 'number');
    assert.equal(st.socket, join(h.home, 'amux.sock'));
    assert.equal(typeof st.version, 'string');
    assert.equal(typeof st.uptimeMs, 'number');
    assert.equal(st.sessions, 0);
    assert.match(await h.ok(['daemon', 'start']), new RegExp(`pid ${st.pid}`));
    await h.ok(['daemon', 'stop']);
    assert.equal((await h.run(['daemon', 'status'])).code, 3);
  });

  test('a CLI right after daemon stop (a follower still connected) starts a new daemon', async (t) => {
    const h = amuxHome(t);
    const id = await h.ok(['run']);
    const follower = h.run(['logs', '-f', id]);
    await new Promise((r) => setTimeout(r, 300));
    await h.ok(['daemon', 'stop']);
    const r = await h.run(['ps', '-q']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), id);
    const f = await follower;
    assert.equal(f.code, 3, 'a follow cut short by the daemon stopping says so');
    assert.match(f.stderr, /daemon stopped while following/);
  });

  test('the daemon runs with its own node and malloc options (ADR 0042); they reach neither tmux nor the sessions', async (t) => {
    const h = amuxHome(t, { MALLOC_ARENA_MAX: undefined });
    const out = await h.ok(['run', '-w', '--', 'echo arena=${MALLOC_ARENA_MAX-unset}']);
    const environ = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    const daemon = h.daemonPid()!;
    assert.ok(readFileSync(`/proc/${daemon}/cmdline`, 'utf8').split('\0').includes('--max-semi-space-size=1'));
    assert.ok(environ(daemon).includes('MALLOC_ARENA_MAX=2'), 'malloc read it at the start');
    assert.match(out, /^arena=unset$/m);
    const server = Number(h.tmux(['display-message', '-p', '#{pid}']).trim());
    assert.ok(server > 0 && !environ(server).some((e) => e.startsWith('MALLOC_ARENA_MAX=')), 'the tmux server started without it');
  });

  test('the daemon runs from its code cache (ADR 0069): written beside its bundle, then read by the next daemon', async (t) => {
    const dir = join(__dirname, '..', '..', 'src', 'daemon');
    const caches = () => readdirSync(dir).filter((f) => f.startsWith('amuxd.js.') && f.endsWith('.cache'));
    const first = amuxHome(t);
    await first.ok(['run', '-w', '--', 'true']);
    const cmdline = readFileSync(`/proc/${first.daemonPid()!}/cmdline`, 'utf8').split('\0');
    assert.ok(cmdline.some((a) => a.endsWith('/cli/code-cache.js')) && cmdline.some((a) => a.endsWith('/daemon/amuxd.js')), cmdline.join(' '));
    // Written 2 s after the start of this daemon, or of one an earlier test started.
    const deadline = Date.now() + 60_000;
    while (caches().length === 0 && Date.now() < deadline) await sleep(100);
    assert.deepEqual(caches().length, 1, `one code cache in ${dir}`);
    assert.equal(statSync(join(dir, caches()[0]!)).mode & 0o777, 0o644, 'readable by all, as the bundle');
    // The next daemon reads it: had V8 rejected it (flags the writer set after its start, ADR 0069), it would compile.
    const next = amuxHome(t);
    await next.ok(['run', '-w', '--', 'true']);
    assert.match(readFileSync(join(next.home, 'daemon.log'), 'utf8'), /listening on .*its code from the code cache, ADR 0069\)/);
  });

  test('a MALLOC_ARENA_MAX of the caller is the daemon’s and its sessions’', async (t) => {
    const h = amuxHome(t, { MALLOC_ARENA_MAX: '3' });
    const out = await h.ok(['run', '-w', '--', 'echo arena=${MALLOC_ARENA_MAX-unset}']);
    assert.ok(readFileSync(`/proc/${h.daemonPid()!}/environ`, 'utf8').split('\0').includes('MALLOC_ARENA_MAX=3'));
    assert.match(out, /^arena=3$/m);
  });

  test('daemon.log says how tmux is called (ADR 0046); an AMUX_TMUX_CONTROL neither on nor off is a bad setting: exit 2, one line, no daemon', async (t) => {
    const bad = amuxHome(t, { AMUX_TMUX_CONTROL: 'yes' });
    const r = await bad.run(['run', '--', 'true']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^amux: bad setting AMUX_TMUX_CONTROL="yes": must be on or off/);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.equal(bad.daemonPid(), null, 'no daemon started');
    assert.equal(existsSync(join(bad.home, 'amux.db')), false, 'nothing made: checked before the database');
    const h = amuxHome(t, { AMUX_TMUX_CONTROL: 'off' });
    assert.equal(await h.ok(['run', '-w', '--', 'echo fine']), 'fine');
    const log = readFileSync(join(h.home, 'daemon.log'), 'utf8');
    assert.match(log, /tmux calls as processes/);
  });

  test('AMUX_HOME is 0700, the socket and database 0600', async (t) => {
    const h = amuxHome(t);
    await h.ok(['run', '--', 'true']);
    const mode = (p: string) => statSync(p).mode & 0o777;
    assert.equal(mode(h.home), 0o700);
    assert.equal(mode(join(h.home, 'amux.sock')), 0o600);
    assert.equal(mode(join(h.home, 'amux.db')), 0o600);
    assert.equal(mode(join(h.home, 'sessions')), 0o700);
  });

  test('a stale socket and pid file from a crashed daemon do not block a new one', async (t) => {
    const h = amuxHome(t);
    await h.ok(['daemon', 'start']);
    const pid = h.daemonPid()!;
    process.kill(pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 200));
    assert.equal((await h.run(['daemon', 'status'])).code, 3);
    assert.equal((await h.run(['run', '-w', '--', 'exit 0'])).code, 0);
    assert.notEqual(h.daemonPid(), pid);
  });

  test('the HTTP API answers JSON errors with stable codes', async (t) => {
    const h = amuxHome(t);
    await h.ok(['daemon', 'start']);
    const { request } = await import('node:http');
    const get = (path: string) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const req = request({ socketPath: join(h.home, 'amux.sock'), path, method: 'GET' }, (res) => {
          let data = '';
          res.on('data', (c) => (data += c));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(data) }));
        });
        req.on('error', reject);
        req.end();
      });
    const nf = await get('/v1/sessions/deadbeef');
    assert.equal(nf.status, 404);
    assert.equal(nf.body.error.code, 'session_not_found');
    const bad = await get('/v1/sessions?status=bogus');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'invalid_argument');
    const health = await get('/v1/health');
    assert.equal(health.status, 200);
    assert.equal(health.body.pid, h.daemonPid());
    const malformed = await get('/v1/sessions/%zz');
    assert.equal(malformed.status, 400);
    // graceMs is milliseconds: a TERM-proof command is SIGKILLed after 300 ms, not 300 s
    const id = await h.ok(['run', '--', `trap '' TERM; sleep 300`]);
    await new Promise((r) => setTimeout(r, 300));
    const del = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = request({ socketPath: join(h.home, 'amux.sock'), path: `/v1/sessions/${id}?force=1&graceMs=300`, method: 'DELETE' }, (res) => {
        let data = '';
        res.on('data', (c) => (data += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(data) }));
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(del.status, 200);
    assert.equal(del.body.removed, true);
    assert.equal(del.body.signal, 'SIGKILL');
  });

  test('an AMUX_HOME with #, % and spaces in its path works (no tmux format or strftime expansion)', async (t) => {
    const base = amuxHome(t);
    const odd = { AMUX_HOME: join(base.home, 'a %d #{x} b') };
    try {
      const r = await base.run(['run', '-w', '--', 'seq 1 3'], { env: odd });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, '1\n2\n3\n');
      const id = (await base.run(['ps', '-q'], { env: odd })).stdout.trim();
      assert.equal((await base.run(['logs', '-n', '1', id], { env: odd })).stdout, '3\n');
    } finally {
      await base.run(['daemon', 'stop'], { env: odd });
      try {
        execFileSync('tmux', ['-S', join(odd.AMUX_HOME, 'tmux.sock'), 'kill-server'], { stdio: 'ignore' });
      } catch {
        /* no server */
      }
    }
  });

  test('a bad setting is a clear error naming it', async (t) => {
    const h = amuxHome(t, { AMUX_IDLE_THRESHOLD: 'often' });
    const r = await h.run(['ps']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /AMUX_IDLE_THRESHOLD/);
  });

  test('an unwritable AMUX_HOME is a clear error', async (t) => {
    const h = amuxHome(t);
    const r = await h.run(['ps'], { env: { AMUX_HOME: '/proc/amux-cannot-exist' } });
    assert.notEqual(r.code, 0);
    assert.equal(r.stderr.trim().split('\n').length, 1);
    assert.match(r.stderr, /amux-cannot-exist/);
  });
});
