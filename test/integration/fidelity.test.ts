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
});
