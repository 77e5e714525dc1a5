import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { WATCHDOG_SCRIPT } from '../../src/shell/watchdog.js';

describe('the session watchdog script (ADR 0027)', () => {
  test('bash -n accepts it', () => {
    const r = spawnSync('bash', ['-n'], { input: WATCHDOG_SCRIPT });
    assert.equal(r.status, 0, r.stderr.toString());
  });

  test('outside a pane (its shell is no child of a `timeout` leading its Unix session) it ends at once, touching nothing', () => {
    // The shell here is this test process, whose parent leads no Unix session of a pane: were the
    // watchdog to wait, a terminal's whole Unix session would be its prey once that terminal closed.
    const r = spawnSync('bash', ['--norc', '--noprofile', '-c', WATCHDOG_SCRIPT, 'amux-watchdog', 'deadbeef', '/nowhere/tmux.sock', '1', String(process.pid)], { timeout: 10_000 });
    assert.equal(r.signal, null, 'it waited');
    assert.equal(r.status, 0);
  });

  test('under a terminal whose leader is no `timeout` (a shell in a terminal), it ends at once', (t) => {
    // util-linux `script` gives `sh -c …` a terminal and its own Unix session: the watchdog's shell
    // is a child of that leader, so only the check that the leader is the pane's `timeout` stops it
    // from waiting for the terminal to close (and then ending its whole Unix session).
    const dir = mkdtempSync('/tmp/amux-wd-');
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'wd.bash');
    writeFileSync(file, WATCHDOG_SCRIPT);
    const inner = `bash --norc ${file} deadbeef /nowhere/tmux.sock 1 \\$\\$; echo rc=\\$?`;
    const r = spawnSync('script', ['-qec', `bash --norc -c "${inner}"`, '/dev/null'], { env: { ...process.env, SHELL: '/bin/sh' }, timeout: 10_000 });
    assert.equal(r.error, undefined, 'util-linux script is needed for this test');
    assert.equal(r.signal, null, 'it waited for the terminal');
    assert.match(r.stdout.toString(), /rc=0/);
  });
});
