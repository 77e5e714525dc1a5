import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { asksTerminal, csiAsks, dcsAsks, oscAsks } from '../../src/core/terminal-query.js';

const asks = (s: string) => asksTerminal(Buffer.from(s, 'latin1'));

describe('a query to the terminal at the end of the output (ADR 0068)', () => {
  test('Codex CLI 0.171.0 at its start: its queries, then modes and a cleared screen, nothing printed yet', () => {
    const start = 'WARNING: proceeding\r\n\x1b[?2004h\x1b[>4;0m\x1b[>5u\x1b[?1004h\x1b[?u\x1b[?1007$p\x1b[c\x1b[6n\x1b]10;?\x1b\\\x1b]11;?\x1b\\';
    assert.equal(asks(start), true);
    assert.equal(asks(`${start}\x1b[?2026h\x1b[?25l\x1b[?1049h\x1b[1;1H\x1b[J\x1b[1;2H\x1b[0m\x1b[K`), true, 'modes and erasing print nothing');
    assert.equal(asks(`${start}\x1b[1;1H>_ OpenAI Codex`), false, 'it drew its screen: it went on');
  });
  test('each query alone; the same sequences that only set something do not ask', () => {
    for (const q of ['\x1b[6n', '\x1b[5n', '\x1b[?6n', '\x1b[c', '\x1b[0c', '\x1b[>c', '\x1b[=c', '\x1b[?u', '\x1b[?2004$p', '\x1b[12$p', '\x1b[>q', '\x1b[14t', '\x1b[18;0t', '\x1b]11;?\x07', '\x1b]4;1;?\x1b\\', '\x1b]52;c;?\x07', '\x1bP+q544e\x1b\\', '\x1bP$qm\x1b\\']) {
      assert.equal(asks(`$ ${q}`), true, JSON.stringify(q));
    }
    for (const q of ['\x1b[2J', '\x1b[>5u', '\x1b[?25l', '\x1b[1;1H', '\x1b[8;24;80t', '\x1b]0;title\x07', '\x1b]11;#000000\x07', '\x1b]7501;state=idle\x1b\\', '\x1bP1$r0m\x1b\\', '\x07']) {
      assert.equal(asks(`$ ${q}`), false, JSON.stringify(q));
    }
  });
  test('a prompt printed after the query is the program going on; one printed before it is not', () => {
    assert.equal(asks('\x1b[6n$ '), false);
    assert.equal(asks('$ \x1b[6n'), true);
    assert.equal(asks('\x1b]11;?\x1b[0m> '), false, 'an OSC cut by another sequence still leaves the prompt printed after it');
  });
  test('the attention scan\'s grammar: CAN and SUB abort a query; SOS, PM and APC strings are not output', () => {
    assert.equal(asks('$ \x1b[6\x18'), false, 'CAN aborts it');
    assert.equal(asks('$ \x1b]11;\x1a'), false, 'SUB aborts it');
    assert.equal(asks('$ \x1b[6n\x1b_apc text\x1b\\'), true, 'an APC string prints nothing');
    assert.equal(asks('$ \x1b[c\x1b^pm\x1b\\\x1bXsos\x1b\\'), true);
    assert.equal(asks('$ \x1b[c\x1b_apc\x1b\\>'), false, 'printed after the string');
  });
  test('a tail that starts inside a sequence reads its first bytes as output', () => {
    assert.equal(asks('5;1H text \x1b[c'), true);
    assert.equal(asks('?\x1b\\'), false);
  });
  test('the parts', () => {
    assert.equal(csiAsks('', 'c'), true);
    assert.equal(csiAsks('1', 'c'), false);
    assert.equal(csiAsks('?', 'u'), true);
    assert.equal(csiAsks('>1', 'u'), false);
    assert.equal(oscAsks('10;?'), true);
    assert.equal(oscAsks('0;?'), false, 'a title that is a question mark');
    assert.equal(dcsAsks('+q436f'), true);
    assert.equal(dcsAsks('1$r'), false);
  });
});
