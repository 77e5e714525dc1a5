import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { amuxHome, sleep } from '../helpers/amux.js';

/** Polls `probe` until it returns something (not undefined), or fails with `what` after `ms`. */
async function eventually<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await sleep(100);
  }
}

/** Whether the process is gone (or a zombie waiting for its parent to collect it). */
function gone(pid: number): boolean {
  try {
    return /\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

describe('ends: a chain ends whatever state its member is in, hooks run once per end, a stdin nobody sends ends (ADR 0033, 0017, src/guides/sessions.md "Notices")', () => {
  const h = amuxHome({ after });
  const scratch = mkdtempSync('/tmp/amux-ends-');
  after(() => rmSync(scratch, { recursive: true, force: true }));
  const events = async (id: string): Promise<any[]> => (await h.ok(['events', id])).split('\n').filter(Boolean).map((l) => JSON.parse(l));

  test('kill NAME between a member\'s end and its next session cancels the restart', async () => {
    await h.ok(['daemon', 'start']);
    // The window is the second between an end and its restart: the wait and the kill go straight to
    // the API. A kill that came too late hits the next session instead (and ends the chain too):
    // then it is tried again, with a new chain.
    for (let attempt = 0; ; attempt++) {
      assert.ok(attempt < 30, 'the kill never came between an end and its restart');
      const name = `chain${attempt}`;
      const first = await h.ok(['run', '-n', name, '--restart', 'always', '--', 'true']);
      const waited = await h.api('POST', '/v1/wait', { ids: [first] });
      assert.equal(waited.status, 200, JSON.stringify(waited.body));
      const killed = await h.api('POST', `/v1/sessions/${name}/kill`, {});
      assert.equal(killed.status, 200, JSON.stringify(killed.body));
      if (killed.body.id !== first) continue;
      assert.equal(killed.body.status, 'completed', 'its end stays as it was');
      assert.ok((await events(first)).some((e) => e.type === 'restart_cancelled'), 'the restart was cancelled');
      // Cancelled in the kill's answer: no next session is ever made. Had one been due, it would
      // exist within the second of its settling; a later session of the same daemon tells when
      // that time has surely passed (its own end comes after it).
      const later = await h.ok(['run', '--', 'sleep 2']);
      await h.run(['wait', later]);
      const chain = JSON.parse(await h.ok(['history', '--json'])).filter((s: any) => s.name === name || s.restartOf === first);
      assert.deepEqual(chain.map((s: any) => s.id), [first], 'the chain ended with its completed member');
      break;
    }
  });

  test('hooks run once per end: a new daemon\'s prune does not run them again', async () => {
    const ran = join(scratch, 'ran');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await h.ok(['run', '--on-end', `echo "$AMUX_ID" >> ${ran}`, '--', 'true']));
    await eventually('every hook ran', () => (existsSync(ran) && readFileSync(ran, 'utf8').split('\n').filter(Boolean).length >= 3 ? true : undefined));
    await h.ok(['daemon', 'stop']);
    await h.ok(['prune']);
    // A hook that is surely later than any a prune would have started (those start in its request).
    const marker = await h.ok(['run', '--on-end', `echo "marker $AMUX_ID" >> ${ran}`, '--', 'true']);
    await eventually('the marker hook ran', () => (readFileSync(ran, 'utf8').includes(`marker ${marker}`) ? true : undefined));
    const lines = readFileSync(ran, 'utf8').split('\n').filter(Boolean);
    assert.deepEqual(lines.filter((l) => !l.startsWith('marker')).sort(), [...ids].sort(), 'each hook ran once');
  });

  test('a hook for a command over 128 KiB runs, with AMUX_COMMAND cut to 64 KiB and AMUX_COMMAND_TRUNCATED=1', async () => {
    const out = join(scratch, 'long');
    const created = await h.api('POST', '/v1/sessions', {
      command: `true # ${'x'.repeat(200_000)}`, cwd: scratch, onEnd: `echo "\${#AMUX_COMMAND} $AMUX_COMMAND_TRUNCATED" > ${out}`,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body).slice(0, 300));
    const id = created.body.id;
    const said = await eventually('the hook ran or failed', async () => {
      if (existsSync(out)) return readFileSync(out, 'utf8').trim();
      const err = (await events(id)).find((e) => e.type === 'error');
      return err ? `error: ${err.data.message}` : undefined;
    });
    assert.equal(said, '65536 1');
  });

  test('exec -i whose client leaves after the job started, before sending stdin: the job gets EOF, cut after 0 bytes', async () => {
    const sh = await h.ok(['run']);
    await h.until(sh, (s) => s.status === 'idle');
    // The exec request as the CLI makes it, left as soon as the job has started (its start frame).
    await new Promise<void>((resolve, reject) => {
      const req = request({ socketPath: join(h.home, 'amux.sock'), method: 'POST', path: `/v1/sessions/${sh}/jobs?stream=true`, headers: { 'content-type': 'application/json' } }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`exec answered ${res.statusCode}`));
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => undefined);
      req.end(JSON.stringify({ command: 'wc -c', stdin: true }));
    });
    const job = JSON.parse(await h.ok(['jobs', sh, '--json']))[0];
    const w = await h.run(['wait', '--timeout', '60s', job.id], { timeoutMs: 90_000 });
    assert.equal(w.code, 0, `the job ended (EOF): ${w.stderr}`);
    const ended = JSON.parse(await h.ok(['jobs', sh, '--json'])).find((j: any) => j.id === job.id);
    assert.match(ended.error ?? '', /stdin cut after 0 bytes/);
    assert.equal((await h.ok(['logs', '--stdout', job.id])).trim(), '0');
  });

  test('a hook\'s background children end at its 60 s limit too', async () => {
    const pidFile = join(scratch, 'hook-child');
    const id = await h.ok(['run', '--on-end', `sleep 600 & echo $! > ${pidFile}`, '--', 'true']);
    const pid = await eventually('the hook started its child', () => (existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() ? Number(readFileSync(pidFile, 'utf8')) : undefined));
    await eventually('the child was killed', () => (gone(pid) ? true : undefined), 180_000);
    const err = await eventually('an error event says so', async () => (await events(id)).find((e) => e.type === 'error'));
    assert.match(err.data.message, /left processes running past its 60s limit/);
  });
});
