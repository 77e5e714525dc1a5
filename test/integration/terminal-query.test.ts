import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { REPLY_WAIT_MS } from '../../src/daemon/monitor/evidence.js';
import { amuxHome } from '../helpers/amux.js';

const FIXTURE = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'terminal', 'query.py');

describe('a query to the terminal (ADR 0068)', () => {
  const h = amuxHome({ after });

  test('a program that asked the terminal something and waits on it is working (terminal reply) until it prints its prompt', async () => {
    const id = await h.ok(['run', '--', 'python3', FIXTURE]);
    // Its first looks find it on the terminal alone, its output ending with the two queries.
    const asking = await h.until(id, (x) => x.reason === 'terminal reply' || x.status !== 'working');
    if (asking.reason !== 'terminal reply') {
      // A machine so busy that this test first looked after the REPLY_WAIT_MS the answer is waited
      // for: the idle must be that bound's, never the prompt rule's at the first look (the old build's
      // 0.2 s). Load only delays it.
      const events = (JSON.parse(await h.ok(['inspect', id])) as { events: any[] }).events;
      const at = (to: string) => Date.parse(events.find((e) => e.type === 'state_changed' && e.data.to === to).createdAt);
      assert.ok(at('idle') - at('working') >= REPLY_WAIT_MS, `idle ${at('idle') - at('working')} ms after its start, before the answer's wait ended: ${JSON.stringify(asking)}`);
    }
    await h.ok(['send', id, 'go']);
    const prompt = await h.until(id, (x) => x.status === 'idle');
    assert.equal(prompt.reason, 'reading the terminal');
    await h.ok(['kill', id]);
  });
});
