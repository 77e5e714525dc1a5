import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { WARDEN_SCRIPT } from '../../src/shell/warden.js';

describe("the daemon's warden script (ADR 0066)", () => {
  test('bash -n accepts it', () => {
    const r = spawnSync('bash', ['-n'], { input: WARDEN_SCRIPT });
    assert.equal(r.status, 0, r.stderr.toString());
  });

  test('waits while its stdin is open (the daemon runs); once it closes, with no pane of the home left, it ends', async (t) => {
    const home = mkdtempSync('/tmp/amux-warden-');
    t.after(() => rmSync(home, { recursive: true, force: true }));
    const child = spawn('bash', ['--norc', '--noprofile', '-c', WARDEN_SCRIPT, 'amux-warden', home, '1', `${home}/daemon.pid`], { stdio: ['pipe', 'ignore', 'ignore'] });
    t.after(() => child.kill('SIGKILL'));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    // Named (it writes /proc/self/comm just before it waits on stdin).
    const deadline = Date.now() + 20_000;
    let comm = '';
    while (comm !== 'amux-warden\n' && Date.now() < deadline) {
      await sleep(20);
      try {
        comm = readFileSync(`/proc/${child.pid}/comm`, 'latin1');
      } catch {
        break;
      }
    }
    assert.equal(comm, 'amux-warden\n');
    assert.equal(child.exitCode, null, 'it ended while the daemon (its stdin) was still there');
    child.stdin.end();
    assert.equal(await exited, 0);
  });
});
