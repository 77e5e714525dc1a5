import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { amuxHome, BIN, sleep } from '../helpers/amux.js';

describe('the daemon log never holds the daemon', () => {
  test('a daemon whose log cannot be written (ENOSPC) goes on answering', async (t) => {
    const h = amuxHome(t);
    const full = openSync('/dev/full', 'w');
    const daemon = spawn(process.execPath, [BIN, 'daemon', 'run'], { env: { ...process.env, AMUX_HOME: h.home }, stdio: ['ignore', 'ignore', full] });
    closeSync(full);
    t.after(() => void daemon.kill('SIGKILL'));
    const deadline = Date.now() + 20_000;
    while (!existsSync(join(h.home, 'daemon.pid')) && Date.now() < deadline) await sleep(100);
    // Its "listening" line already failed with ENOSPC: before, the handler of that error logged it
    // again, and again, and the daemon never answered.
    const ps = await h.run(['ps', '-q'], { env: { AMUX_CLIENT_TIMEOUT: '5s' } });
    assert.equal(ps.code, 0, ps.stderr);
    assert.equal((await h.run(['run', '-w', '--', 'echo ok'], { env: { AMUX_CLIENT_TIMEOUT: '5s' } })).stdout, 'ok\n');
  });

  test('a client that leaves in the middle of a request is not an internal error in daemon.log', async (t) => {
    const h = amuxHome(t);
    await h.ok(['ps']);
    for (let i = 0; i < 3; i++) {
      await new Promise<void>((resolve) => {
        const s = connect(join(h.home, 'amux.sock'), () => {
          s.write('POST /v1/sessions HTTP/1.1\r\nhost: amux\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"comm');
          setTimeout(() => {
            s.destroy();
            resolve();
          }, 100);
        });
      });
    }
    await h.ok(['ps']);
    await sleep(200);
    const log = readFileSync(join(h.home, 'daemon.log'), 'utf8');
    assert.doesNotMatch(log, /internal error/);
  });
});
