import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { amuxHome } from '../helpers/amux.js';

/** Bad input: the right exit code and exactly one clear line on stderr; the daemon stays up. */
const CASES: { args: string[]; code: number; stderr: RegExp }[] = [
  { args: ['run', '-n', 'bad name', '--', 'true'], code: 2, stderr: /invalid name/ },
  { args: ['run', '-n', '-leading', '--', 'true'], code: 2, stderr: /./ },
  { args: ['run', '-n', 'x'.repeat(65), '--', 'true'], code: 2, stderr: /invalid name/ },
  { args: ['run', '-n', 'a;b$(id)', '--', 'true'], code: 2, stderr: /invalid name/ },
  { args: ['run', '-C', '/does/not/exist', '--', 'true'], code: 2, stderr: /does not exist/ },
  { args: ['run', '-e', '1BAD=x', '--', 'true'], code: 2, stderr: /invalid --env/ },
  { args: ['run', '-e', 'A B=x', '--', 'true'], code: 2, stderr: /invalid --env/ },
  { args: ['run', '-w'], code: 2, stderr: /needs a command/ },
  { args: ['run', '--', ''], code: 2, stderr: /command is empty/ },
  { args: ['run', '--bogus'], code: 2, stderr: /unknown option/ },
  { args: ['bogus-command'], code: 2, stderr: /unknown command/ },
  { args: ['wait', '--timeout', '5 minutes', 'deadbeef'], code: 2, stderr: /invalid --timeout duration/ },
  { args: ['wait', '--timeout', '-1s', 'deadbeef'], code: 2, stderr: /invalid --timeout duration/ },
  { args: ['kill', '-s', 'NOPE', 'deadbeef'], code: 2, stderr: /invalid signal/ },
  { args: ['kill', '-s', '999', 'deadbeef'], code: 2, stderr: /invalid signal/ },
  { args: ['kill', '--grace', 'soon', 'deadbeef'], code: 2, stderr: /invalid --grace duration/ },
  { args: ['logs', '--tail', 'ten', 'deadbeef'], code: 2, stderr: /invalid --tail/ },
  { args: ['logs', '--since-offset', '-5', 'deadbeef'], code: 2, stderr: /./ },
  { args: ['inspect', 'deadbeef'], code: 1, stderr: /no such session: deadbeef/ },
  { args: ['inspect', "'; DROP TABLE sessions; --"], code: 1, stderr: /no such session/ },
  { args: ['inspect', '../../etc/passwd'], code: 1, stderr: /no such session/ },
  { args: ['inspect', 'job-zz'], code: 1, stderr: /no such session/ },
  { args: ['wait', 'nope'], code: 1, stderr: /no such session: nope/ },
  { args: ['send', 'nope', 'x'], code: 1, stderr: /no such session/ },
  { args: ['rm', 'nope'], code: 1, stderr: /no such session/ },
  { args: ['attach', 'nope'], code: 2, stderr: /terminal/ },
  { args: ['daemon', 'explode'], code: 2, stderr: /unknown daemon action/ },
];

describe('hostile and bad input', () => {
  const h = amuxHome({ after });

  for (const c of CASES) {
    test(`amux ${c.args.join(' ').slice(0, 60)} → exit ${c.code}`, async () => {
      const r = await h.run(c.args);
      assert.equal(r.code, c.code, `stderr: ${r.stderr}`);
      assert.match(r.stderr, c.stderr);
      assert.equal(r.stderr.trim().split('\n').length, 1, `one line expected, got: ${r.stderr}`);
      assert.equal(r.stdout, '');
    });
  }

  test('an ambiguous prefix lists the candidates', async () => {
    const ids = new Set<string>();
    // 17 sessions make two ids sharing a first hex digit certain (pigeonhole)
    for (let i = 0; i < 17; i++) ids.add(await h.ok(['run', '--', 'true']));
    const byFirst = new Map<string, string[]>();
    for (const id of ids) byFirst.set(id[0]!, [...(byFirst.get(id[0]!) ?? []), id]);
    const [prefix, group] = [...byFirst.entries()].find(([, g]) => g.length > 1)!;
    const r = await h.run(['inspect', prefix]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /ambiguous/);
    for (const id of group) assert.match(r.stderr, new RegExp(id));
    const unique = [...ids][0]!;
    assert.equal(JSON.parse(await h.ok(['inspect', unique.slice(0, 8)])).session.id, unique);
  });

  test('text typed by send arrives literally (quotes, $(), backticks, trailing ;)', async () => {
    const id = await h.ok(['run', '--', 'cat']);
    const lines = ['$(touch /tmp/amux-send-injected)', '`id`', `it's "x"`, 'ends with;', 'ends with \\;', '#{pane_id}'];
    for (const l of lines) await h.ok(['send', id, l]);
    await h.ok(['send', id, '--keys', 'C-d']);
    await h.run(['wait', id]);
    const out = (await h.ok(['logs', id])).split('\n');
    for (const l of lines) assert.equal(out.filter((x) => x === l).length, 2, `${l} in ${out.join('|')}`);
    const { existsSync } = await import('node:fs');
    assert.equal(existsSync('/tmp/amux-send-injected'), false);
  });

  test('100 KB of text through send arrives whole', async () => {
    const id = await h.ok(['run', '--', 'wc -c']);
    // lines of 1000 bytes: a terminal in canonical mode holds at most 4095 bytes per line
    const text = `${'y'.repeat(999)}\n`.repeat(100);
    await h.ok(['send', '--no-enter', id, text]);
    await h.ok(['send', id, '--keys', 'C-d']);
    await h.run(['wait', id]);
    assert.match(await h.ok(['logs', id]), new RegExp(`\\b${text.length}\\b`));
  });

  test('the daemon is still up after all of it', async () => {
    assert.equal((await h.run(['daemon', 'status'])).code, 0);
  });
});
