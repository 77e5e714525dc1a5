import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { after, describe, test } from 'node:test';
import { amuxHome, sleep } from '../helpers/amux.js';
import { installed } from '../helpers/programs.js';

/**
 * A look stands for the next while no thread of the session's processes has run (ADR 0041). These
 * programs keep their pid and threads and move from a timer to the terminal using far less than a
 * CPU tick (10 ms): a skip that compared CPU ticks, or anything coarser than the kernel's run
 * marks, would keep them `working (sleeping)` for good. Each must be seen sleeping, then idle.
 */
const CASES = [
  { name: 'python3: sleep, then input()', needs: ['python3'], command: `python3 -c 'import time; time.sleep(4); input("? ")'` },
  {
    name: 'node: a timer, then a question (threads that never run)',
    needs: ['node'],
    command: `node -e 'setTimeout(() => require("readline").createInterface({ input: process.stdin, output: process.stdout }).question("? ", () => {}), 4000)'`,
  },
];

describe('a reused look does not hide a change of wait', () => {
  const h = amuxHome({ after });
  const seen = new Map<string, { status: string; reason: string }[]>();

  test('each program is watched from its start until it reads the terminal', async () => {
    await h.ok(['run', '--', 'true']); // the daemon
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmpdir(), TERM: 'xterm-256color' };
    const ids = new Map<string, string>();
    for (const c of CASES.filter((x) => x.needs.every(installed))) {
      const r = await h.api('POST', '/v1/sessions', { command: c.command, cwd: tmpdir(), env });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      ids.set(c.name, r.body.id);
    }
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const byId = new Map(((await h.api('GET', '/v1/sessions')).body as any[]).map((s) => [s.id, s]));
      for (const [name, id] of ids) {
        const s = byId.get(id);
        if (s) seen.set(name, [...(seen.get(name) ?? []), { status: s.status, reason: s.reason }]);
      }
      const done = [...ids.values()].every((id) => byId.get(id)?.status === 'idle');
      if (done) break;
      await sleep(200);
    }
  });

  for (const c of CASES) {
    test(c.name, (t) => {
      if (!c.needs.every(installed)) return t.skip(`${c.needs.join(', ')} not installed`);
      const looks = seen.get(c.name) ?? [];
      const show = looks.map((l) => `${l.status}(${l.reason})`).join(' ');
      const sleeping = looks.filter((l) => l.status === 'working' && l.reason === 'sleeping').length;
      assert.ok(sleeping >= 3, `seen sleeping over several looks first: ${show}`);
      const last = looks.at(-1);
      assert.deepEqual(last, { status: 'idle', reason: 'reading the terminal' }, show);
    });
  }
});
