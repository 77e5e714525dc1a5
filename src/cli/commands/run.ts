import { resolve } from 'node:path';
import { commandFromArgs } from '../../core/command.js';
import { CrlfToLf } from '../../core/log-render.js';
import { waitExitCode } from '../../core/signals.js';
import type { SessionView, WaitResult } from '../../core/types.js';
import { AmuxError } from '../../errors.js';
import type { Client } from '../../client/client.js';
import { printJson, writeOut } from '../output.js';
import { InterruptForwarder } from '../interrupt.js';

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
}

/** `amux run`: start a session; print its id, or with -w stream its command's output and exit with its code. */
export async function runCommand(client: Client, args: string[], opts: RunOptions): Promise<number> {
  const cmd = commandFromArgs(args);
  if (opts.wait && !cmd.command && !cmd.argv) throw new AmuxError('usage', '--wait needs a command: amux run -w -- CMD');
  // With -w, Ctrl-C belongs to the command (as in a terminal), even before the session exists.
  const sigint = opts.wait ? new InterruptForwarder(client) : null;
  try {
    const session = await client.json<SessionView>('POST', '/v1/sessions', {
      ...cmd,
      name: opts.name,
      cwd: resolve(opts.cwd ?? process.cwd()),
      env: { ...(process.env as Record<string, string>), ...opts.env },
      autoRemove: opts.rm === true && !opts.wait,
      umask: process.umask(),
      timeoutMs: opts.timeout,
      idleTimeoutMs: opts.idleTimeout,
    });
    if (!sigint) {
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
  const res = await client.raw('GET', `/v1/sessions/${id}/logs?follow=1&job=1`);
  sigint.attach(id, () => res.destroy());
  const crlf = process.stdout.isTTY ? null : new CrlfToLf();
  try {
    for await (const chunk of res) {
      const out = crlf ? crlf.push(chunk) : chunk;
      if (out.length) await writeOut(out);
    }
  } catch (err) {
    if (sigint.count < 2) throw err;
  }
  if (sigint.count > 1) {
    process.stderr.write(`amux: left session ${id} running; see 'amux logs ${id}'\n`);
    return 130;
  }
  if (crlf) {
    const tail = crlf.end();
    if (tail.length) await writeOut(tail);
  }
  const { results } = await client.json<{ results: WaitResult[] }>('POST', '/v1/wait', { ids: [id] });
  const result = results[0]!;
  if (opts.rm) await client.json('DELETE', `/v1/sessions/${id}`);
  if (opts.json) printJson({ ...result });
  return waitExitCode(result);
}
