import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { TestContext } from 'node:test';
import { buildProgram } from '../../src/cli/program.js';
import { AmuxHome, BIN } from '../helpers/amux.js';
import { ExampleShell } from '../helpers/example-runner.js';
import { SCENES, type Scene, withIds, writeProject } from '../helpers/example-scenes.js';
import { helpExamples, markdownBlocks, type Block, type Example } from '../helpers/examples.js';
import { SshLab, sshdUnavailable, type SshHost } from '../helpers/sshd.js';

/**
 * Every runnable example of the README, the guides (src/guides/*.md) and each command's --help runs
 * as written against real tmux (issue 32 item 5, ADR 0065). Markdown files: their `sh` blocks, in
 * order, in one AMUX_HOME per file. --help: each command's examples, in order, in a scene made for
 * them (test/helpers/example-scenes.ts). Files and scenes run side by side.
 */
const ROOT = join(__dirname, '..', '..', '..');
const GUIDES = join(ROOT, 'src', 'guides');
const docs = ['README.md', ...(existsSync(GUIDES) ? readdirSync(GUIDES).filter((f) => f.endsWith('.md')).sort().map((f) => `src/guides/${f}`) : [])];

/** `needs minutes` blocks run only when asked (the suite's budget is minutes in all). */
const MINUTES = process.env.AMUX_EXAMPLES_MINUTES === '1';

/** One sshd for the `needs sshd` blocks, started when the first one runs; every host name leads to it. */
let lab: SshLab | null = null;
let sshHost: SshHost | null = null;
let sshWhy: string | null | undefined;
async function sshEnv(): Promise<{ env: Record<string, string> } | { why: string }> {
  if (sshWhy === undefined) {
    sshWhy = sshdUnavailable();
    if (!sshWhy) {
      try {
        lab = new SshLab();
        sshHost = await lab.host();
        sshWhy = null;
      } catch (err) {
        sshWhy = `cannot start sshd: ${(err as Error).message}`;
      }
    }
  }
  if (sshWhy || !lab || !sshHost) return { why: sshWhy ?? 'no sshd' };
  const config = join(lab.dir, 'ssh_config_examples');
  if (!existsSync(config)) writeFileSync(config, `Host *\n  HostName 127.0.0.1\n  Port ${sshHost.port}\n${readFileSync(lab.config, 'utf8')}`, { mode: 0o600 });
  return { env: { AMUX_SSH_CONFIG: config, AMUX_REMOTE_PATH: BIN } };
}
after(async () => {
  await lab?.cleanup();
});

/** Runs one example of a block with its marker's rule. */
async function runMarked(t: TestContext, sh: ExampleShell, block: Block, ex: Example): Promise<void> {
  const m = block.marker;
  if (m?.kind === 'bad') assert.fail(`${block.where}: ${m.why}`);
  if (m?.kind === 'skip') return void t.skip(m.why);
  if (m?.kind === 'agents') return void t.skip('needs agents: an agent CLI logged in to its model (the agents-*.test.ts run the CLIs against a mock API)');
  if (m?.kind === 'minutes' && !MINUTES) return void t.skip('needs minutes: AMUX_EXAMPLES_MINUTES=1 runs it');
  let env: Record<string, string> = {};
  if (m?.kind === 'sshd') {
    const ssh = await sshEnv();
    if ('why' in ssh) return void t.skip(`needs sshd: ${ssh.why}`);
    env = ssh.env;
  }
  await sh.check(ex, { t, env });
}

/** An AmuxHome and an example shell for one describe block, made before its tests and cleaned up after them. */
function exampleHome(): { readonly h: AmuxHome; readonly sh: ExampleShell } {
  let h: AmuxHome | undefined;
  let sh: ExampleShell | undefined;
  before(() => {
    h = new AmuxHome();
    sh = new ExampleShell(h);
  });
  after(async () => {
    await h?.cleanup();
    sh?.cleanup();
  });
  return { get h() { return h!; }, get sh() { return sh!; } };
}

describe('every example runs as written (ADR 0065)', { concurrency: 4 }, () => {
  for (const file of docs) {
    const blocks = markdownBlocks(file, readFileSync(join(ROOT, file), 'utf8')).filter((b) => b.examples.length > 0 || b.marker?.kind === 'bad');
    if (blocks.length === 0) continue;
    describe(file, { concurrency: 1 }, () => {
      const home = exampleHome();
      for (const block of blocks) {
        if (block.examples.length === 0) test(block.where, () => assert.fail(`${block.where}: ${(block.marker as { why: string }).why}`));
        for (const ex of block.examples) test(`${ex.where}: ${ex.text.split('\n')[0]}`, (t) => runMarked(t, home.sh, block, ex));
      }
    });
  }

  const program = buildProgram(() => undefined);
  const helpOf = (c: typeof program): string => {
    let text = '';
    c.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s) });
    c.outputHelp();
    return text;
  };
  const commands: Array<[string, string]> = [['amux', helpOf(program)], ...program.commands.map((c): [string, string] => [c.name(), helpOf(c)])];
  for (const [name, help] of commands) {
    const where = name === 'amux' ? 'amux --help' : `amux ${name} --help`;
    const examples = helpExamples(where, help);
    describe(where, { concurrency: 1 }, () => {
      test(`${where} has a scene for its examples`, () => {
        assert.ok(SCENES[name], `a scene for amux ${name} in test/helpers/example-scenes.ts`);
        assert.ok(examples.length >= 2, `${where}: ${examples.length} examples`);
      });
      if (!SCENES[name]) return;
      const home = exampleHome();
      let scene: Scene;
      before(async () => {
        const { h, sh } = home;
        writeProject(sh.dir);
        scene = {
          h,
          dir: sh.dir,
          userHome: sh.home,
          env: {},
          ids: {},
          stdin: {},
          amux: (args, opts) => h.ok(args, { cwd: opts?.cwd ?? sh.dir, env: { HOME: sh.home } }),
        };
        await SCENES[name]!(scene);
      });
      for (const ex of examples) {
        test(`${where}: ${ex.text}`, async (t) => {
          await home.sh.check(ex, { t, text: withIds(ex.text, scene.ids), stdin: scene.stdin[ex.text], env: scene.env, cwd: scene.cwd });
        });
      }
    });
  }
});

describe('the examples runner fails what fails (ADR 0065)', () => {
  const home = exampleHome();
  const ex = (text: string, exit = 0): Example => ({ where: 'T.md:1', line: 1, text, exit });

  test('an exit code other than the expected one fails, with the line and its output; # exit N expects N', async () => {
    await assert.rejects(home.sh.check(ex("echo said; echo oops >&2; exit 3")), (e: Error) => /T\.md:1: echo said.*--- exit 3 ---.*said.*oops.*expected exit 0/s.test(e.message));
    await home.sh.check(ex('exit 3  # exit 3', 3));
    await assert.rejects(home.sh.check(ex('true  # exit 3', 3)), /expected exit 3/);
  });

  test('a line sees the variables and the directory the lines before it left', async () => {
    await home.sh.check(ex('greeting=hi; export WHO=you; mkdir -p sub && cd sub'));
    await home.sh.check(ex('test "$greeting $WHO" = "hi you" && test "${PWD##*/}" = sub'));
    await assert.rejects(home.sh.check(ex('test "$nothing" = set')));
  });

  test('a follower passes once it printed and still runs (then Ctrl-C); one that ends with an error fails', async () => {
    await home.h.ok(['run', '-n', 'talker', '--', 'sh', '-c', 'echo hello; sleep 600']);
    const out = await home.sh.check(ex('amux logs -f talker'));
    assert.ok(out.running, 'it was still running when stopped');
    assert.match(out.stdout, /hello/);
    await assert.rejects(home.sh.check(ex('amux logs -f nosuch')), /--- exit 1 ---/);
  });
});
