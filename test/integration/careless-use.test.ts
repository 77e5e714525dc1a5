import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { amuxHome, BIN, sleep, type AmuxHome } from '../helpers/amux.js';
import { isAlive } from '../../src/process/process-table.js';

/** Polls until `check` holds (a bounded wait for a condition, not a timed assertion). */
async function until(what: string, check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`never: ${what}`);
}

function oneLine(r: { stderr: string }): void {
  assert.match(r.stderr, /^amux: [^\n]+\n$/);
}

describe('careless and hostile use (issue 21, low)', () => {
  test('a FIFO as config.json is refused at once by every command, daemon stop included', async (t) => {
    const h = amuxHome(t);
    execFileSync('mkfifo', [join(h.home, 'config.json')]);
    for (const args of [['ps'], ['daemon', 'stop'], ['context', 'ls']]) {
      const r = await h.run(args, { timeoutMs: 20_000 });
      if (args[1] === 'stop') assert.ok(r.code === 0 || r.code === 2, `${args.join(' ')}: ${r.code} ${r.stderr}`);
      else {
        assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, /config\.json is not a regular file/);
        oneLine(r);
      }
    }
  });

  test('a NUL byte in send text is invalid_argument (400), not a 500', async (t) => {
    const h = amuxHome(t);
    const id = await h.ok(['run']);
    const r = await h.api('POST', `/v1/sessions/${id}/input`, { text: 'echo a\u0000b' });
    assert.equal(r.status, 400, JSON.stringify(r.body));
    assert.equal(r.body.error.code, 'invalid_argument');
    const cli = await h.run(['send', id, 'echo a\u0001b']);
    assert.equal(cli.code, 0, 'other control characters are text');
  });

  test('AMUX_CLIENT_TIMEOUT of 25d and of 0 (no deadline) wait for the answer', async (t) => {
    const h = amuxHome(t);
    await h.ok(['ps']);
    for (const v of ['25d', '0']) {
      const r = await h.run(['ps', '-q'], { env: { AMUX_CLIENT_TIMEOUT: v } });
      assert.equal(r.code, 0, `AMUX_CLIENT_TIMEOUT=${v}: ${r.stderr}`);
    }
    const bad = await h.run(['ps'], { env: { AMUX_CLIENT_TIMEOUT: 'soon' } });
    assert.equal(bad.code, 2, bad.stderr);
    oneLine(bad);
  });

  test('daemon status and stop of a stopped (SIGSTOP) daemon say it is not answering, exit 3', async (t) => {
    const h = amuxHome(t);
    await h.ok(['ps']);
    const pid = h.daemonPid()!;
    process.kill(pid, 'SIGSTOP');
    try {
      for (const args of [['daemon', 'status'], ['daemon', 'stop']]) {
        const r = await h.run(args, { env: { AMUX_CLIENT_TIMEOUT: '1s' } });
        assert.equal(r.code, 3, `${args.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, new RegExp(`\\(pid ${pid}\\) is not answering`));
        oneLine(r);
      }
    } finally {
      process.kill(pid, 'SIGCONT');
    }
  });

  test('amux.db deleted under the daemon: it stops; the next one never revives a finished session', async (t) => {
    const h: AmuxHome = amuxHome(t);
    assert.equal((await h.run(['run', '-w', '--', 'echo hi'])).code, 0);
    const done = (await h.ok(['ps', '-q'])).trim();
    const shell = await h.ok(['run']);
    const pid = h.daemonPid()!;
    for (const f of ['amux.db', 'amux.db-wal', 'amux.db-shm']) rmSync(join(h.home, f), { force: true });
    await until('the daemon stops', () => !isAlive(pid));
    const sessions = JSON.parse(await h.ok(['ps', '--json'])) as any[];
    const ended = sessions.find((s) => s.id === done);
    assert.ok(ended, `the finished session is adopted: ${JSON.stringify(sessions)}`);
    assert.equal(ended.status, 'completed', JSON.stringify(ended));
    assert.equal(ended.exitCode, 0);
    const live = sessions.find((s) => s.id === shell);
    assert.ok(live && ['idle', 'working'].includes(live.status), JSON.stringify(live));
    assert.equal((await h.run(['daemon', 'status'])).code, 0);
  });

  test('another user pointing AMUX_HOME at a home not theirs is refused with exit 2', async (t) => {
    if (process.getuid?.() !== 0) return t.skip('needs root, to run amux as user nobody');
    const home = mkdtempSync('/tmp/amux-foreign-');
    t.after(() => rmSync(home, { recursive: true, force: true }));
    chmodSync(home, 0o700);
    writeFileSync(join(home, 'amux.sock'), '');
    const r = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, BIN, 'ps'], {
      env: { ...process.env, AMUX_HOME: home, HOME: '/tmp' }, encoding: 'utf8', timeout: 30_000,
    });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /^amux: AMUX_HOME is not safe to use: .*belongs to uid 0, not to you \(uid 65534\)/);
  });
});
