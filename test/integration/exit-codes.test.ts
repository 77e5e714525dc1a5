import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { amuxHome } from '../helpers/amux.js';

describe('exact exit codes on real tmux', () => {
  const h = amuxHome({ after });

  test('run -w exits with the command exit code and streams exactly its output', async () => {
    const ok = await h.run(['run', '-w', '--', 'echo out; echo err >&2']);
    assert.equal(ok.code, 0);
    assert.equal(ok.stdout, 'out\nerr\n');
    const seven = await h.run(['run', '-w', '--', 'printf "no newline"; exit 7']);
    assert.equal(seven.code, 7);
    assert.equal(seven.stdout, 'no newline');
  });

  test('wait and ps --json report 0, N and 128+signal', async () => {
    const zero = await h.ok(['run', '--', 'true']);
    const three = await h.ok(['run', '--', 'sleep 0.2; (exit 3)']);
    const sig = await h.ok(['run', '--', "sh -c 'kill -TERM $$'"]);
    assert.equal((await h.run(['wait', zero])).code, 0);
    assert.equal((await h.run(['wait', three])).code, 3);
    assert.equal((await h.run(['wait', sig])).code, 143);
    // first non-zero in argument order
    assert.equal((await h.run(['wait', zero, sig, three])).code, 143);
    assert.equal((await h.run(['wait', three, sig])).code, 3);

    const ps = await h.json<any[]>(['ps']);
    const byId = new Map(ps.map((s) => [s.id, s]));
    assert.equal(byId.get(zero).status, 'completed');
    assert.equal(byId.get(zero).exitCode, 0);
    assert.equal(byId.get(three).status, 'failed');
    assert.equal(byId.get(three).exitCode, 3);
    assert.equal(byId.get(three).error, 'command exited with code 3');
    assert.equal(byId.get(sig).exitCode, 143);
    assert.equal(byId.get(sig).signal, 'SIGTERM');
    assert.equal(byId.get(sig).error, 'killed by signal SIGTERM');
  });

  test('wait --json prints [{id,status,exitCode,signal,reason,error,reached,event,match,logOffset,cursor}]', async () => {
    const id = await h.ok(['run', '--', 'exit 4']);
    const r = await h.run(['wait', '--json', id]);
    assert.equal(r.code, 4);
    const [w, ...rest] = JSON.parse(r.stdout);
    assert.equal(rest.length, 0);
    const { event, logOffset, cursor, ...record } = w;
    assert.deepEqual(record, { id, status: 'failed', exitCode: 4, signal: null, reason: 'command exited', error: 'command exited with code 4', reached: true, match: null });
    assert.deepEqual({ type: event.type, to: event.to, reason: event.reason }, { type: 'state_changed', to: 'failed', reason: 'command exited' });
    assert.equal(typeof logOffset, 'number');
    assert.ok(cursor >= event.id);
  });

  test('exit N inside the main command reports N', async () => {
    const r = await h.run(['run', '-w', '--', 'echo bye; exit 5']);
    assert.equal(r.code, 5);
    assert.equal(r.stdout, 'bye\n');
  });

  test('wait --timeout exits 124 and leaves the session running', async () => {
    const id = await h.ok(['run', '--', 'sleep 30']);
    const r = await h.run(['wait', '--timeout', '300ms', id]);
    assert.equal(r.code, 124);
    assert.ok(['working', 'idle'].includes((await h.session(id)).status));
    await h.ok(['kill', id]);
  });

  test('a session has a job 1 with the same exit code', async () => {
    const id = await h.ok(['run', '--', 'exit 9']);
    await h.run(['wait', id]);
    const rec = JSON.parse(await h.ok(['inspect', id]));
    assert.equal(rec.jobs.length, 1);
    assert.equal(rec.jobs[0].id, `job-${id}-1`);
    assert.equal(rec.jobs[0].exitCode, 9);
    assert.equal(rec.jobs[0].status, 'failed');
    const transitions = rec.events.filter((e: any) => e.type === 'state_changed').map((e: any) => `${e.data.from}>${e.data.to}`);
    assert.deepEqual(transitions, ['pending>working', 'working>failed']);
  });

  test('one story of a kill: a command that exits 0 on TERM is recorded as ended by SIGTERM, 143, everywhere', async () => {
    // `trap 'exit 0' TERM`: like watch, it answers TERM by exiting 0
    const id = await h.ok(['run', '--', `trap 'exit 0' TERM; while :; do sleep 0.1; done`]);
    await h.until(id, (s) => s.status === 'working');
    await h.ok(['kill', '--grace', '5s', id]);
    const rec = await h.session(id);
    assert.deepEqual([rec.status, rec.exitCode, rec.signal], ['stopped', 143, 'SIGTERM']);
    assert.match(rec.reason, /killed with SIGTERM \(the command exited with 0\)/);
    const waited = await h.run(['wait', '--json', id]);
    assert.equal(waited.code, 143);
    const [w] = JSON.parse(waited.stdout);
    assert.deepEqual([w.status, w.exitCode, w.signal, w.reason], ['stopped', 143, 'SIGTERM', rec.reason]);
    const ps = (await h.json<any[]>(['ps'])).find((s) => s.id === id);
    assert.deepEqual([ps.exitCode, ps.signal], [143, 'SIGTERM']);
  });
  test('exit N typed in a shell session is recorded with N, every time', async () => {
    // tmux 3.3a sometimes shows the dead pane without its status; the shell's EXIT trap says it.
    for (let i = 0; i < 5; i++) {
      const id = await h.ok(['run']);
      await h.run(['wait', id, '--until', 'idle', '--timeout', '30s']);
      await h.ok(['send', id, `exit ${10 + i}`]);
      const r = await h.run(['wait', '--json', id]);
      assert.equal(r.code, 10 + i, r.stdout);
      assert.equal(JSON.parse(r.stdout)[0].error, `shell process exited (status ${10 + i})`);
    }
  });
});
