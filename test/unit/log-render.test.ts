import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CrlfToLf, PlainRenderer, renderLine, renderPlain, stripAnsi, tailLines } from '../../src/core/log-render.js';

describe('stripAnsi', () => {
  const cases: [string, string, string][] = [
    ['CSI colours', '\x1b[1;31mred\x1b[0m plain \x1b[38;5;208morange\x1b[m', 'red plain orange'],
    ['OSC title ended by BEL', '\x1b]0;my title\x07text', 'text'],
    ['OSC title ended by ST', '\x1b]2;my title\x1b\\text', 'text'],
    ['OSC hyperlink', '\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\', 'link'],
    ['cursor moves and clears', '\x1b[2J\x1b[H\x1b[10;5Hx\x1b[3A\x1b[K\x1b[2Cy', 'xy'],
    ['private modes', '\x1b[?25l\x1b[?2004hz\x1b[?1049l', 'z'],
    ['charset and keypad escapes', '\x1b(Ba\x1b=b\x1b>c\x1b7d\x1b8', 'abcd'],
    ['DCS string', '\x1bPq#0;2;0;0;0\x1b\\after', 'after'],
    ['8-bit CSI', '\x9b31mred\x9b0m', 'red'],
    ['plain text untouched', 'héllo ✓ [not an escape] 100%\n', 'héllo ✓ [not an escape] 100%\n'],
    ['our job markers', '\x1b]5150;amux;abcd1234;s;1\x07out', 'out'],
  ];
  for (const [what, input, out] of cases) {
    test(what, () => {
      assert.equal(stripAnsi(input), out);
    });
  }
});

describe('renderLine', () => {
  const cases: [string, string][] = [
    ['abc\rX', 'Xbc'],
    ['abcdef\r123', '123def'],
    ['10%\r50%\r100%', '100%'],
    ['abc\r', 'abc'],
    ['\rabc', 'abc'],
    ['abc\b\bX', 'aXc'],
    ['ab\b', 'ab'],
    ['\b\bx', 'x'],
    ['a\tb', 'a\tb'],
    ['ab\x07c', 'abc'],
    ['a\x00b\x7fc', 'abc'],
    ['a\x7f\rb', 'b'],
    ['✓✓✓\rX', 'X✓✓'],
    ['plain', 'plain'],
  ];
  for (const [input, out] of cases) {
    test(`${JSON.stringify(input)} → ${JSON.stringify(out)}`, () => {
      assert.equal(renderLine(input), out);
    });
  }
});

describe('renderPlain', () => {
  test('\\r\\n becomes \\n', () => {
    assert.equal(renderPlain('a\r\nb\r\n'), 'a\nb\n');
    assert.equal(renderPlain('a\r\nb'), 'a\nb');
  });

  test('escapes removed and overwrites applied per line', () => {
    assert.equal(
      renderPlain('\x1b[32mok\x1b[0m\r\nprogress 1\rprogress 2\r\n\x1b]0;t\x07done\n'),
      'ok\nprogress 2\ndone\n',
    );
  });

  test('a \\r overwrite does not cross a newline', () => {
    assert.equal(renderPlain('first\n\rX'), 'first\nX');
  });

  test('empty lines survive', () => {
    assert.equal(renderPlain('\n\r\n\n'), '\n\n\n');
  });
});

/** A small deterministic PRNG so a failure can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

function randomSplits(text: string, rand: () => number): string[] {
  const out: string[] = [];
  let pos = 0;
  while (pos < text.length) {
    const n = 1 + Math.floor(rand() * 12);
    out.push(text.slice(pos, pos + n));
    pos += n;
  }
  return out;
}

const TERMINAL_TEXT =
  '$ make\r\n\x1b[1mbuilding\x1b[0m\r\n 10%\r 55%\r100%\r\nwarn\x1b[33m!\x1b[0m\r\n' +
  'abc\b\bX\r\n\x1b]0;title\x07\x1b[2K\rstatus: ok\r\n\r\nlast line without newline';

describe('PlainRenderer', () => {
  test('chunked input renders like the whole text', () => {
    const whole = renderPlain(TERMINAL_TEXT);
    for (let seed = 1; seed <= 100; seed++) {
      const r = new PlainRenderer();
      const out = randomSplits(TERMINAL_TEXT, rng(seed)).map((c) => r.push(c)).join('') + r.end();
      assert.equal(out, whole, `seed ${seed}`);
    }
  });

  test('emits only whole lines before end()', () => {
    const r = new PlainRenderer();
    assert.equal(r.push('abc'), '');
    assert.equal(r.push('def\r'), '');
    assert.equal(r.push('\ngh'), 'abcdef\n');
    assert.equal(r.push('\x1b[3'), '');
    assert.equal(r.push('1mi\x1b[0m\n'), 'ghi\n');
    assert.equal(r.push('tail'), '');
    assert.equal(r.end(), 'tail');
    assert.equal(r.end(), '');
  });

  test('every push output ends with a newline', () => {
    const r = new PlainRenderer();
    for (const chunk of randomSplits(TERMINAL_TEXT, rng(7))) {
      const out = r.push(chunk);
      assert.ok(out === '' || out.endsWith('\n'), JSON.stringify(out));
    }
  });
});

describe('CrlfToLf', () => {
  const run = (chunks: string[]) => {
    const c = new CrlfToLf();
    return Buffer.concat([...chunks.map((x) => c.push(Buffer.from(x))), c.end()]).toString();
  };

  test('\\r\\n → \\n within a chunk', () => {
    assert.equal(run(['a\r\nb\r\n']), 'a\nb\n');
  });

  test('a \\r at a chunk end and \\n in the next become one \\n', () => {
    const c = new CrlfToLf();
    assert.equal(c.push(Buffer.from('a\r')).toString(), 'a');
    assert.equal(c.push(Buffer.from('\nb')).toString(), '\nb');
    assert.equal(c.end().length, 0);
  });

  test('a lone \\r is kept', () => {
    assert.equal(run(['50%\r100%\n']), '50%\r100%\n');
    assert.equal(run(['a\r', 'b']), 'a\rb');
    assert.equal(run(['a\r', '\r', '\n']), 'a\r\n');
  });

  test('a trailing \\r comes out at end()', () => {
    const c = new CrlfToLf();
    assert.equal(c.push(Buffer.from('x\r')).toString(), 'x');
    assert.equal(c.end().toString(), '\r');
  });

  test('an empty chunk keeps a held \\r', () => {
    assert.equal(run(['a\r', '', '\n']), 'a\n');
  });

  test('every split of a stream gives the same bytes, non-ASCII included', () => {
    const text = 'héllo\r\n✓\r\r\n\r\n🎉\rx\r\n';
    const want = 'héllo\n✓\r\n\n🎉\rx\n';
    const bytes = Buffer.from(text);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const c = new CrlfToLf();
      const out = Buffer.concat([c.push(bytes.subarray(0, cut)), c.push(bytes.subarray(cut)), c.end()]);
      assert.equal(out.toString(), want, `cut at ${cut}`);
    }
  });

  test('bytes that are not valid UTF-8 pass through unchanged', () => {
    const c = new CrlfToLf();
    const input = Buffer.from([0xff, 0xfe, 0x0d, 0x0a, 0x80]);
    assert.deepEqual(Buffer.concat([c.push(input), c.end()]), Buffer.from([0xff, 0xfe, 0x0a, 0x80]));
  });
});

describe('tailLines', () => {
  const cases: [string, number, string][] = [
    ['a\nb\nc\n', 2, 'b\nc\n'],
    ['a\nb\nc', 2, 'b\nc'],
    ['a\nb\nc\n', 3, 'a\nb\nc\n'],
    ['a\nb\nc\n', 10, 'a\nb\nc\n'],
    ['a\nb\nc\n', 1, 'c\n'],
    ['a\nb\nc\n', 0, ''],
    ['a\nb\nc\n', -1, ''],
    ['', 3, ''],
    ['a\n\n\n', 2, '\n\n'],
  ];
  for (const [text, n, out] of cases) {
    test(`${JSON.stringify(text)}, ${n} → ${JSON.stringify(out)}`, () => {
      assert.equal(tailLines(text, n), out);
    });
  }
});
