import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_OSC_PAYLOAD, MAX_REPORTS, newScanState, scanAttention, type ScanResult, type ScanState } from '../../src/core/attention-scan.js';
import { MAX_TEXT_CHARS, programReportOf, progressOf, promptMarkOf } from '../../src/core/osc-announce.js';

const ESC = '\x1b';
const BEL = '\x07';
const ST = `${ESC}\\`;
const b64 = (s: string) => Buffer.from(s).toString('base64');

function scan(text: string | Buffer, state: ScanState = newScanState()): ScanResult {
  return scanAttention(typeof text === 'string' ? Buffer.from(text, 'utf8') : text, state);
}

/** Scans `text` cut into pieces of `size` bytes with one parser, as the monitor reads a log between looks; the pieces' results together. */
function scanPieces(text: string, size: number) {
  const bytes = Buffer.from(text, 'utf8');
  const state = newScanState();
  const all = { signals: [] as ScanResult['signals'], titles: [] as string[], progress: [] as unknown[], marks: [] as unknown[], reports: [] as unknown[] };
  for (let i = 0; i < bytes.length; i += size) {
    const r = scanAttention(bytes.subarray(i, i + size), state);
    all.signals.push(...r.signals);
    if (r.announced.title !== undefined) all.titles.push(r.announced.title);
    if (r.announced.progress !== undefined) all.progress.push(r.announced.progress);
    if (r.announced.mark !== undefined) all.marks.push(r.announced.mark);
    all.reports.push(...r.announced.reports.map(({ end: _end, ...rest }) => rest));
  }
  return all;
}

describe('OSC announcements: the window title (OSC 0, OSC 2)', () => {
  test('OSC 0 and OSC 2 set it, with BEL or ST; the last one of a piece counts; OSC 1 (icon name) does not', () => {
    assert.equal(scan(`${ESC}]0;first${BEL}out${ESC}]2;⠋ Working — codex${ST}`).announced.title, '⠋ Working — codex');
    assert.equal(scan(`${ESC}]1;icon${BEL}`).announced.title, undefined);
    assert.equal(scan(`${ESC}]2;${BEL}`).announced.title, '', 'an empty title clears it');
  });

  test('kept as written: controls that are not C0 (C1, DEL) stay for the printer to escape; at most MAX_TEXT_CHARS characters', () => {
    assert.equal(scan(`${ESC}]2;a\u009bb\u007fc${BEL}`).announced.title, 'a\u009bb\u007fc');
    assert.equal([...scan(`${ESC}]2;${'é'.repeat(1500)}${BEL}`).announced.title!].length, MAX_TEXT_CHARS);
  });

  test('an ESC inside it cancels it (the terminal would), and it is not a bell', () => {
    const r = scan(`${ESC}]2;bad ${ESC}[31m title${BEL}`);
    assert.equal(r.announced.title, undefined);
    assert.equal(r.signals.length, 1, 'the BEL after a cancelled OSC is a plain bell');
  });
});

describe('OSC announcements: OSC 9;4 progress is not an OSC 9 notification', () => {
  test('states 1..4 set it (with a percent where one is given), 0 clears it', () => {
    assert.deepEqual(progressOf('4;1;42'), { state: 'normal', percent: 42 });
    assert.deepEqual(progressOf('4;2;7'), { state: 'error', percent: 7 });
    assert.deepEqual(progressOf('4;3'), { state: 'indeterminate', percent: null });
    assert.deepEqual(progressOf('4;3;50'), { state: 'indeterminate', percent: null });
    assert.deepEqual(progressOf('4;4'), { state: 'paused', percent: null });
    assert.deepEqual(progressOf('4;1;250'), { state: 'normal', percent: 100 });
    assert.equal(progressOf('4;0;0'), 'clear');
    assert.equal(progressOf('4;0'), 'clear');
    assert.equal(progressOf('4;9;1'), null);
    assert.equal(progressOf('4'), null);
    assert.equal(progressOf('4x;1'), null);
  });

  test('in a scan: 9;4 is progress and rings nothing; 9;text is a notification and no progress', () => {
    const p = scan(`${ESC}]9;4;1;30${BEL}${ESC}]9;4;1;60${ST}`);
    assert.deepEqual(p.signals, []);
    assert.deepEqual(p.announced.progress, { state: 'normal', percent: 60 });
    const n = scan(`${ESC}]9;4 files changed${BEL}`);
    assert.deepEqual(n.signals, [{ source: 'osc9', title: null, message: '4 files changed' }]);
    assert.equal(n.announced.progress, undefined);
  });
});

describe('OSC announcements: OSC 133 semantic-prompt marks', () => {
  test('A, B, C, D with or without an exit code, options after; other letters are not marks', () => {
    assert.deepEqual(promptMarkOf('A'), { phase: 'prompt', exitCode: null });
    assert.deepEqual(promptMarkOf('A;cl=m;aid=12'), { phase: 'prompt', exitCode: null });
    assert.deepEqual(promptMarkOf('B'), { phase: 'input', exitCode: null });
    assert.deepEqual(promptMarkOf('C'), { phase: 'running', exitCode: null });
    assert.deepEqual(promptMarkOf('D;2'), { phase: 'finished', exitCode: 2 });
    assert.deepEqual(promptMarkOf('D;0;aid=1'), { phase: 'finished', exitCode: 0 });
    assert.deepEqual(promptMarkOf('D'), { phase: 'finished', exitCode: null });
    assert.deepEqual(promptMarkOf('D;x'), { phase: 'finished', exitCode: null });
    assert.equal(promptMarkOf('P;k=i'), null);
    assert.equal(promptMarkOf(''), null);
  });

  test('the last mark of a piece counts; the prompt after a D keeps its exit status, a C drops it', () => {
    assert.deepEqual(scan(`${ESC}]133;A${BEL}$ ${ESC}]133;B${BEL}make${ESC}]133;C${BEL}`).announced.mark, { phase: 'running', exitCode: null });
    assert.deepEqual(scan(`${ESC}]133;D;2${BEL}${ESC}]133;A${BEL}$ ${ESC}]133;B${BEL}`).announced.mark, { phase: 'input', exitCode: 2 });
    assert.deepEqual(scan(`${ESC}]133;D;2${BEL}${ESC}]133;C${BEL}`).announced.mark, { phase: 'running', exitCode: null });
  });
});

describe('OSC announcements: OSC 7501 program status', () => {
  test("Codex's forms: state, kind, app; title and msg in base64", () => {
    assert.deepEqual(programReportOf('state=working'), { state: 'working', kind: null, app: null, title: null, message: null });
    assert.deepEqual(programReportOf(`state=blocked:kind=permission:progress=42:id=tf/plan:app=codex:title=${b64('Plan')}:msg=${b64('Apply?')}`),
      { state: 'blocked', kind: 'permission', app: 'codex', title: 'Plan', message: 'Apply?' });
    for (const state of ['idle', 'done', 'error', 'clear'] as const) assert.equal(programReportOf(`state=${state}:app=x`)?.state, state);
  });

  test('an unknown or missing state, or a message that is not base64 of UTF-8, discards the report; the query is not one', () => {
    assert.equal(programReportOf('state=sleepy'), null);
    assert.equal(programReportOf('kind=permission'), null);
    assert.equal(programReportOf('?'), null);
    assert.equal(programReportOf('state=blocked:msg=not base64!'), null);
    assert.equal(programReportOf(`state=blocked:msg=${Buffer.from([0xff, 0xfe]).toString('base64')}`), null);
    assert.equal(programReportOf('state=idle:app=a b;c')?.app, null, 'an app that is not a word is dropped, not the report');
  });

  test('decoded text loses its control characters (it is shown outside the terminal)', () => {
    assert.equal(programReportOf(`state=blocked:msg=${b64('Run \x1b[31mrm\x1b[0m?\x07')}`)?.message, 'Run [31mrm[0m?');
  });

  test('reports in order, each with where it ends; at most MAX_REPORTS per piece (the newest)', () => {
    const text = `a${ESC}]7501;state=working${ST}bc${ESC}]7501;state=idle${BEL}`;
    const r = scan(text);
    const first = text.indexOf('bc');
    assert.deepEqual(r.announced.reports.map((x) => [x.state, x.end]), [['working', first], ['idle', Buffer.byteLength(text)]]);
    const many = Array.from({ length: 40 }, (_, i) => `${ESC}]7501;state=${i % 2 ? 'idle' : 'working'}:app=a${i}${BEL}`).join('');
    const reports = scan(many).announced.reports;
    assert.equal(reports.length, MAX_REPORTS);
    assert.equal(reports.at(-1)!.app, 'a39');
  });
});

describe('OSC announcements: split across pieces, garbage, bounds', () => {
  const stream = [
    `out ${ESC}]2;my title${ST}`,
    `${ESC}]9;4;1;10${BEL}more${ESC}]9;4;0${ST}`,
    `${ESC}]133;C${BEL}`,
    `${ESC}]7501;state=blocked:kind=permission:app=codex${ESC}\\`,
    `${ESC}]99;i=7:d=0:p=title;Hel${ST}${ESC}]99;i=7:p=body;lo${BEL}`,
    `${ESC}]133;D;1${ST}`,
  ].join('');

  test('every cut of the stream gives what the whole gives (byte by byte, 2, 3, 7 bytes a piece)', () => {
    const whole = scanPieces(stream, stream.length * 4);
    assert.deepEqual(whole.titles, ['my title']);
    assert.deepEqual(whole.progress, [{ state: 'normal', percent: 10 }, 'clear'].slice(-1), 'one piece: the last progress report');
    assert.deepEqual(whole.marks, [{ phase: 'finished', exitCode: 1 }]);
    assert.deepEqual(whole.reports, [{ state: 'blocked', kind: 'permission', app: 'codex', title: null, message: null }]);
    assert.deepEqual(whole.signals, [{ source: 'osc99', title: 'Hel', message: 'lo' }]);
    for (const size of [1, 2, 3, 7]) {
      const cut = scanPieces(stream, size);
      assert.deepEqual(cut.titles, whole.titles, `titles, ${size} bytes a piece`);
      assert.deepEqual(cut.reports, whole.reports, `reports, ${size} bytes a piece`);
      assert.deepEqual(cut.signals, whole.signals, `signals, ${size} bytes a piece`);
      assert.deepEqual(cut.marks.at(-1), whole.marks[0]);
      assert.deepEqual(cut.progress.at(-1), 'clear');
    }
  });

  test('ST and BEL end them alike; a cut in the middle of ST is whole in the next piece', () => {
    const state = newScanState();
    assert.equal(scan(`${ESC}]2;t1${ESC}`, state).announced.title, undefined);
    assert.equal(scan('\\', state).announced.title, 't1');
    assert.equal(scan(`${ESC}]2;t2${BEL}`).announced.title, 't2');
  });

  test('garbage: malformed OSC strings, CAN/SUB aborts, unterminated strings and binary noise announce nothing', () => {
    const junk = `${ESC}]7501${BEL}${ESC}]133${BEL}${ESC}]9;4;x${BEL}${ESC}]7501;state=work\x18ing${BEL}${ESC}]2;abc\x1a${ESC}]99;;${ST}${ESC}]`;
    const r = scan(junk);
    assert.deepEqual(r.announced, { title: undefined, progress: undefined, mark: undefined, reports: [] });
    // CAN aborted the 7501 string: what followed it is output, and its BEL a plain bell (as in a terminal).
    assert.deepEqual(r.signals, [{ source: 'bell', title: null, message: null }]);
    const noise = Buffer.alloc(1 << 16);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919 + 13) & 0xff & ~0x07; // no BEL
    assert.doesNotThrow(() => scan(noise));
  });

  test('a huge OSC string keeps at most MAX_OSC_PAYLOAD bytes: the parser stays bounded, and what follows is read', () => {
    const state = newScanState();
    scan(`${ESC}]2;${'x'.repeat(1 << 20)}`, state);
    assert.ok(state.payload.length <= MAX_OSC_PAYLOAD);
    const r = scan(`${'y'.repeat(1 << 20)}${BEL}${ESC}]133;C${BEL}`, state);
    assert.equal(r.announced.title!.length, MAX_TEXT_CHARS, 'the title is the kept head, cut to a title');
    assert.deepEqual(r.announced.mark, { phase: 'running', exitCode: null });
  });
});

describe('OSC 99 (kitty) notifications assembled across parts', () => {
  test('title in one part, body in the next (d=0 means more follows)', () => {
    const r = scanPieces(`${ESC}]99;i=1:d=0:p=title;Hello${ST}${ESC}]99;i=1:p=body;World${ST}`, 5);
    assert.deepEqual(r.signals, [{ source: 'osc99', title: 'Hello', message: 'World' }]);
  });

  test('a closing part with an empty payload does not replace the title and message', () => {
    const parts = `${ESC}]99;i=1:p=title;Hello${ST}${ESC}]99;i=1:p=body;World${ST}${ESC}]99;i=1;${ST}`;
    const r = scan(parts);
    assert.deepEqual(r.signals.at(-1), { source: 'osc99', title: 'Hello', message: 'World' });
    const closing = scan(`${ESC}]99;i=1:d=0:p=title;Hello${ST}${ESC}]99;i=1:d=0:p=body;World${ST}${ESC}]99;i=1:d=1:p=body;${ST}`);
    assert.deepEqual(closing.signals, [{ source: 'osc99', title: 'Hello', message: 'World' }]);
  });

  test('a part that says nothing new is no new signal; another id is another notification', () => {
    const state = newScanState();
    assert.equal(scan(`${ESC}]99;i=a;Title A${ST}`, state).signals.length, 1);
    assert.deepEqual(scan(`${ESC}]99;i=a;${ST}`, state).signals, []);
    assert.deepEqual(scan(`${ESC}]99;i=b;Title B${ST}`, state).signals, [{ source: 'osc99', title: null, message: 'Title B' }]);
    assert.deepEqual(scan(`${ESC}]99;;${ST}`).signals, [], 'an empty notification shows nothing');
  });

  test('parts that never end are bounded', () => {
    const state = newScanState();
    const chunk = `${ESC}]99;i=1:d=0:p=body;${'z'.repeat(4000)}${ST}`;
    for (let i = 0; i < 50; i++) scan(chunk, state);
    assert.ok(state.kitty!.body.length <= 4 * MAX_TEXT_CHARS);
  });
});
