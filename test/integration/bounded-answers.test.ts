import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { amuxHome } from '../helpers/amux.js';

describe('answers stay bounded whatever a request holds', () => {
  const h = amuxHome({ after });

  test('a 400 about a 7 MiB value does not echo it: at most 2000 characters, its start and its fix', async () => {
    await h.ok(['daemon', 'start']);
    const name = 'x'.repeat(7 * 1024 * 1024);
    const r = await h.api('POST', '/v1/sessions', { command: 'true', name });
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, 'invalid_argument');
    const message: string = r.body.error.message;
    assert.ok(message.length <= 2100, `${message.length} characters`);
    assert.match(message, /^invalid name "x+… \(\d+ characters left out\) …x+": use 1-64 characters/);
    assert.deepEqual(JSON.parse(await h.ok(['ps', '--json'])), [], 'nothing was made');
  });
});
