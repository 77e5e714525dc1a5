import { spawn, type ChildProcess } from 'node:child_process';

/** Summary of one set of samples, in milliseconds. */
export interface Stats {
  n: number;
  median: number;
  p90: number;
  min: number;
  max: number;
}

export function stats(samples: readonly number[]): Stats {
  if (samples.length === 0) return { n: 0, median: NaN, p90: NaN, min: NaN, max: NaN };
  const s = [...samples].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const median = s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  const p90 = s[Math.min(s.length - 1, Math.ceil(0.9 * s.length) - 1)]!;
  return { n: s.length, median, p90, min: s[0]!, max: s[s.length - 1]! };
}

/** Wall-clock time in ms since the epoch, sub-millisecond (comparable with `date +%s%N`). */
export const epochMs = (): number => performance.timeOrigin + performance.now();

/**
 * The environment of every timed child, on both sides of each comparison: this machine sets
 * NODE_EXTRA_CA_CERTS, which makes node start-up tens of ms slower.
 */
export function benchEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.NODE_EXTRA_CA_CERTS;
  delete env.TMUX;
  return env;
}

export interface RunResult {
  ms: number;
  code: number | null;
  stdout: string;
  stderr: string;
  /** epochMs() when the child had exited and its pipes closed. */
  endedAt: number;
}

const inFlight = new Set<ChildProcess>();
const poolsInFlight = new Set<Promise<unknown>>();
let aborted = false;

export const isAborted = () => aborted;

/** On an interrupt: start nothing more, end the children in flight, and wait until they are gone. */
export async function abortChildren(): Promise<void> {
  aborted = true;
  const exits = [...inFlight].map((c) => new Promise((r) => c.once('close', r)));
  for (const c of inFlight) c.kill('SIGTERM');
  // Pools start nothing new now; their in-flight items (e.g. in-process session creation) finish.
  await Promise.race([Promise.all([...exits, ...poolsInFlight]), sleep(5000)]);
}

/**
 * Spawns argv (no shell) and times it from spawn to exit; after an interrupt only `forCleanup` runs,
 * and a cleanup step is killed after 10 s (a cleanup must never hang the bench).
 */
export function run(argv: readonly string[], env: NodeJS.ProcessEnv, opts: { forCleanup?: boolean } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    if (aborted && !opts.forCleanup) return reject(new Error('benchmark interrupted'));
    const t0 = performance.now();
    const child = spawn(argv[0]!, argv.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] });
    inFlight.add(child);
    const limit = opts.forCleanup ? setTimeout(() => child.kill('SIGKILL'), 10_000) : null;
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', (err) => {
      inFlight.delete(child);
      reject(err);
    });
    child.on('close', (code) => {
      if (limit) clearTimeout(limit);
      inFlight.delete(child);
      resolve({ ms: performance.now() - t0, code, stdout, stderr, endedAt: epochMs() });
    });
  });
}

/** Like `run`, but a non-zero exit is an error of the benchmark itself. */
export async function runOk(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<RunResult> {
  const res = await run(argv, env);
  if (res.code !== 0) throw new Error(`${argv.join(' ')} exited ${res.code}: ${res.stderr.trim()}`);
  return res;
}

/** Times every command `runs` times, round-robin, so machine noise hits all of them alike. */
export async function interleaved<K extends string>(
  cmds: Record<K, readonly string[]>,
  runs: number,
  env: NodeJS.ProcessEnv,
): Promise<Record<K, Stats>> {
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(cmds).map((k) => [k, []]));
  for (let i = 0; i < runs; i++) {
    for (const [name, argv] of Object.entries<readonly string[]>(cmds)) samples[name]!.push((await runOk(argv, env)).ms);
  }
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, stats(v)])) as Record<K, Stats>;
}

/**
 * Runs fn(0..n-1) with at most `concurrency` in flight. After a failure no new item starts, and
 * it rejects only once the in-flight ones have settled, so nothing keeps running behind a cleanup.
 */
export async function pool<T>(n: number, concurrency: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(n);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < n && !failed && !aborted) {
      const i = next++;
      try {
        out[i] = await fn(i);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  const all = Promise.allSettled(Array.from({ length: Math.min(concurrency, n) }, worker));
  poolsInFlight.add(all);
  const settled = await all.finally(() => poolsInFlight.delete(all));
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure) throw failure.reason;
  if (aborted) throw new Error('benchmark interrupted');
  return out;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A positive integer from the environment (a bench size such as BENCH_RUNS), else `fallback`. */
export function envInt(name: string, fallback: number): number {
  const n = Number(process.env[name]);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}
