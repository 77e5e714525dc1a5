import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { amuxHome } from '../helpers/amux.js';

// Issue 24: how a shell session that ended by itself is recorded (README "Statuses").
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

  test('kill -9 $$ → failed with 137, SIGKILL', async () => {
    const { waited, rec } = await endWith('kill -9 $$');
    assert.deepEqual([rec.status, rec.exitCode, rec.signal], ['failed', 137, 'SIGKILL']);
    assert.equal(waited.code, 137);
  });
});
