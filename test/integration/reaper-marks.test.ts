import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { AmuxHome, amuxHome, BIN, sleep } from '../helpers/amux.js';

/** Whether the process is gone (or a zombie waiting for its parent to collect it). */
function gone(pid: number): boolean {
  try {
    return /\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

async function until(what: string, ok: () => boolean, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await sleep(100);
  }
}

const pidIn = (file: string) => (existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) || 0 : 0);

describe('what a session leaves ends with it, and only that (ADR 0027)', () => {
  const h = amuxHome({ after });
  const other = new AmuxHome();
  after(() => other.cleanup());
  const scratch = mkdtempSync('/tmp/amux-reap-');
  after(() => rmSync(scratch, { recursive: true, force: true }));

  test('a TMUX set to another value is no way out; another home\'s daemon started by hand inside the session is spared', async () => {
    const f = (name: string) => join(scratch, name);
    // The marker ignores TERM: it is gone only once the reap's SIGKILL came, after its grace, so by
    // then every process of the session has had its signals.
    const script = [
      `bash -c "trap '' TERM; exec sleep 600" </dev/null >/dev/null 2>&1 & echo $! > ${f('marker')}`,
      // Not a process group leader (no job control here), setsid makes the new Unix session itself: $! is sleep.
      `TMUX=/nowhere/tmux.sock,1,0 setsid sleep 600 </dev/null >/dev/null 2>&1 & echo $! > ${f('evader')}`,
      `AMUX_HOME=${other.home} ${process.execPath} ${BIN} daemon run </dev/null >/dev/null 2>&1 &`,
      `for i in $(seq 600); do [ -s ${other.home}/daemon.pid ] && break; sleep 0.1; done`,
    ].join('\n');
    writeFileSync(f('leave.sh'), `${script}\n`);
    const id = await h.ok(['run', '--', `bash ${f('leave.sh')}`]);
    const w = await h.run(['wait', id, '--timeout', '90s'], { timeoutMs: 120_000 });
    assert.equal(w.code, 0, w.stderr);
    const marker = pidIn(f('marker'));
    const evader = pidIn(f('evader'));
    const daemon = pidIn(join(other.home, 'daemon.pid'));
    assert.ok(marker && evader && daemon, `${marker} ${evader} ${daemon}`);
    await until('the reap ended the marker (TERM ignored: SIGKILL after the grace)', () => gone(marker));
    await until('the process with a made-up TMUX ended too', () => gone(evader), 30_000);
    assert.ok(!gone(daemon), 'the other home\'s daemon runs on');
    const status = await other.run(['daemon', 'status']);
    assert.equal(status.code, 0, status.stderr);
  });
});
