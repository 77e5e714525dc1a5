import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { amuxHome } from '../helpers/amux.js';

const FIXTURE = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'terminal', 'query.py');

describe('a query to the terminal (ADR 0068)', () => {
  const h = amuxHome({ after });
  const tmp = mkdtempSync('/tmp/amux-query-');
  after(() => rmSync(tmp, { recursive: true, force: true }));

  test('a program that asked the terminal something and waits on it is working (terminal reply) until it prints its prompt', async () => {
    const go = join(tmp, 'go');
    const id = await h.ok(['run', '--', 'python3', FIXTURE, go]);
    // Its first looks find it on the terminal alone, its output ending with the two queries.
    const asking = await h.until(id, (x) => x.reason === 'terminal reply' || x.status !== 'working');
    assert.deepEqual([asking.status, asking.reason], ['working', 'terminal reply']);
    writeFileSync(go, '');
    const prompt = await h.until(id, (x) => x.status === 'idle');
    assert.equal(prompt.reason, 'reading the terminal');
    await h.ok(['kill', id]);
  });
});
