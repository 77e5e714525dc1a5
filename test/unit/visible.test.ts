import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { visible } from '../../src/core/visible.js';
import { formatInspect } from '../../src/cli/commands/inspect.js';
import type { InspectView } from '../../src/protocol/sessions.js';

/** Anything a terminal would act on: C0 but newline (checked apart), DEL, C1, bidi overrides and isolates. */
const ACTS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const HOSTILE = '\u001b]0;PWNED\u0007\u001b[8m\u001b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u0007 \u009b31m \u202egnp.exe \u2066x\u2069\u007f';

describe('visible', () => {
  test('control characters are written as the JSON writes them; C1 and bidi too', () => {
    assert.equal(visible('a\u001b[31mb\u0007'), 'a\\u001b[31mb\\u0007');
    assert.equal(visible('tab\there\nnl\r'), 'tab\\there\\nnl\\r');
    assert.equal(visible('\u009b\u0085\u007f\u202a\u202e\u2066\u2069'), '\\u009b\\u0085\\u007f\\u202a\\u202e\\u2066\\u2069');
    assert.doesNotMatch(visible(HOSTILE), ACTS);
    assert.doesNotMatch(visible(HOSTILE), /\n/);
  });

  test('plain text, accents, CJK and emoji stay as they are; lines keeps newlines and tabs', () => {
    for (const t of ['npm run dev', 'café → 日本語 😀', 'a\u00a0b', 'ﬀ']) assert.equal(visible(t), t);
    assert.equal(visible('a\n\tb\u001b', true), 'a\n\tb\\u001b');
  });

  test('inspect on a terminal shows a hostile command, reason, event and last output escaped', async () => {
    const at = new Date().toISOString();
    const r = {
      session: {
        id: 'deadbeef', name: null, status: 'working', command: `sleep 9 # ${HOSTILE}`, cwd: `/tmp/${HOSTILE}`, exitCode: null, signal: null,
        error: HOSTILE, reason: `declared: ${HOSTILE}`, foreground: null, createdAt: at, startedAt: at, endedAt: null, durationMs: 1, lastActivityAt: at,
        pid: 1, removed: false, removedAt: null, closedAt: null, logBytes: 0, logTruncated: false, autoRemove: false, timeoutMs: null,
        idleTimeoutMs: null, labels: { k: HOSTILE }, restartOf: null, restarts: 0, restartPolicy: null, group: null, after: [], onEnd: null,
        startAfter: null, attention: { at, source: 'osc', title: HOSTILE, message: HOSTILE }, declared: null,
      },
      jobs: [{ id: 'job-deadbeef-1', sessionId: 'deadbeef', seq: 1, command: HOSTILE, background: false, status: 'running', exitCode: null, signal: null, pid: 1, startedAt: at, endedAt: null, durationMs: 1, tty: true, timeoutMs: null, error: null, stdoutBytes: 0, stderrBytes: 0, stdoutTruncated: false, stderrTruncated: false }],
      events: [{ id: 1, sessionId: 'deadbeef', jobId: null, type: 'state_changed', data: { from: 'pending', to: 'working', reason: HOSTILE }, createdAt: at }],
      lastOutput: `line one\n${HOSTILE}\n`,
    } as unknown as InspectView;
    const text = await formatInspect(r, Date.now());
    assert.doesNotMatch(text, ACTS);
    assert.match(text, /\\u001b\]0;PWNED/);
    assert.match(text, /line one\n/);
  });
});
