import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { amuxHome } from '../helpers/amux.js';

const HOSTILE = [
  `it's "quoted"`,
  '$HOME',
  '`id`',
  '$(touch /tmp/amux-injected)',
  'a\nb',
  'ünïcödé ✓ 日本',
  '; rm -rf /tmp/nothing;',
  '*',
  '-n',
  '',
  '\\;',
  '#{session_name}',
];

describe('arguments are passed literally', () => {
  const h = amuxHome({ after });

  test('several words after -- are an exact argv', async () => {
    const r = await h.run(['run', '-w', '--', 'printf', '[%s]\\n', ...HOSTILE]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, HOSTILE.map((w) => `[${w}]\n`).join(''));
  });

  test('one word after -- is a shell line', async () => {
    const r = await h.run(['run', '-w', '--', 'x=41; echo $((x+1)) "$HOME"'], { env: { HOME: '/home/literal' } });
    assert.equal(r.stdout, '42 /home/literal\n');
  });

  test('a 100 KB argument arrives whole', async () => {
    const big = 'x'.repeat(100 * 1024);
    const r = await h.run(['run', '-w', '--', 'sh', '-c', 'printf %s "$1" | wc -c', 'sh', big]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), String(big.length));
  });

  test('env values and names reach the command literally; the caller environment is inherited', async () => {
    const value = `'"$HOME\`id\`\n;`;
    const r = await h.run(['run', '-w', '-e', `WEIRD=${value}`, '--', 'printf "%s|%s" "$WEIRD" "$FROM_CALLER"'], {
      env: { FROM_CALLER: 'yes' },
    });
    assert.equal(r.stdout, `${value}|yes`);
  });

  test('-C sets the working directory, also with odd characters', async () => {
    const { mkdtempSync, mkdirSync, rmSync } = await import('node:fs');
    const base = mkdtempSync('/tmp/amux-cwd-');
    try {
      const dir = `${base}/a b;#{x}$(id)`;
      mkdirSync(dir);
      const r = await h.run(['run', '-w', '-C', dir, '--', 'pwd']);
      assert.equal(r.stdout, `${dir}\n`);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  test('nothing was injected', async () => {
    const { existsSync } = await import('node:fs');
    assert.equal(existsSync('/tmp/amux-injected'), false);
  });
});
