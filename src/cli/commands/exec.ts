import { commandFromArgs } from '../../core/command.js';
import { FRAME, FrameParser } from '../../protocol/frames.js';
import { renderPlain } from '../../core/log-render.js';
import { AmuxError, EXIT } from '../../errors.js';
import type { Client, Stream } from '../../client/client.js';
import type { ExecRequest, JobView } from '../../protocol/jobs.js';
import { endedCode } from '../ended.js';
import { pipeFollowed } from '../follow.js';
import type { ExecFlags } from '../parse.js';
import { printJson, writeOut } from '../output.js';
import { signalNumber } from '../../core/signals.js';
import { InterruptForwarder } from '../interrupt.js';
import { Tail } from '../tail.js';

function jsonResult(job: JobView, stdout: string, stderr: string) {
  return {
    jobId: job.id, status: job.status, exitCode: job.exitCode, signal: job.signal, error: job.error, stdout, stderr,
    durationMs: job.durationMs, stdoutBytes: job.stdoutBytes, stderrBytes: job.stderrBytes,
    stdoutTruncated: job.stdoutTruncated, stderrTruncated: job.stderrTruncated,
  };
}

/**
 * `amux exec`: run a job in a session's shell. Foreground: its stdout to ours, its stderr to
 * ours, its exit code ours (`--json`: one object instead); with `-i`, our stdin its stdin.
 * `-b`: print the job id and pid.
 */
export async function execCommand(client: Client, ref: string, args: string[], opts: ExecFlags): Promise<number> {
  const cmd = commandFromArgs(args);
  if (!cmd.command && !cmd.argv) throw new AmuxError('usage', 'exec needs a command: amux exec ID -- CMD');
  if (opts.background && opts.tty) throw new AmuxError('usage', '--tty is for foreground jobs; drop -b or --tty');
  if (opts.interactive && opts.background) throw new AmuxError('usage', '-i is for foreground jobs: a background job (-b) reads /dev/null; drop -i or -b');
  if (opts.interactive && opts.tty) throw new AmuxError('usage', "-i is for captured jobs: a --tty job reads the session's terminal (use 'amux send'); drop -i or --tty");
  const body: ExecRequest = { ...cmd, background: opts.background === true, tty: opts.tty === true, timeoutMs: opts.timeout };
  if (opts.interactive) body.stdin = true;
  if (opts.background) {
    const job = await client.jobs.exec(ref, body);
    if (opts.json) printJson(job);
    else await writeOut(`${job.id} ${job.pid ?? ''}\n`);
    return 0;
  }
  const sigint = new InterruptForwarder(client);
  try {
    return opts.tty ? await execOnTerminal(client, ref, body, opts, sigint) : await execCaptured(client, ref, body, opts, sigint);
  } finally {
    sigint.stop();
  }
}

async function execCaptured(client: Client, ref: string, body: ExecRequest, opts: ExecFlags, sigint: InterruptForwarder): Promise<number> {
  const request = client.jobs.execStream(ref, body);
  let res: Stream;
  try {
    res = await new Promise<Stream>((resolve, reject) => {
      sigint.cancelBeforeAttach(() => reject(new AmuxError('operation_failed', 'interrupted before the job started; it will not run')));
      request.then(resolve, reject);
    });
  } catch (e) {
    if (sigint.cancelledBy) {
      process.stderr.write(`amux: ${sigint.cancelledBy} before the job started; it will not run\n`);
      process.exit(128 + signalNumber(sigint.cancelledBy)); // closes the request: the daemon records the job as cancelled
    }
    throw e;
  }
  // The job has started (the daemon answers then): a Ctrl-C from here on is passed on, not a cancel.
  sigint.cancelBeforeAttach(null);
  const parser = new FrameParser();
  const out = new Tail();
  const err = new Tail();
  let started: JobView | null = null;
  let ended: JobView | null = null;
  let stdin: StdinForwarder | null = null;
  try {
    for await (const chunk of res) {
      for (const f of parser.push(chunk)) {
        if (f.type === FRAME.start) {
          started = JSON.parse(f.payload.toString('utf8')) as JobView;
          const job = started.id;
          sigint.attach(started.sessionId, () => res.destroy(), (signal) => client.jobs.kill(job, { signal }));
          if (body.stdin) stdin = new StdinForwarder(client, job);
        } else if (f.type === FRAME.stdout) {
          if (opts.json) out.push(f.payload);
          else await writeOut(f.payload);
        } else if (f.type === FRAME.stderr) {
          if (opts.json) err.push(f.payload);
          else await writeOut(f.payload, process.stderr);
        } else if (f.type === FRAME.end) ended = JSON.parse(f.payload.toString('utf8')) as JobView;
      }
    }
  } catch (e) {
    if (sigint.count < 2) throw e;
  } finally {
    // The job has ended (or we leave it): stop reading our stdin, so that one left open never holds us.
    stdin?.stop();
  }
  if (!ended) return leftRunning(started, sigint);
  if (opts.json) printJson(jsonResult(ended, out.text(), err.text()));
  return endedCode('job', ended);
}

/** `--tty`: the job runs on the terminal; its output is the session log between its markers. */
async function execOnTerminal(client: Client, ref: string, body: ExecRequest, opts: ExecFlags, sigint: InterruptForwarder): Promise<number> {
  const job = await client.jobs.exec(ref, body);
  const res = await client.sessions.logs(job.sessionId, { follow: true, job: job.seq });
  sigint.attach(job.sessionId, () => res.destroy(), (signal) => client.jobs.kill(job.id, { signal }));
  const collected: Buffer[] = [];
  const sink = async (data: Buffer): Promise<void> => {
    if (opts.json) collected.push(data);
    else await writeOut(data);
  };
  if (!(await pipeFollowed(res, sigint, !process.stdout.isTTY || opts.json === true, sink))) return leftRunning(job, sigint);
  const { results } = await client.wait({ ids: [job.id] });
  if (opts.json) {
    const ended = await client.jobs.get(job.id);
    printJson(jsonResult(ended, renderPlain(Buffer.concat(collected).toString('utf8')), ''));
  }
  return endedCode('job', results[0]!);
}

/**
 * `-i`: our stdin streams into the job's stdin (`POST /v1/jobs/{id}/stdin`), at the pace the job
 * reads it; its end is the job's EOF. Stopped when the job ends, whether or not it read everything.
 */
class StdinForwarder {
  private readonly abort = new AbortController();

  constructor(client: Client, private readonly jobId: string) {
    client.jobs.stdin(jobId, process.stdin, this.abort.signal).catch((e: unknown) => {
      // A job that ended before the request reached the daemon has no stdin any more (invalid_state):
      // its end frame tells the rest. Anything else is said, in one line.
      if (this.abort.signal.aborted || (e instanceof AmuxError && e.code === 'invalid_state')) return;
      process.stderr.write(`amux: stdin not passed on to job ${this.jobId}: ${(e as Error).message}\n`);
    });
  }

  stop(): void {
    this.abort.abort();
    process.stdin.destroy();
  }
}

function leftRunning(job: JobView | null, sigint: InterruptForwarder): number {
  if (sigint.count > 1) {
    process.stderr.write(`amux: left ${job ? `job ${job.id}` : 'the job'} running; see 'amux logs ${job?.id ?? ''}'\n`);
    return 130;
  }
  process.stderr.write(`amux: the daemon stopped while ${job ? `job ${job.id}` : 'the job'} ran; the job keeps running ('amux wait ${job?.id ?? ''}')\n`);
  return EXIT.daemon;
}
