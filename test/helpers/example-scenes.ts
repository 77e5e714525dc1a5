import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AmuxHome } from './amux.js';

/**
 * The scenes the `--help` examples run in (ADR 0065): per command, written once, what its examples
 * name: a session `web` serving, a `repl`, a shell `sh` with jobs, a stack file… `3f9a01bc`, the
 * sample id of the help texts, stands for the session the scene says (`ids`); `$id` is set when an
 * example uses it. Examples of one command run in order in one scene, so each is written to hold
 * after the ones before it.
 */
export interface Scene {
  h: AmuxHome;
  /** The project directory the examples run in (package.json, Makefile, worker.sh, names.txt, a git repository). */
  dir: string;
  /** The examples' HOME (a temporary directory). */
  userHome: string;
  /** Where the examples run, if not `dir`. */
  cwd?: string;
  /** Variables the examples see (`id`, AMUX_SESSION_ID for `amux state`). */
  env: Record<string, string>;
  /** Sample ids of the help texts and the real ids they stand for. */
  ids: Record<string, string>;
  /** Input for an example, by its text (default: none). */
  stdin: Record<string, string>;
  /** Runs `amux ARGS` from the project directory; its stdout, trimmed (throws unless exit 0). */
  amux(args: string[], opts?: { cwd?: string }): Promise<string>;
}

/** A session's record once `check` holds (a bounded wait on a condition). */
async function until(s: Scene, ref: string, check: (x: any) => boolean): Promise<any> {
  return s.h.until(ref, check, 60_000);
}

/** Writes the project every scene starts from. */
export function writeProject(dir: string): void {
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({
    name: 'demo-app',
    private: true,
    scripts: { dev: 'node server.js', test: 'node -e "console.log(\'3 tests passed\')"', watch: 'node -e "setInterval(() => {}, 1000); console.log(\'watching\')"' },
  }, null, 2));
  writeFileSync(join(dir, 'server.js'), "const s = require('node:http').createServer((q, r) => r.end('ok\\n'));\ns.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${s.address().port}`));\n");
  writeFileSync(join(dir, 'Makefile'), 'all:\n\t@echo built\n\ntest:\n\t@echo tests passed\n');
  writeFileSync(join(dir, 'src', 'Makefile'), 'all:\n\t@echo built src\n');
  writeFileSync(join(dir, 'worker.sh'), '#!/bin/sh\necho "worker: started"\nwhile true; do sleep 5; echo "worker: tick"; done\n');
  chmodSync(join(dir, 'worker.sh'), 0o755);
  writeFileSync(join(dir, 'names.txt'), 'carol\nalice\nbob\n');
  const git = (...a: string[]) => execFileSync('git', a, { cwd: dir, stdio: 'ignore', env: { ...process.env, GIT_AUTHOR_NAME: 'amux', GIT_AUTHOR_EMAIL: 'amux@example.com', GIT_COMMITTER_NAME: 'amux', GIT_COMMITTER_EMAIL: 'amux@example.com' } });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'demo');
}

const live = (x: any) => ['working', 'idle'].includes(x.status);

/** web: a small HTTP server that has said it listens. */
async function web(s: Scene, name = 'web', extra: string[] = []): Promise<string> {
  const id = await s.amux(['run', '-n', name, ...extra, '--', 'node', 'server.js']);
  await until(s, id, (x) => x.logBytes > 0 && live(x));
  return id;
}

/** repl: python3 waiting at its prompt. */
async function repl(s: Scene): Promise<string> {
  const id = await s.amux(['run', '-n', 'repl', '--', 'python3', '-q']);
  await until(s, id, (x) => x.status === 'idle');
  return id;
}

/** A shell session named `name` whose job 1 ran in the foreground; `background`: job 2 runs on. */
async function shell(s: Scene, name: string, job2: 'background' | 'stderr' | null): Promise<string> {
  const id = await s.amux(['run', '-n', name]);
  await until(s, id, (x) => x.status === 'idle');
  await s.amux(['exec', id, '--', 'echo first']);
  if (job2 === 'background') await s.amux(['exec', id, '-b', '--', 'sleep 600']);
  if (job2 === 'stderr') await s.amux(['exec', id, '--', 'echo to stdout; echo oops >&2']).catch(() => undefined);
  return id;
}

/** A session that ended with `code`. */
async function ended(s: Scene, code: number, name?: string): Promise<string> {
  const id = await s.amux(['run', ...(name ? ['-n', name] : []), '--', 'sh', '-c', `echo finishing; exit ${code}`]);
  await until(s, id, (x) => x.endedAt !== null && x.endedAt !== undefined);
  return id;
}

const sleeper = (s: Scene, name: string) => s.amux(['run', '-n', name, '--', 'sleep', '600']);

/** A stack directory (the demo of `amux up --example`) in `dir/app`; its dev.yaml is a copy. */
async function stackDir(s: Scene): Promise<string> {
  const app = join(s.dir, 'app');
  await s.amux(['up', '--example', app]);
  execFileSync('cp', [join(app, 'amux.yaml'), join(app, 'dev.yaml')]);
  return app;
}

/** The MCP client's first message, as `amux mcp` reads it on stdin. */
const MCP_HELLO = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'examples', version: '1' } } })}\n`;

/** Per command (`amux` for the top-level help): what its examples need. */
export const SCENES: Record<string, (s: Scene) => Promise<void>> = {
  amux: async () => undefined,
  run: async () => undefined,
  ps: async (s) => {
    await web(s, 'web', ['-l', 'team=ci']);
    await ended(s, 0);
    const asks = await s.amux(['run', '-n', 'asks', '--', 'bash', '-c', 'printf "continue? \\a"; read x']);
    await until(s, asks, (x) => x.status === 'idle');
  },
  top: async (s) => void (await web(s)),
  inspect: async (s) => void (await web(s)),
  logs: async (s) => {
    await web(s);
    s.ids['3f9a01bc'] = await shell(s, 'sh', 'stderr');
  },
  wait: async (s) => {
    s.env.id = await s.amux(['run', '--', 'sh', '-c', 'echo working; sleep 1; echo done']);
    await repl(s);
    await web(s);
    await sleeper(s, 'build');
    await s.amux(['run', '-n', 'test', '--', 'bash', '-c', 'echo "approve?"; printf "\\a"; read x']);
  },
  kill: async (s) => {
    await web(s);
    await web(s, 'api');
    s.ids['3f9a01bc'] = await shell(s, 'sh', 'background');
  },
  rm: async (s) => {
    s.ids['3f9a01bc'] = await ended(s, 0);
    await web(s);
  },
  send: async (s) => void (await repl(s)),
  state: async (s) => {
    s.env.AMUX_SESSION_ID = await s.amux(['run', '-n', 'migrate', '--', 'sleep', '600']);
  },
  attach: async (s) => void (await web(s)),
  up: async (s) => {
    s.cwd = await stackDir(s);
  },
  down: async (s) => {
    s.cwd = await stackDir(s);
    await s.amux(['up', '-d'], { cwd: s.cwd });
    await s.amux(['up', '-d', '-p', 'myapp'], { cwd: s.cwd });
  },
  exec: async (s) => void (await shell(s, 'sh', null)),
  jobs: async (s) => void (await shell(s, 'sh', 'background')),
  events: async (s) => void (await web(s)),
  history: async (s) => {
    await ended(s, 0);
    await ended(s, 1);
  },
  stats: async (s) => void (await ended(s, 0)),
  pause: async (s) => {
    await sleeper(s, 'build');
    await sleeper(s, 'test');
  },
  resume: async (s) => {
    for (const n of ['build', 'test']) await s.amux(['pause', await sleeper(s, n)]);
  },
  restart: async (s) => {
    await web(s);
    await ended(s, 3);
  },
  rename: async (s) => {
    s.ids['3f9a01bc'] = await s.amux(['run', '--', 'node', 'server.js']);
  },
  prune: async (s) => {
    await ended(s, 0);
    await ended(s, 1);
  },
  group: async () => undefined,
  config: async () => undefined,
  mcp: async (s) => {
    s.stdin['amux mcp'] = MCP_HELLO;
    s.stdin['AMUX_HOME=~/.local/state/amux-agent-1 amux mcp'] = MCP_HELLO;
  },
  context: async () => undefined,
  daemon: async (s) => void (await s.amux(['daemon', 'start'])),
  completion: async (s) => {
    for (const d of ['.local/share/bash-completion/completions', '.zfunc', '.config/fish/completions']) mkdirSync(join(s.userHome, d), { recursive: true });
  },
};

/** An example's text with the help's sample ids replaced by the scene's real ones. */
export function withIds(text: string, ids: Record<string, string>): string {
  let out = text;
  for (const [sample, real] of Object.entries(ids)) out = out.split(sample).join(real);
  return out;
}
