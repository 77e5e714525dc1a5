import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { amuxHome } from '../helpers/amux.js';
import { terminal } from '../helpers/terminal.js';

/** `top` groups rows by stack (src/guides/sessions.md "Dashboard", src/guides/stacks.md), read off a real terminal as a person sees it. */
describe('top: rows grouped by stack', () => {
  test("a stack's sessions under its heading, in dependency order, though a lone session is newer than one of them", async (t) => {
    const h = amuxHome(t);
    const dir = mkdtempSync('/tmp/amux-top-stacks-');
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const stack = join(dir, 'shop');
    mkdirSync(stack);
    writeFileSync(join(stack, 'amux.yaml'), [
      'sessions:',
      '  db: { command: "echo db up; sleep 600", ready: { until: "output:db up" } }',
      '  web: { command: "sleep 600", depends_on: { db: ready } }',
      '  mail: { command: "sleep 600", depends_on: [web] }',
      '',
    ].join('\n'));
    const up = await h.run(['up', '-d'], { cwd: stack });
    assert.equal(up.code, 0, up.stderr);
    await h.ok(['run', '-n', 'lone', '--', 'sleep 600']);
    // Restarted, shop-db is now the newest session of all: ungrouped, lone would sit between it and the rest of shop.
    const db = await h.ok(['restart', 'shop-db']);
    await h.until(db, (x) => x.status === 'working');

    const term = terminal(h, t, { width: 100, height: 24 });
    const s = await term.top('NO_COLOR=1');
    const lines = s.split('\n');
    const at = (re: RegExp) => lines.findIndex((l) => re.test(l));
    const heading = at(/^ {2}stack shop · 3 sessions \(3 live\): 3 working\s*$/);
    assert.ok(heading > 0, `a heading line names the stack and counts its sessions:\n${s}`);
    const order = [/ shop-db /, / shop-web /, / shop-mail /, / lone /].map(at);
    assert.deepEqual(order, [heading + 1, heading + 2, heading + 3, heading + 4], `db, web, mail under the heading, then lone:\n${s}`);
    assert.match(lines[heading + 1]!, /^▶ /, 'the first row (shop-db, the newest) is selected; the heading is not a row');

    term.keys('j');
    await term.until('j moves to the next session, over no heading', (x) => /^▶ \S+ +shop-web /m.test(x));
    term.keys('G');
    await term.until('G: the last row, lone', (x) => /^▶ \S+ +lone /m.test(x));
    term.keys('q');
    assert.equal(await term.back(), 0);
    await h.ok(['down', '-p', 'shop']);
  });
});
