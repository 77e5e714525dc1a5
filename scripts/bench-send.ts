/**
 * The latency of `send` that submits (ADR 0047; a report, never a test): BENCH_SEND_RUNS (20)
 * sends of one line, through the daemon's API, to a prompt with paste-burst detection
 * (test/fixtures/paste_burst_tui.py), to the session's bash at its prompt, and to a program that
 * never reads (`sleep`: the bound of the wait for the Enter), each from the request to the
 * receipt. The floor, measured in the same run: one bare `tmux send-keys` process of the same
 * line and Enter into a pane of the same server (what one send cost before). Also counts how many
 * sends the fixture shows as submitted. Runs in its own AMUX_HOME and removes it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { stats, type Stats } from './bench/measure.js';

const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'amux');
const TUI = join(ROOT, 'test', 'fixtures', 'paste_burst_tui.py');
const RUNS = Number(process.env.BENCH_SEND_RUNS ?? 20);
const home = mkdtempSync('/tmp/amux-bs-');
const env: NodeJS.ProcessEnv = { ...process.env, AMUX_HOME: home };
delete env.NODE_EXTRA_CA_CERTS;
delete env.TMUX;
const sock = join(home, 'tmux.sock');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const amux = (...args: string[]) => execFileSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8' }).trim();

/** POST /v1/sessions/ID/input over the daemon's socket; resolves with the receipt and the ms it took. */
function send(id: string, text: string): Promise<{ ms: number; receipt: { submitted: boolean } }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request({ socketPath: join(home, 'amux.sock'), method: 'POST', path: `/v1/sessions/${id}/input`, headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (res.statusCode !== 200) return reject(new Error(JSON.stringify(body)));
        resolve({ ms: performance.now() - t0, receipt: body });
      });
    });
    req.on('error', reject);
    req.end(JSON.stringify({ text }));
  });
}

async function series(id: string, runs: number, text: (i: number) => string, pause: () => Promise<void>): Promise<{ s: Stats; submitted: number; runs: number }> {
  const ms: number[] = [];
  let submitted = 0;
  for (let i = 0; i < runs; i++) {
    const r = await send(id, text(i));
    ms.push(r.ms);
    if (r.receipt.submitted) submitted++;
    await pause();
  }
  return { s: stats(ms), submitted, runs };
}

function floor(id: string): Stats {
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    spawnSync('tmux', ['-S', sock, '-f', '/dev/null', 'send-keys', '-t', `=amux-${id}:`, '-l', '--', `: floor ${i}`, ';', 'send-keys', '-t', `=amux-${id}:`, 'Enter'], { env });
    ms.push(performance.now() - t0);
  }
  return stats(ms);
}

const line = (label: string, s: Stats, f: Stats, extra = '') =>
  `${label.padEnd(34)} p50 ${s.median.toFixed(1).padStart(7)} ms (${(s.median / f.median).toFixed(1).padStart(5)}x)   p90 ${s.p90.toFixed(1).padStart(7)} ms (${(s.p90 / f.p90).toFixed(1).padStart(5)}x)${extra}`;

async function main(): Promise<void> {
  const tui = amux('run', '--', 'python3', TUI);
  const shell = amux('run');
  const sleeper = amux('run', '--', 'sleep', '3600');
  amux('wait', tui, '--until', 'output:tui ready', '--timeout', '30s');
  amux('wait', shell, '--until', 'idle', '--timeout', '30s');
  const idle = async (id: string) => {
    amux('wait', id, '--until', 'idle', '--timeout', '30s');
    await sleep(50);
  };
  const before = floor(shell);
  await idle(shell);
  const t = await series(tui, RUNS, (i) => `bench message ${i}`, () => idle(tui));
  const seen = amux('logs', tui).split('\n').filter((l) => /^SUBMITTED:bench message \d+$/.test(l)).length;
  const b = await series(shell, RUNS, (i) => `: bench ${i}`, () => idle(shell));
  // Each send to a program that never reads waits out the bound: a few are enough.
  const s = await series(sleeper, Math.min(RUNS, 5), (i) => `never read ${i}`, async () => undefined);
  const after = floor(shell);
  const f: Stats = { ...before, n: before.n + after.n, median: (before.median + after.median) / 2, p90: Math.max(before.p90, after.p90) };
  const out = (text: string) => process.stdout.write(`${text}\n`);
  out(`send latency, request to receipt (floor: one tmux send-keys process of a line and Enter; median ${before.median.toFixed(1)} ms before, ${after.median.toFixed(1)} ms after)`);
  out(line('floor: tmux send-keys', f, f));
  out(line('paste-burst prompt (fixture)', t.s, f, `   submitted ${t.submitted}/${t.runs}, seen submitted ${seen}/${t.runs}`));
  out(line('bash at its prompt', b.s, f, `   submitted ${b.submitted}/${b.runs}`));
  out(line('sleep (never reads): the bound', s.s, f, `   submitted ${s.submitted}/${s.runs}`));
  out(`BENCH_JSON ${JSON.stringify({ floor: f, tui: t, bash: b, sleep: s, seen })}`);
}

main()
  .catch((err) => {
    process.stderr.write(`bench-send failed: ${(err as Error).stack ?? err}\n`);
    process.exitCode = 1;
  })
  .finally(() => {
    spawnSync(process.execPath, [BIN, 'daemon', 'stop'], { env });
    spawnSync('tmux', ['-S', sock, 'kill-server'], { env });
    rmSync(home, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  });
