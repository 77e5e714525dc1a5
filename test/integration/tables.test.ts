import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AmuxHome, BIN } from '../helpers/amux.js';
import { installed } from '../helpers/programs.js';


describe('human tables (ADR 0023)', () => {
  const h = new AmuxHome();
  let id = '';

  before(async () => {
    id = await h.ok(['run', '-n', 'tabled']);
    await h.ok(['exec', id, '--', 'echo hello']);
  });
  after(() => h.cleanup());

  /** Runs amux on a terminal (util-linux `script` gives it a pty); stdout and stderr come back together. */
  function onTty(args: string[], env: Record<string, string | undefined>): string {
    const e: NodeJS.ProcessEnv = { ...process.env, AMUX_HOME: h.home, TERM: 'xterm', ...env };
    delete e.NODE_EXTRA_CA_CERTS;
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete e[k];
    const r = spawnSync('script', ['-qec', [process.execPath, BIN, ...args].join(' '), '/dev/null'], { env: e, encoding: 'utf8' });
    assert.equal(r.status, 0, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    return r.stdout.replace(/\r\n/g, '\n');
  }

  test('inspect on a terminal: a key/value table, then jobs and events; NO_COLOR leaves out every colour', (t) => {
    if (!installed('script')) return t.skip('script (util-linux) is not installed: no way to give amux a terminal');
    const text = onTty(['inspect', id], { NO_COLOR: '1' });
    assert.match(text, new RegExp(`^│ id +│ ${id} +│$`, 'm'));
    assert.match(text, /^│ name +│ tabled +│$/m);
    assert.match(text, /^│ status +│ (idle|working) \(.+\) +│$/m);
    assert.match(text, /^Jobs \(1\)$/m);
    assert.match(text, new RegExp(`^job-${id}-1 +completed +0 +fg .*echo hello$`, 'm'));
    assert.match(text, new RegExp(`^Events \\(the newest \\d+; all: amux events ${id}\\)$`, 'm'));
    assert.match(text, /session_created/);
    assert.doesNotMatch(text, /\x1b\[/);
    // With colour allowed, the same view is coloured (the test above can tell).
    // (CI=true makes chalk's colour detection say no, whatever the terminal: the test gives a plain terminal.)
    assert.match(onTty(['inspect', id], { NO_COLOR: undefined, CI: undefined, FORCE_COLOR: undefined, TERM: 'xterm-256color' }), /\x1b\[/);
  });

  test('inspect --json on a terminal, and inspect in a pipe, print the JSON record as before', async (t) => {
    const piped = JSON.parse(await h.ok(['inspect', id]));
    assert.equal(piped.session.id, id);
    assert.equal(piped.jobs.length, 1);
    if (!installed('script')) return t.skip('script (util-linux) is not installed');
    assert.equal(JSON.parse(onTty(['inspect', id, '--json'], { NO_COLOR: '1' })).session.id, id);
  });

  test('daemon status: a table of the daemon and the settings in force', async () => {
    const text = await h.ok(['daemon', 'status']);
    assert.match(text, /^amux daemon running \(pid \d+\)$/m);
    assert.match(text, /^│ version +│ \d+\.\d+\.\d+ +│$/m);
    assert.match(text, new RegExp(`^│ home +│ ${h.home} +│$`, 'm'));
    assert.match(text, /^│ maxLive +│ unlimited +│$/m);
    assert.doesNotMatch(text, /\x1b\[/);
  });

  test('ps, run and exec (the fast paths) load neither cli-table3 nor commander; stats loads cli-table3', async () => {
    const preload = join(h.home, 'modules.js');
    writeFileSync(preload, `process.on('exit', () => require('fs').writeSync(2, '\\nMODULES ' + JSON.stringify(Object.keys(require.cache)) + '\\n'));\n`);
    const loaded = async (args: string[]) => {
      const r = await h.run(args, { env: { NODE_OPTIONS: `--require ${preload}` } });
      assert.equal(r.code, 0, r.stderr);
      const m = /\nMODULES (.*)\n/.exec(r.stderr);
      assert.ok(m, r.stderr);
      return (JSON.parse(m[1]!) as string[]).join('\n');
    };
    for (const args of [['ps'], ['ps', '-q'], ['run', '--', 'true'], ['exec', id, '--', 'true']]) {
      const mods = await loaded(args);
      assert.doesNotMatch(mods, /cli-table3/, `amux ${args.join(' ')}`);
      assert.doesNotMatch(mods, /commander/, `amux ${args.join(' ')}`);
    }
    assert.match(await loaded(['stats']), /cli-table3/);
  });
});
