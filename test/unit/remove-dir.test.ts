import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeDir } from '../../src/daemon/session/remove.js';

test('removeDir: a session folder goes whole; a link in it goes, never what it points to', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'amux-rmdir-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const outside = join(root, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'keep'), 'x');
  const dir = join(root, 'abcd1234');
  mkdirSync(join(dir, 'log'), { recursive: true });
  mkdirSync(join(dir, 'jobs'));
  writeFileSync(join(dir, 'rc.bash'), 'x'.repeat(11_000));
  writeFileSync(join(dir, 'log', 'log.000000'), 'out');
  writeFileSync(join(dir, 'jobs', '1.bash'), 'true');
  symlinkSync(outside, join(dir, 'jobs', 'planted'));
  removeDir(dir);
  assert.equal(existsSync(dir), false);
  assert.deepEqual(readdirSync(outside), ['keep'], 'what the link pointed to is untouched');
  removeDir(dir); // gone already: nothing to do, no error
  // A link where the session's folder should be: the link goes, its target stays whole.
  const linked = join(root, 'ef012345');
  symlinkSync(outside, linked);
  removeDir(linked);
  assert.equal(existsSync(linked), false);
  assert.deepEqual(readdirSync(outside), ['keep'], 'a link in the folder\'s place is not followed');
  removeDir(join(root, 'outside', 'keep')); // a file, not a folder: rmSync's answer (removed)
  assert.equal(existsSync(join(outside, 'keep')), false);
});
