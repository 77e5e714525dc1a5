import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readBody, send } from '../../src/client/http.js';
import { FRAME, FrameParser } from '../../src/protocol/frames.js';
import type { JobView } from '../../src/protocol/jobs.js';
import { pathOf, ROUTES } from '../../src/protocol/routes.js';
import type { BenchHome } from './homes.js';
import { stats } from './measure.js';

const execFileP = promisify(execFile);

/**
 * Times one foreground job over the daemon's socket with the CLI's own client: `POST
 * …/jobs?stream=1` until the end frame has come and the daemon has closed the connection.
 */
async function timeStreamedJob(socketPath: string, shell: string): Promise<{ ms: number; startMs: number }> {
  const path = pathOf(ROUTES.exec, { ref: shell }, { stream: true });
  const t0 = performance.now();
  const res = await send(socketPath, ROUTES.exec.method, path, { command: 'true' });
  if (res.status !== 200) throw new Error(`POST ${path}: HTTP ${res.status}: ${(await readBody(res)).toString('utf8').trim()}`);
  const parser = new FrameParser();
  let startMs = NaN;
  let end: JobView | null = null;
  for await (const chunk of res) {
    for (const f of parser.push(chunk)) {
      if (f.type === FRAME.start) startMs = performance.now() - t0;
      if (f.type === FRAME.end) end = JSON.parse(f.payload.toString('utf8')) as JobView;
    }
  }
  const ms = performance.now() - t0;
  if (end?.status !== 'completed' || end.exitCode !== 0) throw new Error(`streamed job did not complete: ${JSON.stringify(end)}`);
  return { ms, startMs };
}

/**
 * Times one background job (no stream): the answer carries the job as started, with its pid.
 * src/guides/api.md says 201; the daemon currently answers 200 (sendJson overrides the route's statusCode),
 * so 200 or 201 is taken, and the status seen is kept in the raw results.
 */
async function timeBackgroundJob(socketPath: string, shell: string): Promise<{ ms: number; job: JobView; status: number }> {
  const path = pathOf(ROUTES.exec, { ref: shell });
  const t0 = performance.now();
  const res = await send(socketPath, ROUTES.exec.method, path, { command: 'true', background: true });
  const body = (await readBody(res)).toString('utf8');
  const ms = performance.now() - t0;
  if (res.status !== 200 && res.status !== 201) throw new Error(`POST ${path}: HTTP ${res.status}: ${body.trim()}`);
  const job = JSON.parse(body) as JobView;
  if (!Number.isInteger(job.pid)) throw new Error(`background job ${job.id} answered without a pid`);
  return { ms, job, status: res.status };
}

/** Untimed: waits until a background job has ended, so it does not overlap the next sample. */
async function awaitJob(socketPath: string, id: string): Promise<void> {
  const res = await send(socketPath, ROUTES.wait.method, pathOf(ROUTES.wait), { ids: [id], timeoutMs: 10_000 });
  const body = (await readBody(res)).toString('utf8');
  if (res.status !== 200 || (JSON.parse(body) as { timedOut: boolean }).timedOut) throw new Error(`waiting for ${id}: HTTP ${res.status}: ${body.trim()}`);
}

/** The floor: one bare tmux client call against this home's server, spawned with execFile. */
export async function timeTmuxCall(h: BenchHome): Promise<number> {
  const t0 = performance.now();
  await execFileP('tmux', ['-S', h.tmuxSocket, 'display-message', '-p', 'x'], { env: h.env });
  return performance.now() - t0;
}

/**
 * Daemon-side job round trip (no CLI start-up in it), in a shell session made as runPhase makes
 * its own, against a warm daemon: a streamed foreground `true` and a background `true`, next to
 * one tmux call, interleaved so machine noise hits all three alike.
 */
export async function jobPhase(h: BenchHome, runs: number) {
  await h.amuxOk('daemon', 'start');
  const shell = (await h.amuxOk('run')).stdout.trim();
  const socketPath = join(h.dir, 'amux.sock');
  const stream: number[] = [];
  const streamStart: number[] = [];
  const background: number[] = [];
  const tmux: number[] = [];
  const backgroundHttpStatus = new Set<number>();
  for (let i = -2; i < runs; i++) {
    const s = await timeStreamedJob(socketPath, shell);
    const b = await timeBackgroundJob(socketPath, shell);
    backgroundHttpStatus.add(b.status);
    await awaitJob(socketPath, b.job.id);
    const t = await timeTmuxCall(h);
    if (i < 0) continue; // warm-up rounds
    stream.push(s.ms);
    streamStart.push(s.startMs);
    background.push(b.ms);
    tmux.push(t);
  }
  return { stream: stats(stream), streamStartFrame: stats(streamStart), background: stats(background), backgroundHttpStatus: [...backgroundHttpStatus], tmux: stats(tmux) };
}
