import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { visibleSessions } from '../../src/cli/top/model.js';
import { groupByStack, stackHeading, tableItems } from '../../src/cli/top/stacks.js';
import type { SessionView } from '../../src/protocol/sessions.js';
import { sessionView } from '../helpers/session-view.js';

const session = sessionView;
const member = (stack: string, key: string, levelOf: number, p: Partial<SessionView> = {}) =>
  session({ id: `${stack}-${key}`.padEnd(8, '_').slice(0, 8), name: `${stack}-${key}`, labels: { stack, service: key, 'stack.level': String(levelOf) }, ...p });

describe('top: rows grouped by stack (src/guides/sessions.md "Dashboard")', () => {
  test("a stack's sessions together in dependency order, at its first session's place; others as they were", () => {
    const lone = session({ id: 'lone0000', name: 'lone' });
    const db = member('demo', 'db', 0);
    const api = member('demo', 'api', 1);
    const other = session({ id: 'other000', name: 'other' });
    const worker = member('demo', 'worker', 2);
    const done = member('demo', 'migrate', 1, { status: 'completed', exitCode: 0 });
    const ids = visibleSessions([lone, db, api, other, worker, done], '').map((s) => s.id);
    // Newest first: worker is the newest session of demo, so demo comes first; in it, by level.
    assert.deepEqual(ids, [db.id, api.id, done.id, worker.id, other.id, lone.id]);
    assert.deepEqual(groupByStack([lone, other]).map((s) => s.id), [lone.id, other.id], 'no stack: unchanged');
  });

  test('a heading line above each stack, counting its sessions by status', () => {
    const rows = groupByStack([member('a', 'x', 0), session({ id: 'plain000' }), member('b', 'y', 0, { status: 'failed', exitCode: 1 }), member('a', 'z', 1, { status: 'idle' })]);
    const items = tableItems(rows);
    assert.deepEqual(items.map((it) => (it.kind === 'stack' ? `# ${it.name}` : it.session.id)), ['# a', 'a-x_____', 'a-z_____', 'plain000', '# b', 'b-y_____']);
    assert.equal((items[0] as { text: string }).text, 'stack a · 2 sessions (2 live): 1 working, 1 idle');
    assert.equal(stackHeading('b', [rows[3]!]), 'stack b · 1 session (0 live): 1 failed');
  });

  test('the filter still applies: a stack shows only its matching sessions, with its heading', () => {
    const rows = visibleSessions([member('demo', 'db', 0), member('demo', 'api', 1, { status: 'failed', exitCode: 1 }), session({ status: 'failed', exitCode: 2 })], 'failed');
    const items = tableItems(rows);
    assert.deepEqual(items.map((it) => (it.kind === 'stack' ? `# ${it.name}` : it.session.name)), [null, '# demo', 'demo-api'], 'the newer lone session first, then the stack');
  });
});
