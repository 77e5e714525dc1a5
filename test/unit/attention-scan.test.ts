import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_MESSAGE_CHARS, newScanState, scanAttention, type ScanState } from '../../src/core/attention-scan.js';

const ESC = '\x1b';
const BEL = '\x07';
const ST = `${ESC}\\`;

function scan(text: string | Buffer, state: ScanState = newScanState()) {
  return scanAttention(typeof text === 'string' ? Buffer.from(text, 'utf8') : text, state);
}

describe('attention scan: the bell', () => {
  test('a BEL in plain output rings; text around it is visible output', () => {
    const r = scan(`Continue? ${BEL}`);
    assert.deepEqual(r.signals, [{ source: 'bell', title: null, message: null }]);
    assert.equal(r.visibleAfter, false, 'the prompt came before the bell');
    assert.equal(scan(`${BEL}more`).visibleAfter, true);
  });

  test('a BEL that ends an OSC is its terminator, not a bell (a window title)', () => {
    const r = scan(`${ESC}]0;my title${BEL}`);
    assert.deepEqual(r.signals, []);
  });

  test('a BEL inside a CSI is executed (it rings), as the VT500 parser does', () => {
    assert.equal(scan(`${ESC}[3${BEL}1m`).signals.length, 1);
  });

  test('a BEL inside DCS or APC strings is their content (they end at ST only)', () => {
    assert.deepEqual(scan(`${ESC}Pq${BEL}data${ST}${ESC}_Gkitty${BEL}${ST}`).signals, []);
  });

  test('blanks, controls and escape sequences are not visible output', () => {
    assert.equal(scan(`${BEL} \r\n\t${ESC}[2J${ESC}[?25l${ESC}]0;t${BEL}`).visibleAfter, false);
  });
});

describe('attention scan: notifications', () => {
  test('OSC 9: the message exactly, with BEL or ST as terminator', () => {
    const msg = 'build done: 3 passed; ünïcode ✓ "quoted" $HOME';
    assert.deepEqual(scan(`${ESC}]9;${msg}${BEL}`).signals, [{ source: 'osc9', title: null, message: msg }]);
    assert.deepEqual(scan(`${ESC}]9;${msg}${ST}`).signals, [{ source: 'osc9', title: null, message: msg }]);
  });

  test("OSC 9 subcommands of ConEmu (9;4 progress) are not notifications", () => {
    assert.deepEqual(scan(`${ESC}]9;4;1;50${ST}${ESC}]9;1;100${BEL}`).signals, []);
  });

  test('OSC 777 notify: title and body (which may hold semicolons); other 777 forms are not notifications', () => {
    assert.deepEqual(scan(`${ESC}]777;notify;Codex;turn done; 2 files${ST}`).signals, [{ source: 'osc777', title: 'Codex', message: 'turn done; 2 files' }]);
    assert.deepEqual(scan(`${ESC}]777;precmd${BEL}${ESC}]777;preexec${ST}`).signals, []);
  });

  test('OSC 99 (kitty): the simple form, title and body in parts, base64, and non-notification parts', () => {
    assert.deepEqual(scan(`${ESC}]99;;Hello world${ST}`).signals, [{ source: 'osc99', title: null, message: 'Hello world' }]);
    const parts = `${ESC}]99;i=1:d=0;Build${ST}${ESC}]99;i=1:d=0:p=body;3 tests ${ST}${ESC}]99;i=1:p=body;failed${ST}`;
    assert.deepEqual(scan(parts).signals, [{ source: 'osc99', title: 'Build', message: '3 tests failed' }]);
    const b64 = Buffer.from('é ✓').toString('base64');
    assert.deepEqual(scan(`${ESC}]99;e=1;${b64}${ST}`).signals, [{ source: 'osc99', title: null, message: 'é ✓' }]);
    assert.deepEqual(scan(`${ESC}]99;i=1:p=close;${ST}${ESC}]99;p=?;${ST}`).signals, []);
  });

  test('an escape inside the message cancels the notification (refused); its text is output and a later BEL is a bell', () => {
    const r = scan(`${ESC}]9;build ${ESC}[31mfailed${BEL}`);
    assert.deepEqual(r.signals, [{ source: 'bell', title: null, message: null }]);
  });

  test('control characters in a message are removed; a long one is cut', () => {
    assert.equal(scan(`${ESC}]9;a\tb\x01c${BEL}`).signals[0]!.message, 'abc');
    const b64 = Buffer.from('x\ny\u009bz\x1b[1m').toString('base64');
    assert.equal(scan(`${ESC}]99;e=1;${b64}${ST}`).signals[0]!.message, 'xyz[1m');
    assert.equal(scan(`${ESC}]9;${'x'.repeat(3000)}${BEL}`).signals[0]!.message!.length, MAX_MESSAGE_CHARS);
  });

  test('CAN aborts a notification', () => {
    assert.deepEqual(scan(`${ESC}]9;never\x18${BEL}`).signals, [{ source: 'bell', title: null, message: null }]);
  });
});

describe('attention scan: incremental', () => {
  test('a notification split across pieces (even inside UTF-8 and the ST) is found once, whole', () => {
    const all = Buffer.from(`out ${ESC}]777;notify;T;ünï ✓${ST} after`, 'utf8');
    for (let cut = 1; cut < all.length; cut++) {
      const state = newScanState();
      const a = scanAttention(all.subarray(0, cut), state);
      const b = scanAttention(all.subarray(cut), state);
      const signals = [...a.signals, ...b.signals];
      assert.deepEqual(signals, [{ source: 'osc777', title: 'T', message: 'ünï ✓' }], `cut at ${cut}`);
      assert.equal(b.visibleAfter, true);
    }
  });
});
