import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatLines, parseFormat } from '../../src/cli/format.js';

describe('--format output is made a line at a time (src/guides/sessions.md "Output formats")', () => {
  test('a line is made only once the one before it was taken: nothing holds the whole output', () => {
    const fields = ['id', 'command'];
    let made = 0;
    const row = (id: string) => ({ id, get command() {
      made++;
      return 'x'.repeat(1000);
    } });
    const rows = [row('a'), row('b'), row('c')];
    const lines = formatLines(parseFormat('{{.ID}} {{.Command}}{{.Command}}', fields), rows);
    assert.equal(made, 0, 'nothing made before it is asked for');
    assert.equal(lines.next().value, `a ${'x'.repeat(2000)}\n`);
    assert.equal(made, 2, 'only the first row was rendered');
    assert.equal(lines.next().value, `b ${'x'.repeat(2000)}\n`);
    assert.equal(made, 4);
    const json = formatLines(parseFormat('json', fields), rows);
    json.next();
    assert.equal(made, 5, 'json too: one row at a time');
  });
});
