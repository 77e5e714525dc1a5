import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { expectedExit, helpExamples, markdownBlocks, parseMarker, runKind } from '../helpers/examples.js';

/** How the examples check (ADR 0065) reads the docs' runnable examples (docs conventions of issue 32). */
describe('reading runnable examples', () => {
  test('only sh blocks run; comments, blank lines and other info strings do not; lines are numbered', () => {
    const md = [
      '# Title', '', '```sh', '# a comment', 'amux run -n web -- npm run dev', '', 'amux logs web', '```', '',
      '```console', '$ amux ps', '```', '```text', 'not run', '```', '```', 'amux nope', '```',
    ].join('\n');
    const blocks = markdownBlocks('G.md', md);
    assert.equal(blocks.length, 1);
    assert.equal(blocks[0]!.where, 'G.md:3');
    assert.equal(blocks[0]!.marker, null);
    assert.deepEqual(blocks[0]!.examples.map((e) => [e.where, e.text, e.exit]), [['G.md:5', 'amux run -n web -- npm run dev', 0], ['G.md:7', 'amux logs web', 0]]);
  });

  test('a trailing backslash goes on with the next line; # exit N at the end expects that code', () => {
    const md = ['```sh', 'amux run -n web \\', '  -- npm run dev', 'amux wait nosuch   # exit 1', '```'].join('\n');
    const [block] = markdownBlocks('R.md', md);
    assert.deepEqual(block!.examples.map((e) => [e.line, e.text, e.exit]), [[2, 'amux run -n web \\\n  -- npm run dev', 0], [4, 'amux wait nosuch   # exit 1', 1]]);
  });

  test('a longer fence holds a shorter one; a block inside a list item keeps its indentation off', () => {
    const md = ['````sh', '```', 'echo inside', '````', '- item', '  ```sh', '  echo listed', '  ```'].join('\n');
    const blocks = markdownBlocks('F.md', md);
    assert.deepEqual(blocks.map((b) => b.examples.map((e) => e.text)), [['```', 'echo inside'], ['echo listed']]);
  });

  test('markers: the needs, skip with a reason; skip without one and unknown ones are mistakes', () => {
    for (const k of ['sshd', 'terminal', 'minutes', 'agents']) assert.deepEqual(parseMarker(`# example: needs ${k}`), { kind: k });
    assert.deepEqual(parseMarker('# example: skip: installs packages'), { kind: 'skip', why: 'installs packages' });
    assert.equal(parseMarker('# example: skip')!.kind, 'bad');
    assert.equal(parseMarker('# example: skip:')!.kind, 'bad');
    assert.equal(parseMarker('# example: needs gpu')!.kind, 'bad');
    assert.equal(parseMarker('# just a comment'), null);
    const [block] = markdownBlocks('M.md', ['```sh', '# example: needs terminal', 'amux top', '```'].join('\n'));
    assert.deepEqual(block!.marker, { kind: 'terminal' });
    assert.equal(block!.examples.length, 1);
  });

  test('expected exit codes', () => {
    assert.equal(expectedExit('amux wait x'), 0);
    assert.equal(expectedExit('amux daemon status  # exit 3'), 3);
    assert.equal(expectedExit('amux ps # exit code is 0, says the comment'), 0);
  });

  test("--help: the command lines of the closing Examples block", () => {
    const help = 'Usage: amux kill\n\nOptions:\n  -h\n\nExamples:\n  # what\n  amux kill web\n\n  # other\n  amux kill -s INT api  # exit 1\n';
    assert.deepEqual(helpExamples('amux kill --help', help).map((e) => [e.text, e.exit]), [['amux kill web', 0], ['amux kill -s INT api  # exit 1', 1]]);
    assert.deepEqual(helpExamples('x', 'no block'), []);
  });

  test('how a line runs: to its end, bounded (it follows until stopped), or on a terminal', () => {
    for (const line of ['amux logs web', 'amux up -d', 'amux up -f dev.yaml -p dev -d', 'amux up --example demo', 'amux events web', 'amux logs --help -f', 'echo -f']) assert.equal(runKind(line), 'plain', line);
    for (const line of ['amux logs -f web', 'amux logs --since 10m -f -t web', 'amux events -f --since 10m', 'amux up', 'amux up -f dev.yaml', 'amux --host ssh://x logs --follow web', 'amux daemon run']) assert.equal(runKind(line), 'bounded', line);
    for (const line of ['amux top', 'amux attach -r web', 'amux --context gpu attach web', 'cd x && amux top --no-color']) assert.equal(runKind(line), 'terminal', line);
  });
});
