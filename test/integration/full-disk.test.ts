import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { AmuxHome } from '../helpers/amux.js';

describe('a full disk', () => {
  test('is answered with one clear line; reading still works; the daemon stays up and recovers', async (t) => {
    const mnt = mkdtempSync('/tmp/amux-full-');
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=3m,mode=0700', 'tmpfs', mnt], { encoding: 'utf8' });
    if (mounted.status !== 0) {
      rmSync(mnt, { recursive: true, force: true });
      t.skip(`cannot mount a small tmpfs here (needs root): ${mounted.stderr.trim()}`);
      return;
    }
    const h = new AmuxHome({ AMUX_HOME: join(mnt, 'home') });
    const env = { AMUX_HOME: join(mnt, 'home') };
    try {
      assert.equal((await h.run(['run', '-w', '--', 'echo before'], { env })).stdout, 'before\n');
      // fill the file system
      const block = Buffer.alloc(64 * 1024, 120);
      for (let i = 0; ; i++) {
        try {
          writeFileSync(join(mnt, `filler-${i}`), block);
        } catch {
          break;
        }
      }
      const r = await h.run(['run', '--', 'echo during'], { env });
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /disk full/);
      assert.equal(r.stderr.trim().split('\n').length, 1);
      assert.equal((await h.run(['ps', '-q'], { env })).code, 0);
      assert.equal((await h.run(['daemon', 'status'], { env })).code, 0);
      execFileSync('sh', ['-c', `rm -f ${mnt}/filler-*`]);
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
