import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { amuxHome } from '../helpers/amux.js';

describe('what amux reports is what happened', () => {
  const h = amuxHome({ after });

  test('run -w --json: stdout is one JSON object, the output inside it, the exit code the command\'s', async () => {
    const r = await h.run(['run', '-w', '--json', '--', "printf 'one\\n\\033[1mtwo\\033[0m\\n'; exit 3"]);
    assert.equal(r.code, 3, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.exitCode, 3);
    assert.equal(j.status, 'failed');
    assert.equal(j.output, 'one\ntwo\n');
    assert.equal(r.stderr, '');
  });

  test('a running background job that has printed reports the bytes so far (jobs, inspect, the job)', async () => {
    const sh = await h.ok(['run']);
    await h.until(sh, (s) => s.status === 'idle');
    const [id] = (await h.ok(['exec', '-b', sh, '--', "printf '12345'; printf 'abc' >&2; sleep 30"])).split(' ');
    let job: any;
    for (let i = 0; i < 100; i++) {
      job = JSON.parse(await h.ok(['jobs', sh, '--json', '-n', '1']))[0];
      if (job.stdoutBytes === 5 && job.stderrBytes === 3) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(job.status, 'running');
    assert.equal(job.stdoutBytes, 5);
    assert.equal(job.stderrBytes, 3);
    const inspected = JSON.parse(await h.ok(['inspect', sh, '--json'])).jobs.find((j: any) => j.id === id);
    assert.equal(inspected.stdoutBytes, 5);
    assert.equal((await h.api('GET', `/v1/jobs/${id}`)).body.stderrBytes, 3);
    await h.ok(['kill', id!]);
  });
});
