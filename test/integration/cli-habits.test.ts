import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { amuxHome } from '../helpers/amux.js';

describe('habits of other tools, flag-shaped words and usage lines (src/guides/sessions.md)', () => {
  const h = amuxHome({ after });

  for (const sig of ['-9', '-KILL', '-SIGKILL']) {
    test(`kill ${sig} NAME sends SIGKILL, as kill(1) reads it`, async () => {
      const name = `k${sig.replace(/-/g, '')}`;
      const id = await h.ok(['run', '-n', name, '--', 'sleep 300']);
      await h.until(id, (s) => s.status === 'working');
      const r = await h.run(['kill', sig, name]);
      assert.equal(r.code, 0, r.stderr);
      const s = await h.until(id, (x) => x.status === 'stopped');
      assert.equal(s.signal, 'SIGKILL');
      assert.equal(s.reason, 'killed with SIGKILL');
    });
  }

  test('a flag-shaped word is never taken for an id', async () => {
    const id = await h.ok(['run', '--', 'exit 0']);
    await h.until(id, (s) => s.status === 'completed');
    for (const args of [['rm', '-5'], ['kill', '--', '-x'], ['inspect', '-3'], ['wait', '-1']]) {
      const r = await h.run(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /^amux: '-\w+' is not a session id/);
      assert.equal(r.stderr.trim().split('\n').length, 1);
    }
    assert.equal((await h.session(id)).removed, false);
  });

  test('habits get the amux way to say it, exit 2, and nothing starts', async () => {
    const before = (await h.json<any[]>(['ps', '--json'])).length;
    const cases: Array<[string[], RegExp]> = [
      [['run', '-d', '--', 'sleep', '1'], /^amux: run has no -d: .*-w waits/],
      [['run', '-it', 'bash'], /^amux: run has no -it: .*amux attach ID/],
      [['exec', '-it', 'x', '--', 'sh'], /^amux: exec has no -it: .*--tty/],
      [['exec', 'x', '-w', '/tmp', '--', 'ls'], /^amux: exec has no -w: .*'cd DIR && CMD'/],
      [['exec', 'x', '-e', 'A=1', '--', 'env'], /^amux: exec has no -e: .*'KEY=VALUE CMD'/],
      [['ps', '-a'], /^amux: ps has no -a: .*--status finished.*amux history/],
      [['ps', '--all'], /^amux: ps has no --all/],
      [['stop', 'web'], /^amux: unknown command 'stop': amux kill NAME/],
      [['start', 'web'], /^amux: unknown command 'start': amux restart NAME/],
      [['version'], /^amux: unknown command 'version': amux --version/],
      [['inspect'], /^amux: inspect needs <id>: amux inspect \[options\] <id>$/m],
      [['ps', '--status', 'running'], /^amux: --status: unknown status 'running': use pending, working/],
      [['history', '--status', 'running'], /^amux: --status: unknown status 'running'/],
    ];
    for (const [args, want] of cases) {
      const r = await h.run(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, want, args.join(' '));
      assert.equal(r.stderr.trim().split('\n').length, 1, `one line: ${r.stderr}`);
    }
    assert.equal((await h.json<any[]>(['ps', '--json'])).length, before, 'nothing started');
  });

  test('help --help works', async () => {
    const r = await h.run(['help', '--help']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Usage: amux /);
  });

  test('--format takes every --json field (attention, declared)', async () => {
    const id = await h.ok(['run', '-n', 'fmt', '--', "printf '\\a'; sleep 300"]);
    await h.until(id, (s) => s.attention !== null);
    const out = await h.ok(['ps', '--format', '{{.ID}} {{json .Attention}} {{.Declared}}']);
    const line = out.split('\n').find((l) => l.startsWith(id))!;
    assert.ok(line, out);
    const [, attention, declared] = /^\S+ (\{.*\}) (.*)$/.exec(line)!;
    assert.equal(JSON.parse(attention!).source, 'bell');
    assert.equal(declared, '');
    const cell = await h.ok(['ps', '--format', '{{.Attention}}']);
    assert.match(cell, /"source":"bell"/, 'an object cell is its JSON');
    const json = (await h.json<any[]>(['ps', '--json']))[0];
    for (const field of Object.keys(json)) {
      const r = await h.run(['ps', '--format', `{{.${field}}}`]);
      assert.equal(r.code, 0, `${field}: ${r.stderr}`);
    }
  });
});
