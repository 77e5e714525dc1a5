import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { amuxHome } from '../helpers/amux.js';

const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'stacks');

describe('stacks: group: NAME, as run -g (src/guides/stacks.md, ADR 0035)', () => {
  const h = amuxHome({ after });
  const scratch = mkdtempSync('/tmp/amux-stack-groups-');
  after(() => rmSync(scratch, { recursive: true, force: true }));
  const dir = join(scratch, 'grouped');
  cpSync(join(FIXTURES, 'grouped'), dir, { recursive: true });
  const stackSessions = async (): Promise<Record<string, any>> =>
    Object.fromEntries((JSON.parse(await h.ok(['ps', '--stack', 'grouped', '--json'])) as any[]).map((s) => [s.labels.service, s]));

  test('a group that does not exist: refused as run -g refuses it, with the line; exit 2, nothing started', async () => {
    const run = await h.run(['run', '-g', 'builds', '--', 'true']);
    assert.equal(run.code, 2, 'run -g of an unknown group');
    const r = await h.run(['up', '-d'], { cwd: dir });
    assert.equal(r.code, 2);
    assert.equal(r.stderr, "amux: amux.yaml:3: sessions.one.group: no such group 'builds'; create it first: amux group add builds --parallel N\n");
    assert.deepEqual(await stackSessions(), {});
    const only = await h.run(['up', '-d', 'two'], { cwd: dir });
    assert.equal(only.stderr, "amux: amux.yaml:6: sessions.two.group: no such group 'builds'; create it first: amux group add builds --parallel N\n", 'the line of the key, in block style too');
  });

  test('group: NAME puts each session in the group, whose parallel limit holds one back', async () => {
    await h.ok(['group', 'add', 'builds', '--parallel', '1']);
    const r = await h.run(['up', '-d'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const s = await stackSessions();
    assert.deepEqual([s.one.group, s.two.group], ['builds', 'builds'], 'the field run -g sets');
    assert.deepEqual([s.one.status, s.two.status].sort(), ['pending', 'working'], 'parallel 1: one runs, one waits for the slot');
    const groups = JSON.parse(await h.ok(['group', 'ls', '--json']));
    assert.equal(groups.find((g: any) => g.name === 'builds').parallel, 1);
    await h.until(s.two.status === 'pending' ? s.two.id : s.one.id, (x) => x.status === 'completed', 20_000);
    const done = await stackSessions();
    assert.deepEqual([done.one.status, done.two.status], ['completed', 'completed'], 'the second ran once the first ended');
    assert.ok(Date.parse(done.two.startedAt) >= Date.parse(done.one.endedAt) || Date.parse(done.one.startedAt) >= Date.parse(done.two.endedAt), 'one after the other');
    const again = await h.run(['up', '-d'], { cwd: dir });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /one unchanged/, 'the group is part of the definition; unchanged, it stays');
    await h.ok(['down'], { cwd: dir });
    assert.deepEqual(await stackSessions(), {});
    assert.deepEqual(h.tmuxSessions(), []);
  });
});
