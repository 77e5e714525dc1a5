import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  columns, commandText, headerText, layout, matchFilter, parseFilter, previewLines, rowText, scrollTop, sortSessions,
  visibleSessions, CHROME_LINES,
} from '../../src/cli/top/model.js';
import { keepSelection, reduceInput, reduceKey, type UiState } from '../../src/cli/top/keys.js';
import { fit, formatBytes, formatCpu, formatRuntime, textWidth, truncate } from '../../src/cli/top/text.js';
import { sessionView } from '../helpers/session-view.js';

const session = sessionView;

const list: UiState = { filter: '', selectedId: null, mode: { kind: 'list' }, note: null };
const line = (r: { before: string; status: string; after: string }) => r.before + r.status + r.after;

describe('top: text that fits', () => {
  test('truncate cuts with an ellipsis and counts wide characters as two columns', () => {
    assert.equal(truncate('abcdef', 4), 'abc…');
    assert.equal(truncate('abc', 3), 'abc');
    assert.equal(truncate('日本語テキスト', 6), '日本…');
    assert.equal(textWidth(truncate('日本語テキスト', 6)), 5);
    assert.equal(truncate('x', 0), '');
  });

  test('fit pads or cuts to exactly the width, left or right aligned', () => {
    assert.equal(fit('ab', 4), 'ab  ');
    assert.equal(fit('ab', 4, true), '  ab');
    assert.equal(fit('abcdef', 4), 'abc…');
    assert.equal(textWidth(fit('日本語', 5)), 5);
  });

  test('runtime, CPU and memory in a few columns', () => {
    assert.equal(formatRuntime(null), '-');
    assert.equal(formatRuntime(12_400), '12s');
    assert.equal(formatRuntime(184_000), '3m04s');
    assert.equal(formatRuntime(7_380_000), '2h03m');
    assert.equal(formatRuntime(3 * 86_400_000 + 4 * 3_600_000), '3d04h');
    assert.equal(formatCpu(null), '-');
    assert.equal(formatCpu(0.04), '0.0');
    assert.equal(formatCpu(3.25), '3.3');
    assert.equal(formatCpu(99.6), '100');
    assert.equal(formatCpu(230.2), '230');
    assert.equal(formatBytes(undefined), '-');
    assert.equal(formatBytes(640 * 1024), '640K');
    assert.equal(formatBytes(9.5 * 1024 * 1024), '9.5M');
    assert.equal(formatBytes(120 * 1024 * 1024), '120M');
    assert.equal(formatBytes(1.2 * 1024 ** 3), '1.2G');
  });
});

describe('top: order and filter', () => {
  test('live and pending sessions come first, newest first; finished ones below, newest first', () => {
    const oldLive = session({ status: 'idle' });
    const oldDone = session({ status: 'completed', exitCode: 0 });
    const newLive = session({ status: 'working' });
    const pending = session({ status: 'pending' });
    const newDone = session({ status: 'failed', exitCode: 2 });
    const order = sortSessions([oldLive, oldDone, newLive, pending, newDone]).map((s) => s.id);
    assert.deepEqual(order, [pending.id, newLive.id, oldLive.id, newDone.id, oldDone.id]);
  });

  test('status words select statuses, other words match name, id or command', () => {
    const f = parseFilter('  idle Failed web ');
    assert.deepEqual([...f.statuses].sort(), ['failed', 'idle']);
    assert.deepEqual(f.words, ['web']);
    assert.deepEqual([...parseFilter('live').statuses].sort(), ['idle', 'paused', 'pending', 'working']);
    assert.deepEqual([...parseFilter('finished').statuses].sort(), ['completed', 'expired', 'failed', 'stopped']);
    assert.deepEqual(parseFilter('name:idle').words, ['idle']);
    assert.equal(parseFilter('name:idle').statuses.size, 0);
    assert.deepEqual([...parseFilter('status:paused').statuses], ['paused']);
    assert.deepEqual(parseFilter('wor').words, ['wor'], 'a part of a status name is a word');
  });

  test('label:KEY and label:KEY=VALUE select by label, case kept', () => {
    const f = parseFilter('label:team=CI label:tier');
    assert.deepEqual(f.labels, [{ key: 'team', value: 'CI' }, { key: 'tier', value: null }]);
    assert.equal(matchFilter(f, session({ labels: { team: 'CI', tier: '' } })), true);
    assert.equal(matchFilter(f, session({ labels: { team: 'ci', tier: '' } })), false);
    assert.equal(matchFilter(f, session({ labels: { team: 'CI' } })), false);
    assert.equal(matchFilter(parseFilter('label:team idle'), session({ status: 'idle', labels: { team: 'x' } })), true);
  });

  test('matchFilter: any of the statuses, every word', () => {
    const web = session({ name: 'web', status: 'idle', command: 'npm run dev' });
    const api = session({ name: 'api', status: 'working', command: 'npm start' });
    const shell = session({ name: null, status: 'idle', command: null });
    assert.ok(matchFilter(parseFilter('web'), web));
    assert.ok(!matchFilter(parseFilter('web'), api));
    assert.ok(matchFilter(parseFilter('npm'), api));
    assert.ok(matchFilter(parseFilter('npm idle'), web));
    assert.ok(!matchFilter(parseFilter('npm working web'), web));
    assert.ok(matchFilter(parseFilter(web.id.slice(0, 5)), web));
    assert.ok(matchFilter(parseFilter('(shell)'), shell));
    assert.deepEqual(visibleSessions([web, api, shell], 'idle').map((s) => s.id), [shell.id, web.id]);
    // The selected session stays while it no longer matches (a pause under a status filter).
    assert.deepEqual(visibleSessions([web, api, shell], 'idle', api.id).map((s) => s.id).sort(), [shell.id, web.id, api.id].sort());
  });
});

describe('top: layout and rows', () => {
  test('the frame fills the terminal but its last line, with room for the preview', () => {
    for (const [h, n] of [[24, 3], [24, 50], [40, 5], [40, 100], [10, 2], [8, 0]] as const) {
      const { tableRows, previewRows } = layout(h, n);
      assert.equal(CHROME_LINES + tableRows + previewRows, h - 1, `height ${h}, ${n} rows`);
      assert.ok(tableRows >= 1);
      if (n > 0 && n <= 3) assert.equal(tableRows, n, 'few rows take what they need');
    }
    assert.equal(layout(24, 50).tableRows, 9);
    assert.ok(layout(24, 50).previewRows >= 9);
  });

  test('scrollTop keeps the selection in the window and moves as little as it can', () => {
    assert.equal(scrollTop(0, 5, 10), 0);
    assert.equal(scrollTop(12, 30, 10, 0), 3);
    assert.equal(scrollTop(5, 30, 10, 3), 3);
    assert.equal(scrollTop(2, 30, 10, 3), 2);
    assert.equal(scrollTop(29, 30, 10, 25), 20);
  });

  test('rows fit the width (80 and 120): long values are cut to end at the last column', () => {
    const rows = [
      session({ name: 'a-very-long-session-name-indeed', reason: 'reading the terminal', command: `make ${'x'.repeat(200)}` }),
      session({ name: 'web', status: 'completed', exitCode: 0, reason: 'command exited', cpuPercent: null, rssBytes: null }),
      session({ name: '日本語の名前', command: 'echo 日本語'.repeat(20) }),
    ];
    for (const width of [80, 120]) {
      const c = columns(width, rows);
      assert.ok(c.showReason && c.showUsage);
      for (const [i, s] of rows.entries()) {
        const text = line(rowText(s, c, i === 0));
        // A long command fills the line to the last column; a short one ends early.
        if (i === 1) assert.ok(textWidth(text) < width);
        else assert.equal(textWidth(text), width, `row ${i} at ${width}: ${JSON.stringify(text)}`);
      }
      assert.ok(textWidth(headerText(c)) <= width);
      assert.ok(headerText(c).startsWith('  ID       '));
    }
    const wide = line(rowText(rows[0]!, columns(120, rows), false));
    const narrow = line(rowText(rows[0]!, columns(80, rows), false));
    assert.ok(wide.indexOf('make') >= 0 && narrow.indexOf('make') >= 0);
    assert.ok(wide.includes('reading the terminal'), 'a wide terminal shows the whole reason');
  });

  test('a narrow terminal drops CPU/MEM, then REASON', () => {
    const rows = [session({ name: 'x' })];
    assert.equal(columns(63, rows).showUsage, false);
    assert.equal(columns(63, rows).showReason, true);
    assert.equal(columns(49, rows).showReason, false);
    assert.doesNotMatch(headerText(columns(49, rows)), /REASON|CPU|MEM/);
  });

  test('cells: the selection marker, the exit code, usage only for live sessions', () => {
    const done = session({ status: 'failed', exitCode: 3, name: 'job', reason: 'command exited' });
    const live = session({ status: 'working', name: 'busy', cpuPercent: 87.4, rssBytes: 12 * 1024 * 1024 });
    const c = columns(80, [done, live]);
    const d = line(rowText(done, c, true));
    assert.ok(d.startsWith(`▶ ${done.id} job`));
    assert.match(d, / 3 /);
    assert.doesNotMatch(d, /1\.5|4\.0M/);
    const l = line(rowText(live, c, false));
    assert.ok(l.startsWith(`  ${live.id}`));
    assert.match(l, / 87 +12M /);
    assert.equal(rowText(live, c, false).status, 'working  ');
  });

  test('COMMAND names the foreground program when it is not the command itself', () => {
    assert.equal(commandText(session({ command: null, foreground: null })), '(shell)');
    assert.equal(commandText(session({ command: null, foreground: 'vim' })), '(shell) vim');
    assert.equal(commandText(session({ command: 'make -j4', foreground: 'cc1' })), '[cc1] make -j4');
    assert.equal(commandText(session({ command: 'make -j4', foreground: 'make' })), 'make -j4');
    assert.equal(commandText(session({ command: '/usr/bin/python3 x.py', foreground: 'python3' })), '/usr/bin/python3 x.py');
    assert.equal(commandText(session({ command: 'npm run dev', foreground: 'npm run dev' })), 'npm run dev', "npm's process title is its command line");
  });

  test('the preview keeps the last lines that fit, without trailing blank ones, cut to the width', () => {
    const text = 'one\ntwo\nthree\n' + 'x'.repeat(100) + '\n\n\n   \n';
    assert.deepEqual(previewLines(text, 2, 10), ['three', `${'x'.repeat(9)}…`]);
    assert.deepEqual(previewLines('a\tb\x1bc', 5, 20), ['a b c']);
    assert.deepEqual(previewLines('', 5, 20), []);
  });
});

describe('top: keys', () => {
  const a = session({ name: 'a', status: 'working' });
  const b = session({ name: 'b', status: 'idle' });
  const p = session({ name: 'p', status: 'paused' });
  const done = session({ name: 'done', status: 'completed', exitCode: 0 });
  const rows = [a, b, p, done];
  const at = (id: string): UiState => ({ ...list, selectedId: id });

  test('j/k and the arrows move the selection, and stop at the ends; g/G/PgUp/PgDn jump', () => {
    assert.equal(reduceKey(at(a.id), 'j', {}, rows, 5).state.selectedId, b.id);
    assert.equal(reduceKey(at(b.id), '', { down: true }, rows, 5).state.selectedId, p.id);
    assert.equal(reduceKey(at(b.id), 'k', {}, rows, 5).state.selectedId, a.id);
    assert.equal(reduceKey(at(b.id), '', { up: true }, rows, 5).state.selectedId, a.id);
    assert.equal(reduceKey(at(a.id), 'k', {}, rows, 5).state.selectedId, a.id);
    assert.equal(reduceKey(at(done.id), 'j', {}, rows, 5).state.selectedId, done.id);
    assert.equal(reduceKey(at(a.id), 'G', {}, rows, 5).state.selectedId, done.id);
    assert.equal(reduceKey(at(done.id), 'g', {}, rows, 5).state.selectedId, a.id);
    assert.equal(reduceKey(at(a.id), '', { pageDown: true }, rows, 2).state.selectedId, p.id);
  });

  test('q and Ctrl-C quit; Ctrl-C also from a prompt', () => {
    assert.deepEqual(reduceKey(at(a.id), 'q', {}, rows, 5).effect, { type: 'quit' });
    assert.deepEqual(reduceKey(at(a.id), 'c', { ctrl: true }, rows, 5).effect, { type: 'quit' });
    const typing: UiState = { ...at(a.id), mode: { kind: 'send', id: a.id, label: 'a', text: 'q' } };
    assert.equal(reduceKey(typing, 'q', {}, rows, 5).effect, undefined, 'q is text in a prompt');
    assert.deepEqual(reduceKey(typing, 'c', { ctrl: true }, rows, 5).effect, { type: 'quit' });
  });

  test('/ types a filter; Enter keeps it, Esc goes back to the one before; Esc in the list clears it', () => {
    let s = reduceKey(at(a.id), '/', {}, rows, 5).state;
    assert.equal(s.mode.kind, 'filter');
    for (const ch of 'web') s = reduceKey(s, ch, {}, rows, 5).state;
    assert.equal(s.filter, 'web');
    s = reduceKey(s, '', { backspace: true }, rows, 5).state;
    assert.equal(s.filter, 'we');
    const kept = reduceKey(s, '', { enter: true }, rows, 5).state;
    assert.deepEqual([kept.filter, kept.mode.kind], ['we', 'list']);
    const cancelled = reduceKey(s, '', { escape: true }, rows, 5).state;
    assert.deepEqual([cancelled.filter, cancelled.mode.kind], ['', 'list']);
    assert.equal(reduceKey(kept, '', { escape: true }, rows, 5).state.filter, '');
  });

  test('several characters in one read: keys in the list, text in a prompt; a pasted line end is Enter and ends it', () => {
    const r = reduceInput(at(a.id), '/web', {}, rows, 5);
    assert.deepEqual([r.state.mode.kind, r.state.filter], ['filter', 'web']);
    const send: UiState = { ...at(b.id), mode: { kind: 'send', id: b.id, label: 'b', text: '' } };
    const pasted = reduceInput(send, 'echo hi\rKy', {}, rows, 5);
    assert.deepEqual(pasted.effect, { type: 'send', session: b, text: 'echo hi' });
    assert.equal(pasted.state.mode.kind, 'list');
    assert.equal(reduceInput(at(a.id), 'jj', {}, rows, 5).state.selectedId, p.id);
  });

  test('? shows help and any key closes it', () => {
    const help = reduceKey(at(a.id), '?', {}, rows, 5).state;
    assert.equal(help.mode.kind, 'help');
    const back = reduceKey(help, 'q', {}, rows, 5);
    assert.equal(back.state.mode.kind, 'list');
    assert.equal(back.effect, undefined);
  });

  test('Enter attaches and l follows the selected session', () => {
    assert.deepEqual(reduceKey(at(b.id), '', { enter: true }, rows, 5).effect, { type: 'attach', session: b });
    assert.deepEqual(reduceKey(at(done.id), 'l', {}, rows, 5).effect, { type: 'logs', session: done });
    assert.equal(reduceKey(list, '', { enter: true }, [], 5).state.note?.error, true);
  });

  test('s prompts for a line for a live session, Enter sends it, Esc cancels; not for a finished one', () => {
    let s = reduceKey(at(b.id), 's', {}, rows, 5).state;
    assert.deepEqual(s.mode, { kind: 'send', id: b.id, label: 'b (' + b.id + ')', text: '' });
    s = reduceKey(s, 'echo hi', {}, rows, 5).state;
    const sent = reduceKey(s, '', { enter: true }, rows, 5);
    assert.deepEqual(sent.effect, { type: 'send', session: b, text: 'echo hi' });
    assert.equal(reduceKey(s, '', { escape: true }, rows, 5).effect, undefined);
    const refused = reduceKey(at(done.id), 's', {}, rows, 5);
    assert.equal(refused.state.mode.kind, 'list');
    assert.match(refused.state.note!.text, /completed: only a live session takes input/);
  });

  test('p pauses a working or idle session and resumes a paused one', () => {
    assert.deepEqual(reduceKey(at(a.id), 'p', {}, rows, 5).effect, { type: 'pause', session: a });
    assert.deepEqual(reduceKey(at(b.id), 'p', {}, rows, 5).effect, { type: 'pause', session: b });
    assert.deepEqual(reduceKey(at(p.id), 'p', {}, rows, 5).effect, { type: 'resume', session: p });
    assert.equal(reduceKey(at(done.id), 'p', {}, rows, 5).effect, undefined);
  });

  test('K asks, y kills, any other key cancels; a finished session is not asked about', () => {
    const asked = reduceKey(at(a.id), 'K', {}, rows, 5);
    assert.equal(asked.effect, undefined);
    assert.equal(asked.state.mode.kind, 'confirm');
    assert.match((asked.state.mode as { question: string }).question, /kill a .*\[y\/n\]/);
    assert.deepEqual(reduceKey(asked.state, 'y', {}, rows, 5).effect, { type: 'kill', session: a });
    const no = reduceKey(asked.state, 'n', {}, rows, 5);
    assert.equal(no.effect, undefined);
    assert.equal(no.state.mode.kind, 'list');
    assert.equal(reduceKey(asked.state, 'y', {}, [b], 5).effect, undefined, 'the session went away meanwhile');
    assert.equal(reduceKey(at(done.id), 'K', {}, rows, 5).state.mode.kind, 'list');
  });

  test('d removes a finished session at once; a live one after a y, killing it first', () => {
    assert.deepEqual(reduceKey(at(done.id), 'd', {}, rows, 5).effect, { type: 'remove', session: done, force: false });
    const asked = reduceKey(at(b.id), 'd', {}, rows, 5);
    assert.equal(asked.effect, undefined);
    assert.deepEqual(reduceKey(asked.state, 'y', {}, rows, 5).effect, { type: 'remove', session: b, force: true });
  });

  test('keepSelection stays on the session, or on the row at the same place when it is gone', () => {
    assert.equal(keepSelection(rows, b.id, 0), b.id);
    assert.equal(keepSelection(rows, 'gone', 2), p.id);
    assert.equal(keepSelection(rows, 'gone', 9), done.id);
    assert.equal(keepSelection([], b.id, 0), null);
    assert.equal(keepSelection(rows, null), a.id);
  });
});
