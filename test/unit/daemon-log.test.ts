import assert from 'node:assert/strict';
import { closeSync, constants, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { LOG_CAP, logLine } from '../../src/daemon/log.js';

describe('the daemon log', () => {
  test('a write that fails (ENOSPC: /dev/full) loses the line and throws nothing', () => {
    const fd = openSync('/dev/full', 'w');
    try {
      assert.doesNotThrow(() => logLine('on a full disk', fd));
    } finally {
      closeSync(fd);
    }
  });

  test('past LOG_CAP it is copied to .1 and emptied in place; the next line starts it again', () => {
    const dir = mkdtempSync('/tmp/amux-log-');
    try {
      const file = join(dir, 'daemon.log');
      writeFileSync(file, 'x'.repeat(LOG_CAP));
      const fd = openSync(file, constants.O_WRONLY | constants.O_APPEND);
      try {
        logLine('after the cap', fd);
      } finally {
        closeSync(fd);
      }
      assert.ok(existsSync(`${file}.1`));
      assert.equal(statSync(`${file}.1`).size, LOG_CAP);
      assert.match(readFileSync(file, 'utf8'), /^\S+ \[amuxd \d+\] after the cap\n$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
