import { resolve } from 'node:path';
import { commandFromArgs } from '../../core/command.js';
import { CrlfToLf } from '../../core/log-render.js';
import { waitExitCode } from '../../core/signals.js';
import type { SessionView, WaitResult } from '../../core/types.js';
import { AmuxError } from '../../errors.js';
import type { Client } from '../../client/client.js';
import { printJson, writeOut } from '../output.js';

export interface RunOptions {
  name?: string;
  cwd?: string;
  env?: Record<string, string>;
  wait?: boolean;
  rm?: boolean;
  json?: boolean;
}

/** `amux run`: start a session; print its id, or with -w stream its command's output and exit with its code. */
export async function runCommand(client: Client, args: string[], opts: RunOptions): Promise<number> {
  const cmd = commandFromArgs(args);
  if (opts.wait && !cmd.command && !cmd.argv) throw new AmuxError('usage', '--wait needs a command: amux run -w -- CMD');
  const session = await client.json<SessionView>('POST', '/v1/sessions', {
    ...cmd,
    name: opts.name,
    cwd: resolve(opts.cwd ?? process.cwd()),
    env: { ...(process.env as Record<string, string>), ...opts.env },
    autoRemove: opts.rm === true && !opts.wait,
    umask: process.umask(),
  });
  if (!opts.wait) {
    if (opts.json) printJson(session);
    else await writeOut(`${session.id}\n`);
    return 0;
  }
  return streamAndWait(client, session, opts);
}

async function streamAndWait(client: Client, session: SessionView, opts: RunOptions): Promise<number> {
  const id = session.id;
  // Ctrl-C is forwarded to the session as a terminal would send it; a second one leaves
  // (the session keeps running, like a detached `docker run`).
  let interrupts = 0;
  const res = await client.raw('GET', `/v1/sessions/${id}/logs?follow=1&job=1`);
  const onSigint = () => {
    if (++interrupts > 1) res.destroy();
    else void client.json('POST', `/v1/sessions/${id}/input`, { keys: ['C-c'], enter: false }).catch(() => undefined);
  };
  process.on('SIGINT', onSigint);
  const crlf = process.stdout.isTTY ? null : new CrlfToLf();
  try {
    for await (const chunk of res) {
      const out = crlf ? crlf.push(chunk) : chunk;
      if (out.length) await writeOut(out);
    }
  } catch (err) {
    if (interrupts < 2) throw err;
  }
  if (interrupts > 1) {
    process.stderr.write(`amux: left session ${id} running; see 'amux logs ${id}'\n`);
    return 130;
  }
  if (crlf) {
    const tail = crlf.end();
    if (tail.length) await writeOut(tail);
  }
  const { results } = await client.json<{ results: WaitResult[] }>('POST', '/v1/wait', { ids: [id] });
  process.off('SIGINT', onSigint);
  const result = results[0]!;
  if (opts.rm) await client.json('DELETE', `/v1/sessions/${id}`);
  if (opts.json) printJson({ ...result });
  return waitExitCode(result);
}
