import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { amuxHome } from '../helpers/amux.js';

/** `amux up --example DIR` (README "Stacks", ADR 0065): the demo stack ships with the CLI and comes up as written. */
describe('up --example', () => {
  const h = amuxHome({ after });
  const scratch = mkdtempSync('/tmp/amux-up-example-');
  after(() => rmSync(scratch, { recursive: true, force: true }));

  test('writes the demo into a new directory; amux up -f DIR/amux.yaml -d brings it up, migrate completed; down removes it', async () => {
    const dir = join(scratch, 'demo');
    const wrote = await h.run(['up', '--example', dir]);
    assert.equal(wrote.code, 0, wrote.stderr);
    assert.deepEqual(readdirSync(dir).sort(), ['amux.yaml', 'api.js', 'migrate.js', 'worker.js']);
    assert.match(wrote.stderr, /cd .*demo && amux up/);
    const up = await h.run(['up', '-f', join(dir, 'amux.yaml'), '-d'], { cwd: scratch, timeoutMs: 120_000 });
    assert.equal(up.code, 0, `${up.stdout}${up.stderr}`);
    const sessions: any[] = JSON.parse(await h.ok(['ps', '--stack', 'demo', '--json']));
    const s = Object.fromEntries(sessions.map((x) => [x.labels.service, x]));
    assert.deepEqual(Object.keys(s).sort(), ['api', 'migrate', 'worker']);
    assert.equal(s.migrate.status, 'completed', 'the migration reached the API and exited 0');
    assert.ok(['working', 'idle'].includes(s.api.status), s.api.status);
    assert.ok(['working', 'idle'].includes(s.worker.status), s.worker.status);
    const logs = await h.ok(['logs', '--stack', 'demo']);
    assert.match(logs, /^api +\| api: listening on http:\/\/127\.0\.0\.1:\d+$/m);
    assert.match(logs, /^migrate +\| migrate: api answered 200; migrated$/m);
    const down = await h.run(['down', '-p', 'demo']);
    assert.equal(down.code, 0, down.stderr);
    assert.deepEqual(JSON.parse(await h.ok(['ps', '--stack', 'demo', '--json'])), []);
  });

  test('a directory that is not empty is refused with one line, exit 2, nothing written', async () => {
    const dir = mkdtempSync(join(scratch, 'full-'));
    writeFileSync(join(dir, 'notes.txt'), 'mine\n');
    const r = await h.run(['up', '--example', dir]);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^amux: up --example: .* is not empty; give a new or empty directory\n$/);
    assert.deepEqual(readdirSync(dir), ['notes.txt']);
  });

  test('with another option or a session it is refused (exit 2): it starts nothing', async () => {
    const r = await h.run(['up', '-d', '--example', join(scratch, 'other')]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^amux: up --example DIR writes a demo stack and starts nothing/);
  });
});
