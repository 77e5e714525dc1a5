import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { amuxHome } from '../helpers/amux.js';

describe('kill and rm', () => {
  const h = amuxHome({ after });

  test('kill sends TERM, the session is stopped and its tmux session closed', async () => {
    const id = await h.ok(['run', '-n', 'victim', '--', 'sleep 300']);
    assert.equal(await h.ok(['kill', 'victim']), id);
    const s = await h.session(id);
    assert.equal(s.status, 'stopped');
    assert.equal(s.signal, 'SIGTERM');
    assert.equal((await h.run(['wait', id])).code, 143);
    assert.equal(h.tmuxSessions().includes(`amux-${id}`), false);
  });

  test('kill -s INT and a numeric signal', async () => {
    const a = await h.ok(['run', '--', 'sleep 300']);
    await h.ok(['kill', '-s', 'INT', a]);
    assert.equal((await h.session(a)).signal, 'SIGINT');
    const b = await h.ok(['run', '--', 'sleep 300']);
    await h.ok(['kill', '-s', '9', b]);
    assert.equal((await h.session(b)).signal, 'SIGKILL');
  });

  test('survivors of the signal are SIGKILLed after --grace', async () => {
    const id = await h.ok(['run', '--', `sh -c 'trap "" TERM; echo armed; while :; do sleep 0.1; done'`]);
    await h.until(id, () => true);
    await new Promise((r) => setTimeout(r, 500));
    const r = await h.run(['kill', '--grace', '500ms', id]);
    assert.equal(r.code, 0, r.stderr);
    const s = await h.session(id);
    assert.equal(s.status, 'stopped');
    assert.equal(s.signal, 'SIGKILL', 'what ended it was the SIGKILL after the grace');
    assert.equal((await h.run(['wait', id])).code, 137);
  });

  test('kill reaches processes that left the shell\'s tree', async () => {
    const marker = 7000 + Math.floor(Math.random() * 900);
    const id = await h.ok(['run', '--', `(sleep ${marker}.5 &); sleep 300`]);
    const { execFileSync } = await import('node:child_process');
    const running = () => {
      try {
        return execFileSync('pgrep', ['-f', `sleep ${marker}.5`], { encoding: 'utf8' }).trim() !== '';
      } catch {
        return false;
      }
    };
    for (const deadline = Date.now() + 30_000; Date.now() < deadline && !running(); ) await new Promise((res) => setTimeout(res, 100));
    assert.ok(running(), 'the escaped process started');
    await h.ok(['kill', id]);
    assert.equal(running(), false, 'the escaped process was killed too');
  });

  test('job ids: wait and kill take job-<id>-1; a shell session has no job 1', async () => {
    const id = await h.ok(['run', '--', 'sleep 0.3; exit 5']);
    assert.equal((await h.run(['wait', `job-${id}-1`])).code, 5);
    const live = await h.ok(['run', '--', 'sleep 300']);
    assert.equal(await h.ok(['kill', `job-${live}-1`]), live);
    assert.equal((await h.session(live)).status, 'stopped');
    const shell = await h.ok(['run']);
    const r = await h.run(['wait', `job-${shell}-1`]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /no such job/);
    assert.equal((await h.run(['logs', `job-${shell}-1`])).code, 1);
    assert.equal((await h.run(['wait', `job-${id}-2`])).code, 1);
    await h.ok(['kill', shell]);
  });

  test('killing a finished session is a no-op with exit 0', async () => {
    const id = await h.ok(['run', '--', 'exit 2']);
    await h.run(['wait', id]);
    assert.equal((await h.run(['kill', id])).code, 0);
    const s = await h.session(id);
    assert.equal(s.status, 'failed');
    assert.equal(s.exitCode, 2);
  });

  test('rm refuses a live session without -f, removes it with -f', async () => {
    const id = await h.ok(['run', '-n', 'live', '--', 'sleep 300']);
    const r = await h.run(['rm', id]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /rm -f/);
    assert.equal(await h.ok(['rm', '-f', id]), id);
    const ps = await h.json<any[]>(['ps']);
    assert.equal(ps.some((s) => s.id === id), false);
  });

  test('rm keeps the history row and the last output; the name becomes free', async () => {
    const id = await h.ok(['run', '-n', 'keeper', '--', 'echo last words; exit 3']);
    await h.run(['wait', id]);
    await h.ok(['rm', 'keeper']);
    const rec = JSON.parse(await h.ok(['inspect', id]));
    assert.equal(rec.session.removed, true);
    assert.equal(rec.session.exitCode, 3);
    assert.match(rec.lastOutput, /last words/);
    assert.ok(rec.events.some((e: any) => e.type === 'session_removed'));
    const again = await h.ok(['run', '-n', 'keeper', '--', 'true']);
    assert.notEqual(again, id);
    const logs = await h.run(['logs', id]);
    assert.equal(logs.code, 1);
  });

  test('run --rm removes the session once it finished', async () => {
    const id = await h.ok(['run', '--rm', '--', 'echo hello-last; exit 6']);
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && (await h.json<any[]>(['ps'])).some((s) => s.id === id)) await new Promise((r) => setTimeout(r, 100));
    const rec = JSON.parse(await h.ok(['inspect', id]));
    assert.equal(rec.session.removed, true);
    assert.equal(rec.session.exitCode, 6);
    assert.match(rec.lastOutput, /hello-last/, 'the last output is kept');
    assert.equal((await h.run(['run', '--rm', '-w', '--', 'exit 4'])).code, 4);
  });

  test('names are unique among sessions not removed', async () => {
    await h.ok(['run', '-n', 'dup', '--', 'sleep 300']);
    const r = await h.run(['run', '-n', 'dup', '--', 'true']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /already used/);
    await h.ok(['rm', '-f', 'dup']);
  });
});
