import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { commandFromArgs } from '../../core/command.js';
import { AmuxError } from '../../errors.js';
import type { Client, Stream } from '../../client/client.js';
import { endedCode } from '../ended.js';
import { pipeFollowed } from '../follow.js';
import { printJson, writeOut } from '../output.js';
import { InterruptForwarder } from '../interrupt.js';
import { Tail } from '../tail.js';
import { renderPlain } from '../../core/log-render.js';

export interface RunOptions {
  name?: string;
  cwd?: string;
  env?: Record<string, string>;
  wait?: boolean;
  rm?: boolean;
  json?: boolean;
  /** ms */
  timeout?: number;
  idleTimeout?: number;
  label?: Record<string, string>;
  restart?: string;
  /** ms */
  delay?: number;
  group?: string;
  /** Comma-separated session references. */
  after?: string;
  onEnd?: string;
}

/**
 * docker's habit `run -w DIR` (its working directory flag) would run the argv `DIR -- CMD` here,
 * where `-w` is --wait: refused with a hint (src/guides/sessions.md: run).
 */
function refuseDirAsCommand(args: readonly string[]): void {
  if (args.length < 2 || args[1] !== '--') return;
  let dir = false;
  try {
    dir = statSync(args[0]!).isDirectory();
  } catch {
    return;
  }
  if (dir) throw new AmuxError('usage', `'${args[0]}' is a directory, not a command: did you mean -C ${args[0]}? (-w is --wait)`);
}

/** `amux run`: start a session; print its id, or with -w stream its command's output and exit with its code. */
export async function runCommand(client: Client, args: string[], opts: RunOptions): Promise<number> {
  refuseDirAsCommand(args);
  const cmd = commandFromArgs(args);
  if (opts.wait && !cmd.command && !cmd.argv) throw new AmuxError('usage', '--wait needs a command: amux run -w -- CMD');
  if (opts.cwd === '') throw new AmuxError('usage', "-C needs a directory; leave it out to run here, or give '.'");
  // With -w, Ctrl-C belongs to the command (as in a terminal), even before the session exists.
  const sigint = opts.wait ? new InterruptForwarder(client) : null;
  try {
    const remote = client.remote;
    if (remote && opts.cwd !== undefined && !opts.cwd.startsWith('/')) throw new AmuxError('usage', `-C on ${remote.url} needs an absolute path there, not '${opts.cwd}'`);
    let session = await client.sessions.create({
      ...cmd,
      name: opts.name,
      // On another machine, this one's directory and environment mean nothing: its HOME and its
      // environment, plus -e (src/guides/remote.md).
      ...(remote
        ? { cwd: opts.cwd, env: opts.env, hostEnv: true }
        : { cwd: resolve(opts.cwd ?? process.cwd()), env: { ...(process.env as Record<string, string>), ...opts.env }, umask: process.umask() }),
      autoRemove: opts.rm === true && !opts.wait,
      timeoutMs: opts.timeout,
      idleTimeoutMs: opts.idleTimeout,
      labels: opts.label,
      restart: opts.restart,
      delayMs: opts.delay,
      group: opts.group,
      after: opts.after?.split(',').filter(Boolean),
      onEnd: opts.onEnd,
    });
    if (!sigint) {
      // The id is given once the session runs (ADR 0040), so that what the script does next with
      // it (send, exec, attach) finds it started, however long tmux takes.
      session = await client.sessions.running(session);
      if (opts.json) printJson(session);
      else await writeOut(`${session.id}\n`);
      return 0;
    }
    return await streamAndWait(client, session.id, opts, sigint);
  } finally {
    sigint?.stop();
  }
}

async function streamAndWait(client: Client, id: string, opts: RunOptions, sigint: InterruptForwarder): Promise<number> {
  // Ctrl-C goes to the session from now on, also while the stream has not begun (a pending session).
  let res: Stream | null = null;
  sigint.attach(id, () => res?.destroy(), (signal) => client.sessions.kill(id, { signal }));
  res = await client.sessions.logs(id, { follow: true, job: 1 });
  if (sigint.count > 1) res.destroy();
  // With --json, stdout holds one JSON object and nothing else: the output goes into it, not to stdout.
  const output = opts.json ? new Tail() : null;
  const sink = output ? async (data: Buffer) => output.push(data) : writeOut;
  if (!(await pipeFollowed(res, sigint, !process.stdout.isTTY || output !== null, sink))) {
    process.stderr.write(`amux: left session ${id} running; see 'amux logs ${id}'\n`);
    return 130;
  }
  const { results } = await client.wait({ ids: [id] });
  const result = results[0]!;
  if (opts.rm) await client.sessions.remove(id);
  if (output) printJson({ ...result, output: renderPlain(output.text()) });
  return endedCode('session', result);
}
