import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inMcpWords } from '../../src/mcp/words.js';

/** Errors that MCP tools pass on speak tool and argument names, not the CLI's flags (issue 34). */
describe('errors in MCP words', () => {
  test("the daemon's and the stack loader's CLI spellings", () => {
    const cases: [string, RegExp][] = [
      ["session abc is working; stop it first ('amux kill abc') or use 'amux rm -f abc'", /stop it first \(the kill tool\) or use remove with force: true/],
      ["unknown --until 'idel': use exited, idle, working", /unknown until 'idel'/],
      ['--until output: not a valid regular expression: x', /until 'output:' not a valid/],
      ['--until idle is for sessions; job j can only be waited for until it exited', /until 'idle' is for sessions/],
      ['sinceOffset is for --until output:REGEX; drop it, or wait for output', /sinceOffset is for until 'output:REGEX'/],
      ["'Ctrl-C' is not a tmux key name; use names such as C-c, or send it as text without --keys", /send it as text instead of keys/],
      ['a send timeout is for when: idle or ready (--when); drop it', /idle or ready \(when\)/],
      ["no amux.yaml, amux.yml, Procfile in /x: write one (amux help stacks) or give -f FILE", /or give file$/],
      ["cannot make a stack name of the directory '!!': give -p NAME", /give project$/],
    ];
    for (const [cli, mcp] of cases) {
      const said = inMcpWords(cli);
      assert.match(said, mcp, said);
      assert.doesNotMatch(said, /(^|\s|')--?[a-z]|'amux /, said);
    }
  });
});
