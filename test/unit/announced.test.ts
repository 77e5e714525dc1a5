import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { NO_ATTENTION, type AttentionFields } from '../../src/core/attention.js';
import { currentReport, NO_ANNOUNCEMENTS, overAnnounced, progressReason, reportedState, reportMessage, type Announcements } from '../../src/core/announced.js';
import { visible } from '../../src/core/visible.js';
import { applyFormat, parseFormat } from '../../src/cli/format.js';

const NOW = 1_800_000_000_000;
const fields = (over: Partial<AttentionFields> = {}): AttentionFields => ({ ...NO_ATTENTION, ...over });
const with_ = (over: Partial<Announcements>): Announcements => ({ ...NO_ANNOUNCEMENTS, ...over });
const progress = with_({ progress: { state: 'normal', percent: 42, pgid: 7, at: NOW } });
const running = with_({ mark: { phase: 'running', exitCode: null, at: NOW } });
const finished = with_({ mark: { phase: 'finished', exitCode: 1, at: NOW } });

describe('announced states against the evidence (ADR 0049)', () => {
  test('a declaration (amux state, OSC 7501) wins over progress and marks', () => {
    const ready = fields({ declaredState: 'ready', declaredAt: NOW, declaredSource: 'osc7501', declaredMessage: 'codex done' });
    assert.deepEqual(overAnnounced('working', ready, { ...progress, ...running }, { status: 'working', reason: 'cpu' }, NOW),
      { status: 'idle', reason: 'declared: codex done' });
  });

  test('a progress bar makes idle working, with its percent; not at the session\'s own prompt; working stays as the evidence says', () => {
    assert.deepEqual(overAnnounced('idle', fields(), progress, { status: 'idle', reason: 'reading the terminal' }, NOW), { status: 'working', reason: 'progress 42%' });
    assert.deepEqual(overAnnounced('working', fields(), progress, { status: 'idle', reason: 'at prompt' }, NOW), { status: 'idle', reason: 'at prompt' });
    assert.deepEqual(overAnnounced('idle', fields(), progress, { status: 'working', reason: 'cpu' }, NOW), { status: 'working', reason: 'cpu' });
    assert.equal(progressReason({ state: 'indeterminate', percent: null }), 'progress');
    assert.equal(progressReason({ state: 'paused', percent: 30 }), 'progress 30% (paused)');
  });

  test('an OSC 133 mark decides only where the kernel could not (the screen rule); every kernel verdict stands over it', () => {
    assert.deepEqual(overAnnounced('idle', fields(), running, { status: 'idle', reason: 'screen stable' }, NOW), { status: 'working', reason: 'command running (OSC 133)' });
    assert.deepEqual(overAnnounced('working', fields(), finished, { status: 'working', reason: 'recent output' }, NOW), { status: 'idle', reason: 'at prompt (OSC 133)' });
    for (const d of [{ status: 'idle', reason: 'reading the terminal' }, { status: 'working', reason: 'sleeping' }, { status: 'working', reason: 'output changed' }, { status: 'idle', reason: 'at prompt' }] as const) {
      assert.deepEqual(overAnnounced('idle', fields(), running, d, NOW), d);
      assert.deepEqual(overAnnounced('idle', fields(), finished, d, NOW), d);
    }
  });

  test('ends and pauses pass through everything', () => {
    const end = { status: 'failed' as const, reason: 'command exited', exitCode: 1 };
    assert.deepEqual(overAnnounced('working', fields({ declaredState: 'working', declaredAt: NOW }), progress, end, NOW), end);
    assert.deepEqual(overAnnounced('paused', fields(), progress, { status: 'idle', reason: 'x' }, NOW), { status: 'idle', reason: 'x' });
  });

  test('OSC 7501 states as declared states: working; idle, done, error are ready; blocked is waiting; clear ends', () => {
    assert.deepEqual(['working', 'idle', 'done', 'error', 'blocked', 'clear'].map((state) => reportedState({ state: state as never })),
      ['working', 'ready', 'ready', 'ready', 'waiting', null]);
    assert.equal(reportMessage({ state: 'blocked', kind: 'permission', app: 'codex', title: null, message: 'Apply?' }), 'codex blocked (permission): Apply?');
    assert.equal(reportMessage({ state: 'idle', kind: null, app: null, title: null, message: null }), 'idle');
  });

  test('a look acts on the newest OSC 7501 report of its piece, when it was written after the last input (ADR 0060)', () => {
    // Codex after `done`, as text is typed: `idle` (the text in its composer), then `working` (the Enter).
    const typed = [{ state: 'idle', end: 40 }, { state: 'working', end: 80 }];
    assert.deepEqual(currentReport(typed, 1000, 1010), { state: 'working', end: 80 });
    // A short turn read by one look: its `done`, with no `ready` then `working` flip before it.
    assert.deepEqual(currentReport([{ state: 'working', end: 10 }, { state: 'done', end: 50 }], 0, 0), { state: 'done', end: 50 });
    // All written before the input (the person answered since): none.
    assert.equal(currentReport(typed, 1000, 1080), null);
    assert.equal(currentReport([], 1000, 0), null);
  });
});

describe('a title printed to a terminal (ADR 0050)', () => {
  test('C0, C1 and DEL are escaped, the rest kept', () => {
    assert.equal(visible('⠋ Working\x1b]2;x\x07 \u009b31m\x7f ok'), '⠋ Working\\u001b]2;x\\u0007 \\u009b31m\\u007f ok');
  });

  test('--format prints the title field escaped', () => {
    const out = applyFormat(parseFormat('{{.Title}}', ['title']), [{ title: 'a\x1b[2Jb' }]);
    assert.equal(out, 'a\\u001b[2Jb\n');
  });
});
