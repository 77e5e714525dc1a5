import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { ROUTES } from '../../src/protocol/routes.js';
import type { BenchHome } from './homes.js';
import { epochMs, interleaved, runOk, sleep, stats } from './measure.js';

const NODE_FLOOR = ['node', '-e', '0'];

/** Resident memory of a process in MB, from /proc/PID/status (VmRSS; VmHWM is the peak). */
export function rssMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** Times one HTTP GET over the daemon's Unix socket from this process (no node start-up in it). */
export function timeGet(socketPath: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request({ socketPath, path, method: 'GET', agent: false }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - t0) : reject(new Error(`GET ${path}: HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

export async function countListed(h: BenchHome): Promise<number> {
  return (await h.amuxOk('ps', '-q')).stdout.split('\n').filter(Boolean).length;
}

/** `amux ps` with N live sessions on a warm daemon, next to the node and tmux floors. */
export async function psPhase(h: BenchHome, sessions: number, runs: number, concurrency: number) {
  const t0 = performance.now();
  await h.runMany(sessions, 'sleep 3600', concurrency);
  const createMs = performance.now() - t0;
  const listed = await countListed(h);
  if (listed !== sessions) throw new Error(`amux ps lists ${listed} sessions, expected ${sessions}`);
  for (let i = 0; i < 3; i++) await h.amuxOk('ps');
  const timed = await interleaved({
    node: NODE_FLOOR,
    tmux: ['tmux', '-S', h.tmuxSocket, '-f', '/dev/null', 'list-sessions'],
    ps: [h.bin, 'ps'],
    psJson: [h.bin, 'ps', '--json'],
    psQ: [h.bin, 'ps', '-q'],
    version: [h.bin, '--version'],
  }, runs, h.env);
  const api: number[] = [];
  for (let i = 0; i < runs; i++) api.push(await timeGet(join(h.dir, 'amux.sock'), ROUTES.listSessions.path));
  return { ...timed, api: stats(api), createMs, daemonRss: rssMb(await h.daemonPid()) };
}

/** `amux run -- true` (and `amux exec ID -- true` when the CLI has it) end to end. */
export async function runPhase(h: BenchHome, runs: number) {
  await h.amuxOk('daemon', 'start');
  const idleRss = rssMb(await h.daemonPid());
  const cmds: Record<string, string[]> = { node: NODE_FLOOR, run: [h.bin, 'run', '--', 'true'] };
  const shell = (await h.amuxOk('run')).stdout.trim();
  const probe = await h.amux('exec', shell, '--', 'true');
  const hasExec = !(probe.code === 2 && /unknown command/.test(probe.stderr));
  if (hasExec) cmds.exec = [h.bin, 'exec', shell, '--', 'true'];
  for (let i = 0; i < 2; i++) for (const argv of Object.values(cmds)) await runOk(argv, h.env);
  const timed = await interleaved(cmds, runs, h.env);
  return { node: timed.node!, run: timed.run!, exec: timed.exec ?? null, idleRss };
}

/**
 * One `amux wait` sample: the command writes `date +%s%N` as its last act; latency is the moment
 * the already-waiting `amux wait` process has exited minus that timestamp. `headStartMs`: how long
 * before the command's exit the waiter was spawned (it must be waiting already to be measured).
 */
export async function waitSample(h: BenchHome, tag: string, sleepS = 0.8): Promise<{ latencyMs: number; headStartMs: number }> {
  const stamp = join(h.dir, `w${tag}.ns`);
  const id = (await h.amuxOk('run', '--', `sleep ${sleepS}; date +%s%N > ${stamp}`)).stdout.trim();
  const waitSpawnedAt = epochMs();
  const res = await h.amux('wait', '--timeout', '30s', id);
  if (res.code !== 0) throw new Error(`amux wait ${id} exited ${res.code}: ${res.stderr.trim()}`);
  const exitedAt = Number(readFileSync(stamp, 'utf8').trim()) / 1e6;
  return { latencyMs: res.endedAt - exitedAt, headStartMs: exitedAt - waitSpawnedAt };
}

/** `amux wait` latency over `runs` samples (see waitSample). */
export async function waitPhase(h: BenchHome, runs: number, sleepS = 0.8) {
  const latencies: number[] = [];
  let minHeadStart = Infinity;
  for (let i = 0; i < runs; i++) {
    const w = await waitSample(h, String(i), sleepS);
    minHeadStart = Math.min(minHeadStart, w.headStartMs);
    latencies.push(w.latencyMs);
  }
  return { latency: stats(latencies), minHeadStartMs: minHeadStart };
}

/** Daemon memory: a CLI-started daemon holding `big` live sessions created via `amux run`. */
export async function rssPhase(h: BenchHome, big: number, concurrency: number) {
  const t0 = performance.now();
  await h.runMany(big, 'sleep 3600', concurrency);
  const createMs = performance.now() - t0;
  const listed = await countListed(h);
  if (listed !== big) throw new Error(`amux ps lists ${listed} sessions, expected ${big}`);
  // Let the monitor run a few refresh ticks (status cache 2 s) with every session live.
  await sleep(4500);
  const rss = rssMb(await h.daemonPid());
  const ps: number[] = [];
  const psQ: number[] = [];
  const api: number[] = [];
  for (let i = 0; i < 5; i++) {
    ps.push((await h.amuxOk('ps')).ms);
    psQ.push((await h.amuxOk('ps', '-q')).ms);
    api.push(await timeGet(join(h.dir, 'amux.sock'), ROUTES.listSessions.path));
  }
  return { createMs, rss, psAtBig: stats(ps), psQAtBig: stats(psQ), apiAtBig: stats(api) };
}
