import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { amuxHome, BIN, sleep, type AmuxHome } from '../helpers/amux.js';

// Issue 24: how a shell session that ended by itself is recorded (src/guides/statuses.md).
describe('a shell session ended by its own shell', () => {
  const h = amuxHome({ after });

  const endWith = async (line: string) => {
    const id = await h.ok(['run']);
    await h.run(['wait', id, '--until', 'idle', '--timeout', '30s']);
    await h.ok(['send', id, line]);
    const waited = await h.run(['wait', '--json', id]);
    const rec = await h.session(id);
    return { waited, rec, w: JSON.parse(waited.stdout)[0] };
  };

  test('exit 0 → completed, exit code 0, and wait agrees', async () => {
    const { waited, rec, w } = await endWith('exit');
    assert.deepEqual([rec.status, rec.exitCode, rec.signal, rec.error], ['completed', 0, null, null]);
    assert.equal(waited.code, 0);
    assert.deepEqual([w.status, w.exitCode], ['completed', 0]);
  });

  test('exit 3 → failed with 3', async () => {
    const { waited, rec } = await endWith('exit 3');
    assert.deepEqual([rec.status, rec.exitCode, rec.signal], ['failed', 3, null]);
    assert.equal(waited.code, 3);
  });

  test('kill -9 $$ → failed with 137, SIGKILL (or, when tmux kept no status, failed without a code, saying so)', async () => {
    const { waited, rec } = await endWith('kill -9 $$');
    // tmux 3.3a now and then keeps neither the status nor the signal of a dead pane, for good (src/guides/statuses.md).
    const tmuxSaw = spawnSync('tmux', ['-S', join(h.home, 'tmux.sock'), 'list-panes', '-t', `=amux-${rec.id}`, '-F', '#{pane_dead_status}/#{pane_dead_signal}'], { encoding: 'utf8' }).stdout.trim();
    if (tmuxSaw === '/') {
      assert.deepEqual([rec.status, rec.exitCode, rec.signal, rec.error], ['failed', null, null, 'shell process exited; tmux kept no exit status']);
      assert.equal(waited.code, 1);
      return;
    }
    assert.deepEqual([rec.status, rec.exitCode, rec.signal], ['failed', 137, 'SIGKILL']);
    assert.equal(waited.code, 137);
  });
});

/**
 * Processes of sessions `ids` still running: marked AMUX_SESSION_ID=<id>, or naming the home and the
 * session (a session's shell, the watchdog). Not tmux's own: its server, and the `split` of a pane's
 * pipe-pane, which ends with the tmux session; not `keep`.
 */
function leftovers(h: AmuxHome, ids: readonly string[], keep: readonly number[] = []): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid || keep.includes(Number(pid))) continue;
    try {
      if (readFileSync(`/proc/${pid}/stat`, 'latin1').replace(/^.*\) /s, '').startsWith('Z')) continue;
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0');
      if (/(^|\/)(tmux|node)$/.test(cmd[0] ?? '') || cmd.at(-2)?.endsWith('/log/log.')) continue; // tmux's, the CLI and the daemon
      const env = readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
      // Naming the home and one of the sessions (its shell's rcfile, its watchdog's id argument).
      const names = cmd.some((a) => a.startsWith(`${h.home}/`)) && ids.some((id) => cmd.some((a) => a === id || a.includes(`/sessions/${id}/`)));
      if (ids.some((id) => env.includes(`AMUX_SESSION_ID=${id}`)) || names) found.push(`${pid} ${cmd.join(' ').slice(0, 80)}`);
    } catch {
      /* gone */
    }
  }
  return found;
}

async function gone(h: AmuxHome, ids: readonly string[], keep: readonly number[] = [], timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let left = leftovers(h, ids, keep);
  while (left.length && Date.now() < deadline) {
    await sleep(100);
    left = leftovers(h, ids, keep);
  }
  assert.deepEqual(left, [], 'processes of the session still run');
}

/** A pid whose command line is exactly `args` and that is marked as session `id`'s. */
async function processOf(id: string, args: string): Promise<number> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    for (const pid of readdirSync('/proc')) {
      try {
        if (readFileSync(`/proc/${pid}/cmdline`, 'latin1') !== `${args.split(' ').join('\0')}\0`) continue;
        if (readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`AMUX_SESSION_ID=${id}`)) return Number(pid);
      } catch {
        /* not a process, or gone */
      }
    }
    await sleep(50);
  }
  throw new Error(`no process '${args}' in session ${id}`);
}

/** A shell session running a background job and a foreground job (each with its capture plumbing), and what it left behind. */
async function busySession(h: AmuxHome): Promise<{ id: string; fg: ChildProcess }> {
  const id = await h.ok(['run']);
  await h.run(['wait', id, '--until', 'idle', '--timeout', '30s']);
  await h.ok(['exec', '-b', id, '--', 'sleep 3141']);
  await h.ok(['exec', '-b', id, '--', '(sleep 3142 &); setsid sleep 3143 & wait']);
  // A foreground exec job whose client is this child (killed with SIGKILL, it leaves its job running).
  const fg = spawn(process.execPath, [BIN, 'exec', id, '--', 'sleep 3144'], { env: { ...process.env, AMUX_HOME: h.home }, stdio: 'ignore' });
  for (const args of ['sleep 3141', 'sleep 3142', 'sleep 3143', 'sleep 3144']) await processOf(id, args);
  return { id, fg };
}

/** The warden of the home's daemon (ADR 0066): `bash -c … amux-warden HOME …`, named amux-warden. */
function wardenOf(h: AmuxHome): number[] {
  return readdirSync('/proc').filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'latin1') === 'amux-warden\n' && readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes(`\0amux-warden\0${h.home}\0`);
    } catch {
      return false;
    }
  }).map(Number);
}

/** Field `n` (1-based, as in proc(5)) of /proc/PID/stat. */
function statField(pid: number, n: number): string {
  return readFileSync(`/proc/${pid}/stat`, 'latin1').replace(/^.*\) /s, '').split(' ')[n - 3]!;
}

// Issue 24: nothing of a session runs after its end, whatever ended it (src/guides/internals.md: ends; ADR 0027).
describe('nothing of a session outlives it', () => {
  test('tmux kill-server with the daemon running', async (t) => {
    const h = amuxHome(t);
    const { id, fg } = await busySession(h);
    h.tmux(['kill-server']);
    await gone(h, [id]);
    await h.until(id, (s) => s.status === 'failed');
    fg.kill('SIGKILL');
  });

  test('tmux kill-server with no daemon: the session ends its own processes', async (t) => {
    const h = amuxHome(t);
    const { id, fg } = await busySession(h);
    fg.kill('SIGKILL');
    // The daemon's warden (ADR 0066), named so in `ps`, takes over when the daemon stops.
    assert.equal(wardenOf(h).length, 1, 'one process named amux-warden for the home');
    await h.ok(['daemon', 'stop']);
    h.tmux(['kill-server']);
    await gone(h, [id]);
    assert.equal(h.daemonPid(), null, 'no daemon ran meanwhile');
    assert.equal((await h.session(id)).status, 'failed');
  });

  test('what no warden ended is ended by the next daemon', async (t) => {
    const h = amuxHome(t);
    const { id, fg } = await busySession(h);
    fg.kill('SIGKILL');
    for (const pid of wardenOf(h)) process.kill(pid, 'SIGKILL');
    await h.ok(['daemon', 'stop']);
    h.tmux(['kill-server']);
    await sleep(1500);
    assert.notDeepEqual(leftovers(h, [id]), [], 'the background jobs outlived the tmux server');
    await h.ok(['ps']); // starts a daemon
    await gone(h, [id]);
    assert.equal((await h.session(id)).status, 'failed');
  });

  test('a shell that exits ends its background jobs and what they left behind', async (t) => {
    const h = amuxHome(t);
    const { id, fg } = await busySession(h);
    fg.kill('SIGKILL');
    await h.ok(['kill', `job-${id}-3`]); // the foreground job: the shell is at its prompt again
    await h.ok(['send', id, 'exit 0']); // a bare `exit` would exit with $?, the killed job's 143
    await gone(h, [id]);
    const s = await h.until(id, (x) => x.status !== 'idle' && x.status !== 'working');
    assert.deepEqual([s.status, s.exitCode], ['completed', 0]);
  });

  // Issue 33 (ADR 0066): a run starts no per-session watchdog; every process of a running session is in its pane's Unix session.
  test("a running session's processes are all in its pane's Unix session (no watchdog of its own)", async (t) => {
    const h = amuxHome(t);
    const id = await h.ok(['run', '--', 'sleep 3147']);
    const sleeper = await processOf(id, 'sleep 3147');
    const unix = statField(sleeper, 6);
    const marked = readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
      try {
        return readFileSync(`/proc/${p}/environ`, 'latin1').split('\0').includes(`AMUX_SESSION_ID=${id}`);
      } catch {
        return false;
      }
    });
    const outside = marked.filter((p) => { try { return statField(Number(p), 6) !== unix; } catch { return false; } });
    assert.deepEqual(outside.map((p) => readFileSync(`/proc/${p}/cmdline`, 'latin1').replace(/\0/g, ' ').slice(0, 60)), []);
    await h.ok(['kill', id]);
  });

  test('a finished command session keeps only its shell at its prompt', async (t) => {
    const h = amuxHome(t);
    const id = await h.ok(['run', '--', 'sleep 3145 & (sleep 3146 &); echo started']);
    assert.equal((await h.run(['wait', id])).code, 0);
    const s = await h.session(id);
    const pane = Number(readFileSync(`/proc/${s.pid}/stat`, 'latin1').replace(/^.*\) /s, '').split(' ')[1]);
    await gone(h, [id], [s.pid, pane]);
    assert.ok(h.tmuxSessions().includes(`amux-${id}`));
    assert.match(readFileSync(`/proc/${s.pid}/stat`, 'latin1'), /\(bash\) S/, 'the shell waits at its prompt');
  });

  test('a paused session ends with its tmux server while no daemon runs (issue 21)', async (t) => {
    const h = amuxHome(t);
    const { id, fg } = await busySession(h);
    fg.kill('SIGKILL');
    await h.ok(['pause', id]);
    await h.ok(['daemon', 'stop']);
    h.tmux(['kill-server']);
    await gone(h, [id]);
    assert.equal(h.daemonPid(), null);
  });

  test('a paused session ends with its tmux session while the daemon runs (and the tmux server runs on)', async (t) => {
    const h = amuxHome(t);
    // Another session keeps the server up: the killed pane's process stays the server's child.
    await h.ok(['run', '--', 'sleep', '3145']);
    const { id, fg } = await busySession(h);
    fg.kill('SIGKILL');
    await h.ok(['pause', id]);
    h.tmux(['kill-session', '-t', `=amux-${id}`]);
    await gone(h, [id]);
    assert.equal((await h.until(id, (s) => s.status !== 'paused')).status, 'failed');
  });
});

// Issue 21 item 10: a stop signal would leave the shell stopped for good, under a record saying it was killed.
describe('kill takes no stop or continue signal', () => {
  const h = amuxHome({ after });

  test('kill -s STOP (CLI) and {signal: TSTP} (API) are usage errors pointing to pause; the session is untouched', async () => {
    const id = await h.ok(['run']);
    await h.run(['wait', id, '--until', 'idle', '--timeout', '30s']);
    const cli = await h.run(['kill', '-s', 'STOP', id]);
    assert.equal(cli.code, 2);
    assert.match(cli.stderr, /^amux: kill does not take SIGSTOP.*amux pause/);
    const api = await h.api('POST', `/v1/sessions/${id}/kill`, { signal: 'TSTP' });
    assert.deepEqual([api.status, api.body.error.code], [400, 'usage']);
    const job = (await h.ok(['exec', '-b', id, '--', 'sleep 30'])).split(' ')[0];
    const jobKill = await h.api('POST', `/v1/jobs/${job}/kill`, { signal: 'CONT' });
    assert.deepEqual([jobKill.status, jobKill.body.error.code], [400, 'usage']);
    assert.equal((await h.json<any[]>(['jobs', id])).find((j) => j.id === job).status, 'running');
    assert.notEqual((await h.session(id)).status, 'stopped');
  });
});
