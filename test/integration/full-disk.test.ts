import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { AmuxHome } from '../helpers/amux.js';

/** Fills the file system of `dir` to the last block it will give. */
function fill(dir: string): void {
  for (const size of [64 * 1024, 4096, 512]) {
    const block = Buffer.alloc(size, 120);
    for (let i = 0; ; i++) {
      try {
        writeFileSync(join(dir, `filler-${size}-${i}`), block);
      } catch {
        break;
      }
    }
  }
}

describe('a full disk', () => {
  test('is answered with one clear line; reads work; a kill is recorded as a kill once space is back', async (t) => {
    const mnt = mkdtempSync('/tmp/amux-full-');
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4m,mode=0700', 'tmpfs', mnt], { encoding: 'utf8' });
    if (mounted.status !== 0) {
      rmSync(mnt, { recursive: true, force: true });
      t.skip(`cannot mount a small tmpfs here (needs root): ${mounted.stderr.trim()}`);
      return;
    }
    const h = new AmuxHome({ AMUX_HOME: join(mnt, 'home') });
    const env = { AMUX_HOME: join(mnt, 'home'), AMUX_CLIENT_TIMEOUT: '10s' };
    try {
      assert.equal((await h.run(['run', '-w', '--', 'echo before'], { env })).stdout, 'before\n');
      const id = (await h.run(['run', '--', 'while :; do echo tick; sleep 0.2; done'], { env })).stdout.trim();
      fill(mnt);
      const r = await h.run(['run', '--', 'echo during'], { env });
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /disk full/);
      assert.equal(r.stderr.trim().split('\n').length, 1);
      // Reads need no writes.
      for (const args of [['ps', '-q'], ['daemon', 'status'], ['inspect', id], ['history'], ['logs', id, '-n', '1']]) {
        const read = await h.run(args, { env });
        assert.equal(read.code, 0, `${args.join(' ')}: ${read.stderr}`);
      }
      // The kill is done, and says that it is not recorded yet.
      const kill = await h.run(['kill', id], { env });
      assert.equal(kill.code, 1, kill.stderr);
      assert.match(kill.stderr, /^amux: .*ended \(killed with SIGTERM\), but disk full.*recorded once space is freed\n$/);
      execFileSync('sh', ['-c', `rm -f ${mnt}/filler-*`]);
      const killed = await h.until(id, (s) => s.status !== 'working' && s.status !== 'idle');
      assert.equal(killed.status, 'stopped', JSON.stringify(killed));
      assert.equal(killed.signal, 'SIGTERM');
      assert.equal(killed.exitCode, 143);
      assert.equal((await h.run(['run', '-w', '--', 'echo after'], { env })).stdout, 'after\n');
    } finally {
      await h.run(['daemon', 'stop'], { env }).catch(() => undefined);
      spawnSync('tmux', ['-S', join(mnt, 'home', 'tmux.sock'), 'kill-server'], { stdio: 'ignore' });
      await h.cleanup();
      spawnSync('umount', ['-l', mnt]);
      rmSync(mnt, { recursive: true, force: true });
    }
  });
});
