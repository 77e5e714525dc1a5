/**
 * Measurement for ADR 0056 (a report, never a test): how long a cheap output wait takes while
 * BENCH_REGEX_CLIENTS (20) clients each wait on an expression that must backtrack past its budget,
 * against the same wait alone (the floor) in the same run. Runs in its own AMUX_HOME and removes it.
 * `node dist/scripts/bench-regex-turns.js [path/to/bin/amux]` (another build: compare before and after).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';

const BIN = process.argv[2] ?? join(__dirname, '..', '..', 'bin', 'amux');
const CLIENTS = Number(process.env.BENCH_REGEX_CLIENTS ?? 20);
const home = mkdtempSync('/tmp/amux-brt-');
const env: NodeJS.ProcessEnv = { ...process.env, AMUX_HOME: home };
delete env.TMUX;
const amux = (...args: string[]) => execFileSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8' }).trim();

function wait(body: object): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: join(home, 'amux.sock'), method: 'POST', path: '/v1/wait', headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

async function timed(body: object): Promise<number> {
  const t0 = performance.now();
  await wait(body);
  return Math.round(performance.now() - t0);
}

async function main(): Promise<void> {
  try {
    const bad = amux('run', '--', "head -c 40 /dev/zero | tr '\\0' a; echo '!'; sleep 600");
    const good = amux('run', '--', 'echo hello; sleep 600');
    amux('wait', bad, '--until', 'output:!');
    amux('wait', good, '--until', 'output:hello');
    const cheap = { ids: [good], until: 'output:hello' };
    const floor = await timed(cheap);
    const costly = Array.from({ length: CLIENTS }, () => wait({ ids: [bad], until: 'output:(a+)+(?=b)', timeoutMs: 600_000 }));
    await new Promise((r) => setTimeout(r, 300));
    const behind = await timed(cheap);
    await Promise.all(costly);
    console.log(JSON.stringify({ clients: CLIENTS, floorMs: floor, behindMs: behind, ratio: Math.round(behind / Math.max(1, floor)) }));
  } finally {
    try {
      amux('daemon', 'stop');
    } catch {
      /* not running */
    }
    try {
      execFileSync('tmux', ['-S', join(home, 'tmux.sock'), 'kill-server'], { stdio: 'ignore' });
    } catch {
      /* no server */
    }
    rmSync(home, { recursive: true, force: true });
  }
}

void main();
