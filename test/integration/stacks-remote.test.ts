import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SshLab, sshdUnavailable, type SshHost } from '../helpers/sshd.js';

/** src/guides/stacks.md, on a remote host: the file and its env_file are read here, the sessions run there. */
describe('stacks on a remote host', () => {
  let lab: SshLab | null = null;
  let host: SshHost;
  let why: string | null = sshdUnavailable();
  const scratch = mkdtempSync('/tmp/amux-rstack-');

  before(async () => {
    if (why) return;
    lab = new SshLab();
    try {
      host = await lab.host();
    } catch (err) {
      why = `cannot start sshd: ${(err as Error).message}`;
    }
  });
  after(async () => {
    await lab?.cleanup();
    rmSync(scratch, { recursive: true, force: true });
  });

  test('up -d, ps --stack, down over --host: env_file read here, cwd absolute there, until readiness decided there', async (t) => {
    if (why || !lab) return t.skip(why ?? 'no sshd');
    const me = lab.local(t);
    const dir = join(scratch, 'far');
    mkdirSync(dir);
    writeFileSync(join(dir, '.env'), 'WHERE=read here\n');
    writeFileSync(join(dir, 'amux.yaml'), [
      'sessions:',
      '  base: { command: \'echo "base $WHERE in $PWD"; sleep 300\', cwd: /tmp, env_file: .env, ready: { until: "output:^base read here" } }',
      '  top: { command: "echo top; sleep 300", depends_on: { base: ready } }',
      '',
    ].join('\n'));
    const on = (...args: string[]) => ['--host', host.url, ...args];
    const up = await me.run(on('up', '-d'), { cwd: dir });
    assert.equal(up.code, 0, up.stderr);
    assert.equal((await me.json(['ps'])).length, 0, 'nothing runs here');
    const there = await host.remote.json(['ps', '--stack', 'far']);
    assert.deepEqual(there.map((s: any) => s.labels.service).sort(), ['base', 'top']);
    assert.match(await host.remote.ok(['logs', 'far-base']), /^base read here in \/tmp$/m);
    assert.equal((await me.json(on('ps', '--stack', 'far'))).length, 2);
    const rel = join(scratch, 'rel');
    mkdirSync(rel);
    writeFileSync(join(rel, 'amux.yaml'), 'sessions:\n  a: { command: "true", cwd: sub }\n');
    const refused = await me.run(on('up', '-d'), { cwd: rel });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /amux\.yaml:2: sessions\.a\.cwd: on a remote host cwd must be an absolute path there/);
    assert.equal((await me.run(on('down', '-p', 'far'))).code, 0);
    assert.deepEqual(await host.remote.json(['ps', '--stack', 'far']), []);
  });
});
