import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ControlParser, type ControlBlock } from '../../src/tmux/control-parser.js';
import { controlLine, quoteWord } from '../../src/tmux/control-line.js';
import { newSessionArgs, sendTextArgs, killSessionsArgs, tmuxLiteral } from '../../src/tmux/commands.js';
import { CONTROL_SESSION } from '../../src/tmux/control-client.js';
import { onPath } from '../../src/process/program-path.js';
import type { AmuxError } from '../../src/errors.js';
import { controlClientWanted, Tmux, TmuxCommandError, tmuxRelease } from '../../src/tmux/tmux.js';

function parse(chunks: (string | Buffer)[]): { blocks: ControlBlock[]; notices: string[] } {
  const blocks: ControlBlock[] = [];
  const notices: string[] = [];
  const p = new ControlParser((b) => blocks.push(b), (l) => notices.push(l));
  for (const c of chunks) p.push(c);
  return { blocks, notices };
}

describe('ControlParser', () => {
  test('blocks, errors and notifications, split anywhere', () => {
    const text = '%begin 1 260 0\n%end 1 260 0\n%sessions-changed\n%begin 1 261 1\na\tb\n\n%end 1 261 1\n%begin 1 262 1\nno such session\n%error 1 262 1\n%exit\n';
    for (const size of [1, 3, 7, text.length]) {
      const chunks = text.match(new RegExp(`[^]{1,${size}}`, 'g'))!;
      const { blocks, notices } = parse(chunks);
      assert.deepEqual(blocks, [
        { ok: true, lines: [], fromClient: false },
        { ok: true, lines: ['a\tb', ''], fromClient: true },
        { ok: false, lines: ['no such session'], fromClient: true },
      ]);
      assert.deepEqual(notices, ['%sessions-changed', '%exit']);
    }
  });

  test('an output line that looks like an end, but of another number, is output', () => {
    const { blocks } = parse(['%begin 1 7 1\n%end 1 6 1\n%error 9 8 1\nx\n%end 1 7 1\n']);
    assert.deepEqual(blocks, [{ ok: true, lines: ['%end 1 6 1', '%error 9 8 1', 'x'], fromClient: true }]);
  });

  test('a character split between two chunks arrives whole', () => {
    const bytes = Buffer.from('%begin 1 1 1\nélan ✓\n%end 1 1 1\n');
    const { blocks } = parse([bytes.subarray(0, 15), bytes.subarray(15, 21), bytes.subarray(21)]);
    assert.deepEqual(blocks[0]!.lines, ['élan ✓']);
  });
});

describe('controlLine', () => {
  test('quotes every word; ; alone separates; a trailing \\; is a literal ;', () => {
    assert.equal(controlLine(['kill-session', '-t', '=amux-1', ';', 'kill-session', '-t', '=amux-2']), `'kill-session' '-t' '=amux-1' ; 'kill-session' '-t' '=amux-2'`);
    assert.equal(controlLine(['set-buffer', tmuxLiteral('a;')]), `'set-buffer' 'a;'`);
    assert.equal(controlLine(['set-buffer', 'a;', 'list-panes']), `'set-buffer' 'a' ; 'list-panes'`);
    assert.equal(quoteWord(`it's`), `'it'\\''s'`);
    assert.equal(controlLine(['x', '']), `'x' ''`);
  });

  test('a word with a newline, a carriage return or a NUL has no line', () => {
    for (const bad of ['a\nb', 'a\rb', 'a\0b']) assert.equal(controlLine(['set-buffer', bad]), null);
  });

  test('the builders of amux give lines (new-session, typed text)', () => {
    const spec = { id: 'abcd1234', bash: '/bin/bash', timeout: '/bin/timeout', rcfile: '/tmp/x y/rc', logPrefix: "/tmp/it's/log.", chunkBytes: 1024, keepChunks: 4 };
    assert.ok(controlLine(newSessionArgs(spec)));
    assert.ok(controlLine(sendTextArgs('=amux-1:', 'echo $HOME; ~ #{x} {a} "q" \\')));
    assert.ok(controlLine(killSessionsArgs(['a', 'b'])));
  });
});

/** Real tmux, on a private server of this test (src/guides/contributing.md): what goes in is what tmux gets. */
describe('Tmux through one control client', () => {
  const dir = mkdtempSync('/tmp/amux-ctl-');
  const socket = join(dir, 'tmux.sock');
  // As the daemon would use it with this tmux: on a server of its own before 3.7 (ADR 0067).
  const use = controlClientWanted('on', execFileSync('tmux', ['-V'], { encoding: 'utf8' }));
  const tmux = new Tmux(socket, 'tmux', use);
  const raw = (...a: string[]) => execFileSync('tmux', ['-S', socket, '-f', '/dev/null', ...a], { encoding: 'utf8' });
  after(() => {
    tmux.close();
    try {
      raw('kill-server');
    } catch {
      /* gone */
    }
    rmSync(dir, { recursive: true, force: true });
  });

  const until = async (what: string, ok: () => boolean) => {
    for (const deadline = Date.now() + 30_000; Date.now() < deadline && !ok(); ) await new Promise((r) => setTimeout(r, 25));
    assert.ok(ok(), `never: ${what}`);
  };

  test('every byte of a word arrives as written, through the control client', async () => {
    await tmux.run(['new-session', '-d', '-s', 'keep', '--', 'sleep', '300']);
    await until('the control client is up', () => tmux.controlled);
    assert.ok(raw('list-sessions', '-F', '#{session_name}').includes(CONTROL_SESSION));
    const words = [`it's`, 'a;', '\\;', ';x', '$HOME ~ ~/x', '#{pane_id} ## %d %%', '{ }', '"q" \\ \\\\', 'tab\there', 'élan ✓', ' lead', "''", "'"];
    const before = tmux.controlCalls;
    for (const [i, word] of words.entries()) {
      const file = join(dir, `buf${i}`);
      await tmux.run(['set-buffer', '-b', `t${i}`, '--', tmuxLiteral(word), ';', 'save-buffer', '-b', `t${i}`, file]);
      assert.equal(readFileSync(file, 'utf8'), word, JSON.stringify(word));
    }
    assert.equal(tmux.controlCalls - before, words.length, 'all went through the control client');
  });

  test('output, errors and a chain that stops at its first error, as a process would give them', async () => {
    const out = await tmux.run(['list-sessions', '-F', '#{session_name}']);
    assert.deepEqual(out.split('\n').filter(Boolean).sort(), [CONTROL_SESSION, 'keep']);
    await assert.rejects(tmux.run(['kill-session', '-t', '=nope']), (e: unknown) => e instanceof TmuxCommandError && e.notFound);
    await tmux.run(['new-session', '-d', '-s', 'two', '--', 'sleep', '300']);
    // lenient: what ran is done, the rest of the chain is not, and no error is thrown.
    assert.equal(await tmux.run(['kill-session', '-t', '=two', ';', 'kill-session', '-t', '=nope', ';', 'kill-session', '-t', '=keep'], { lenient: true }), '');
    assert.deepEqual(raw('list-sessions', '-F', '#{session_name}').split('\n').filter(Boolean).sort(), [CONTROL_SESSION, 'keep']);
  });

  test('a word with a newline still arrives (as a process)', async () => {
    const spawns = tmux.spawns;
    const file = join(dir, 'nl');
    await tmux.run(['set-buffer', '-b', 'nl', '--', 'a\nb', ';', 'save-buffer', '-b', 'nl', file]);
    assert.equal(readFileSync(file, 'utf8'), 'a\nb');
    assert.equal(tmux.spawns, spawns + 1);
  });

  test('when the client ends before answering, a read runs again as a process, a change is not repeated', async () => {
    // wait-for holds this client's queue: the calls after it wait in the client until it ends.
    const settle = (p: Promise<string>) => p.then((out) => ({ out, err: null as unknown }), (err: unknown) => ({ out: null, err }));
    const blocked = settle(tmux.run(['wait-for', 'amux-test-block']));
    const read = settle(tmux.run(['list-sessions', '-F', '#{session_name}']));
    const change = settle(tmux.run(['new-session', '-d', '-s', 'late', '--', 'sleep', '300']));
    raw('kill-session', '-t', `=${CONTROL_SESSION}`);
    const isGone = (e: unknown) => e instanceof TmuxCommandError && e.noServer;
    assert.ok(isGone((await blocked).err));
    assert.match((await read).out ?? '', /keep/);
    assert.ok(isGone((await change).err));
    assert.ok(!raw('list-sessions', '-F', '#{session_name}').includes('late'), 'the create was not run');
    await tmux.run(['list-sessions']);
    if (use === 'any-server') return await until('a new control client is up', () => tmux.controlled);
    // own-server: a server that runs on without the client is not joined again (ADR 0067): processes.
    const spawns = tmux.spawns;
    await tmux.run(['new-session', '-d', '-s', 'late', '--', 'sleep', '300']);
    await tmux.run(['kill-session', '-t', '=late']);
    assert.equal(tmux.controlled, false);
    assert.equal(tmux.spawns, spawns + 2);
  });

  test('kill-server by a user ends everything; the next calls work as processes, then through a new client', async () => {
    raw('kill-server');
    await until('the control client has seen the server go', () => !tmux.controlled);
    await assert.rejects(tmux.run(['list-sessions']), (e: unknown) => e instanceof TmuxCommandError && e.noServer);
    assert.equal(await tmux.runIfServer(['list-sessions']), '');
    await tmux.run(['new-session', '-d', '-s', 'again', '--', 'sleep', '300']);
    await until('a new control client is up', () => tmux.controlled);
    const calls = tmux.controlCalls;
    assert.match(await tmux.run(['list-sessions', '-F', '#{session_name}']), /again/);
    assert.equal(tmux.controlCalls, calls + 1);
  });

  test('close() ends the hidden session with the client; the server ends with its last session', async () => {
    tmux.close();
    await until('the control session is gone', () => !raw('list-sessions', '-F', '#{session_name}').includes(CONTROL_SESSION));
    raw('kill-session', '-t', '=again');
    await until('no server', () => {
      try {
        raw('list-sessions');
        return false;
      } catch {
        return true;
      }
    });
  });
});

test('the hidden control session ends within seconds of a daemon killed by SIGKILL', async () => {
  const dir = mkdtempSync('/tmp/amux-ctl-');
  const socket = join(dir, 'tmux.sock');
  const raw = (...a: string[]) => execFileSync('tmux', ['-S', socket, '-f', '/dev/null', ...a], { encoding: 'utf8' });
  const sessions = () => {
    try {
      return raw('list-sessions', '-F', '#{session_name}').split('\n').filter(Boolean);
    } catch {
      return [];
    }
  };
  try {
    // A stand-in for the daemon: a process that runs calls through a control client, then waits.
    const script = `const { Tmux } = require(${JSON.stringify(join(__dirname, '../../src/tmux/tmux.js'))});
      const t = new Tmux(${JSON.stringify(socket)});
      t.run(['new-session', '-d', '-s', 'keep', '--', 'sleep', '300']).then(async () => {
        while (!t.controlled) await new Promise((r) => setTimeout(r, 20));
        console.log('up');
        setInterval(() => undefined, 1000);
      });`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('up') && resolve());
      child.on('exit', () => reject(new Error('the stand-in daemon exited')));
    });
    assert.deepEqual(sessions().sort(), [CONTROL_SESSION, 'keep']);
    child.kill('SIGKILL');
    for (const deadline = Date.now() + 30_000; Date.now() < deadline && sessions().includes(CONTROL_SESSION); ) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(sessions(), ['keep'], 'the control session is gone, the others run on');
  } finally {
    try {
      raw('kill-server');
    } catch {
      /* gone */
    }
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('onPath: the tmux program looked up once', () => {
  test('the first executable file on PATH; a name with a slash, or none found, as given', async () => {
    const { writeFileSync, mkdirSync } = await import('node:fs');
    const dir = mkdtempSync('/tmp/amux-onpath-');
    mkdirSync(`${dir}/a`);
    mkdirSync(`${dir}/b`);
    writeFileSync(`${dir}/a/tool`, 'not executable', { mode: 0o644 });
    writeFileSync(`${dir}/b/tool`, '#!/bin/sh\n', { mode: 0o755 });
    assert.equal(onPath('tool', `${dir}/a:${dir}/b`), `${dir}/b/tool`);
    assert.equal(onPath('./tool', `${dir}/b`), './tool');
    assert.equal(onPath('nothere', `${dir}/a:${dir}/b`), 'nothere');
    assert.equal(onPath('tool', `rel:${dir}/b`), 'tool'); // a relative entry first: left to the spawn
  });
});

describe('controlClientWanted: which tmux gets the control-mode client, and how (ADR 0046, ADR 0067)', () => {
  test('AMUX_TMUX_CONTROL=off: processes, whatever the version; on: the client, on its own server before 3.7', () => {
    assert.equal(controlClientWanted('off', 'tmux 3.7c'), 'off');
    assert.equal(controlClientWanted('on', 'tmux 3.3a'), 'own-server');
    assert.equal(controlClientWanted('on', 'tmux 3.7c'), 'any-server');
    assert.equal(controlClientWanted('on', ''), 'own-server');
  });
  test('another value is a bad setting (exit 2); empty is unset', () => {
    assert.throws(() => controlClientWanted('yes', 'tmux 3.7c'), (e: AmuxError) => e.exitCode === 2 && /AMUX_TMUX_CONTROL="yes": must be on or off/.test(e.message));
    assert.equal(controlClientWanted('', 'tmux 3.7c'), 'any-server');
  });
  test('unset: any server from 3.7 (the crash fixes), its own server before; a version that names no release: processes', () => {
    assert.deepEqual(
      ['tmux 3.2a', 'tmux 3.3a', 'tmux 3.6b', 'tmux 3.7', 'tmux 3.7c', 'tmux next-3.8', 'tmux 4.0', 'tmux master', ''].map((v) => controlClientWanted(undefined, v)),
      ['own-server', 'own-server', 'own-server', 'any-server', 'any-server', 'any-server', 'any-server', 'off', 'off'],
    );
  });
  test('tmuxRelease reads the major and minor', () => {
    assert.deepEqual(tmuxRelease('tmux 3.3a'), [3, 3]);
    assert.deepEqual(tmuxRelease('tmux next-3.7'), [3, 7]);
    assert.equal(tmuxRelease('tmux master'), null);
  });
});
