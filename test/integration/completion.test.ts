import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AmuxHome, BIN } from '../helpers/amux.js';
import { installed } from '../helpers/programs.js';

/** PATH with this tree's bin/amux first: the scripts run `amux`, as an installed one would be. */
const PATH = `${dirname(BIN)}:${process.env.PATH}`;

function shellEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH, AMUX_HOME: home, NO_COLOR: '1' };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}


/**
 * Sources the bash script in a real bash and asks it, as bash's programmable completion does: each
 * query sets COMP_WORDS and COMP_CWORD (and, for `line`, COMP_LINE and COMP_POINT) and calls the
 * completion function. Returns COMPREPLY per query.
 */
function bashComplete(script: string, home: string, queries: Record<string, { words: string[]; line?: string }>): { replies: Record<string, string[]>; stderr: string } {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  let body = `source ${q(script)}\n`;
  for (const [name, { words, line }] of Object.entries(queries)) {
    body += `COMP_WORDS=(${words.map(q).join(' ')}); COMP_CWORD=${words.length - 1}; COMPREPLY=()\n`;
    body += line === undefined ? 'unset COMP_LINE COMP_POINT\n' : `COMP_LINE=${q(line)}; COMP_POINT=${line.length}\n`;
    body += `_amux_complete; echo ${q(`@@ ${name}`)}; printf '%s\\n' "\${COMPREPLY[@]}"\n`;
  }
  const r = spawnSync('bash', ['--norc', '--noprofile', '-c', body], { env: shellEnv(home), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const replies: Record<string, string[]> = {};
  let current = '';
  for (const l of r.stdout.split('\n')) {
    if (l.startsWith('@@ ')) replies[(current = l.slice(3))] = [];
    else if (current && l !== '') replies[current]!.push(l);
  }
  return { replies, stderr: r.stderr };
}

describe('shell completion (README "Shell completion"; ADR 0021)', () => {
  const h = new AmuxHome();
  let script = '';
  let shellId = '';
  let cmdId = '';

  before(async () => {
    script = join(h.home, 'amux.bash');
    writeFileSync(script, await h.ok(['completion', 'bash']));
    shellId = await h.ok(['run', '-n', 'shell-one']);
    cmdId = await h.ok(['run', '-n', 'sleeper', '--', 'sleep 600']);
    await h.ok(['exec', shellId, '--', 'true']);
  });
  after(() => h.cleanup());

  test('bash: commands, flags, option values, a live session id and name, and a job id', () => {
    const { replies, stderr } = bashComplete(script, h.home, {
      commands: { words: ['amux', ''] },
      lo: { words: ['amux', 'lo'] },
      flags: { words: ['amux', 'logs', '--f'] },
      execFlags: { words: ['amux', 'exec', shellId, '-'] },
      ids: { words: ['amux', 'logs', ''] },
      names: { words: ['amux', 'attach', 'sl'] },
      jobs: { words: ['amux', 'logs', `job-${shellId.slice(0, 3)}`] },
      jobsFromJ: { words: ['amux', 'wait', cmdId, 'j'] },
      status: { words: ['amux', 'ps', '--status', 'wo'] },
      // bash splits COMP_WORDS at = and :; the reply is what follows the =.
      statusEq: { words: ['amux', 'ps', '--status', '=', 'wor'], line: 'amux ps --status=wor' },
      until: { words: ['amux', 'wait', shellId, '--until', 'out'] },
      completion: { words: ['amux', 'completion', ''] },
    });
    assert.equal(stderr, '');
    for (const c of ['run', 'ps', 'logs', 'exec', 'wait', 'send', 'completion', 'daemon']) assert.ok(replies.commands!.includes(c), `${c} in ${replies.commands}`);
    assert.deepEqual(replies.lo, ['logs']);
    assert.deepEqual(replies.flags, ['--follow']);
    assert.ok(replies.execFlags!.includes('--interactive') && replies.execFlags!.includes('-b'), String(replies.execFlags));
    for (const v of [shellId, 'shell-one', cmdId, 'sleeper']) assert.ok(replies.ids!.includes(v), `${v} in ${replies.ids}`);
    assert.deepEqual(replies.names, ['sleeper']);
    assert.ok(replies.jobs!.includes(`job-${shellId}-1`), `job-${shellId}-1 in ${replies.jobs}`);
    assert.ok(replies.jobsFromJ!.includes(`job-${shellId}-1`) && replies.jobsFromJ!.includes(`job-${cmdId}-1`), String(replies.jobsFromJ));
    assert.deepEqual(replies.status, ['working']);
    assert.deepEqual(replies.statusEq, ['working']);
    assert.deepEqual(replies.until, ['output:']);
    assert.deepEqual(replies.completion, ['bash', 'zsh', 'fish']);
  });

  test('completing never starts a daemon: no daemon, no ids, no error, the rest still completes', async () => {
    const idle = new AmuxHome();
    try {
      const { replies, stderr } = bashComplete(script, idle.home, {
        commands: { words: ['amux', 'ps', '--no-t'] },
        ids: { words: ['amux', 'logs', ''] },
        jobs: { words: ['amux', 'logs', 'job-'] },
      });
      assert.equal(stderr, '');
      assert.deepEqual(replies.commands, ['--no-trunc']);
      assert.deepEqual(replies.ids, []);
      assert.deepEqual(replies.jobs, []);
      for (const f of ['amux.sock', 'daemon.pid', 'tmux.sock', 'amux.db']) assert.equal(existsSync(join(idle.home, f)), false, `${f} was created`);
      // An AMUX_HOME that cannot be used is no error either.
      const r = spawnSync(process.execPath, [BIN, '__complete', 'logs', ''], { env: { ...shellEnv(idle.home), AMUX_HOME: 'relative/home' }, encoding: 'utf8' });
      assert.equal(r.status, 0);
      assert.equal(r.stderr, '');
      assert.equal(r.stdout, '-\n');
    } finally {
      await idle.cleanup();
    }
  });

  test('the bash script is valid bash and registers itself for amux', () => {
    const r = spawnSync('bash', ['--norc', '--noprofile', '-c', `source '${script}' && complete -p amux`], { env: shellEnv(h.home), encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'complete -F _amux_complete amux');
  });

  test('zsh: the script loads with compinit, sourced or from fpath', async (t) => {
    if (!installed('zsh')) return t.skip('zsh is not installed');
    const dir = join(h.home, 'zfunc');
    execFileSync('mkdir', ['-p', dir]);
    writeFileSync(join(dir, '_amux'), await h.ok(['completion', 'zsh']));
    for (const setup of [`source <(amux completion zsh)`, `fpath=(${dir} $fpath)`]) {
      const body = setup.startsWith('fpath')
        ? `${setup}; autoload -U compinit; compinit -u -D; print -r -- $_comps[amux]`
        : `autoload -U compinit; compinit -u -D; ${setup}; print -r -- $_comps[amux]`;
      const r = spawnSync('zsh', ['-f', '-c', body], { env: shellEnv(h.home), encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stderr, '');
      assert.equal(r.stdout.trim(), '_amux', setup);
    }
  });

  test("fish: the script loads, and fish's own completion offers commands, ids and job ids", (t) => {
    if (!installed('fish')) return t.skip('fish is not installed');
    const ask = (line: string) => {
      const r = spawnSync('fish', ['--no-config', '-c', `amux completion fish | source; complete -C ${JSON.stringify(line)}`], { env: shellEnv(h.home), encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout.split('\n').filter(Boolean).map((l) => l.split('\t')[0]);
    };
    assert.ok(ask('amux lo').includes('logs'));
    const ids = ask('amux logs ');
    assert.ok(ids.includes(shellId) && ids.includes('sleeper'), String(ids));
    assert.ok(ask(`amux kill job-${shellId}`).includes(`job-${shellId}-1`));
    assert.deepEqual(ask('amux ps --status=wor'), ['--status=working']);
  });
});
