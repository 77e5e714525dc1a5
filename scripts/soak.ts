/**
 * Soak (run on demand, not in CI; scripts/PERFORMANCE.md): SOAK_SESSIONS sessions (500) for
 * SOAK_MINUTES (10): a third print all the time, a third sit idle at a prompt, a third start and
 * end over and over (through the typed client), while `ps`, `wait` and `logs -f` CLIs run. Reports daemon RSS over time and
 * `ps` latency (p50, p99), and checks that every exit code, and every byte of the followed and
 * sampled logs, is exact. Exits 1 when a check failed.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../src/client/client.js';
import { renderPlain } from '../src/core/log-render.js';
import { amuxPaths } from '../src/paths.js';
import { BenchHome } from './bench/homes.js';
import { envInt, pool, run, sleep, stats } from './bench/measure.js';

const sessions = envInt('SOAK_SESSIONS', 500);
const minutes = envInt('SOAK_MINUTES', 10);
const third = Math.max(1, Math.floor(sessions / 3));
const started = performance.now();
const log = (msg: string) => process.stderr.write(`[soak +${((performance.now() - started) / 1000).toFixed(0)}s] ${msg}\n`);
/** What went wrong, each with the second of the soak it was seen at. */
const failures: string[] = [];
const fail = (msg: string) => failures.push(`+${((performance.now() - started) / 1000).toFixed(0)}s ${msg}`);
/** How long each churned session took to be created (started) through the API. */
const createMs: number[] = [];
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(p * xs.length) - 1)] ?? NaN;

/** CPU time the daemon used so far (utime + stime, ticks of 10 ms). */
const cpuSeconds = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};
const rss = (pid: number) => Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

/** A `logs -f` client: the whole stream of a printer, checked to be `line 0`, `line 1`, … with no gap. */
function follow(h: BenchHome, id: string): { stop: () => void; check: () => string | null } {
  const child = spawn(h.bin, ['logs', '-f', id], { env: h.env, stdio: ['ignore', 'pipe', 'ignore'] });
  let text = '';
  child.stdout.on('data', (d: Buffer) => (text += d.toString('utf8')));
  return {
    stop: () => child.kill('SIGINT'),
    check: () => {
      const lines = text.split('\n').filter(Boolean);
      for (let i = 0; i < lines.length; i++) if (lines[i] !== `line ${i}`) return `${id}: line ${i} of logs -f is ${JSON.stringify(lines[i])}`;
      return lines.length > 10 ? null : `${id}: logs -f saw only ${lines.length} lines`;
    },
  };
}

/**
 * A session that starts and ends, driven through the typed client (in this process: 166 churn
 * loops spawning CLIs would measure node start-ups on 2 cores, not the daemon). Its exit code and
 * its whole output must come back exact. Every tenth is waited for by a CLI `amux wait` instead.
 */
async function churn(h: BenchHome, client: Client, i: number): Promise<void> {
  const code = i % 7;
  const count = 50 + (i % 200);
  const t0 = performance.now();
  const s = await client.sessions.create({ command: `sleep $((RANDOM % 4 + 1)); seq 1 ${count}; exit ${code}`, cwd: '/', env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
  createMs.push(performance.now() - t0);
  if (i % 10 === 0) {
    const waited = await h.amux('wait', s.id);
    if (waited.code !== code) fail(`${s.id}: amux wait exited ${waited.code}, expected ${code}`);
  } else {
    const [r] = (await client.wait({ ids: [s.id] })).results;
    if (r?.exitCode !== code) fail(`${s.id}: wait answered exit ${r?.exitCode} (${r?.status}), expected ${code}`);
  }
  const chunks: Buffer[] = [];
  for await (const c of await client.sessions.logs(s.id)) chunks.push(c);
  const out = renderPlain(Buffer.concat(chunks).toString('utf8'));
  const want = Array.from({ length: count }, (_, k) => `${k + 1}\n`).join('');
  if (out !== want) {
    // What tells a late capture from a lost one: the log read again a while later, and the files as they are.
    await sleep(3000);
    const again: Buffer[] = [];
    for await (const c of await client.sessions.logs(s.id)) again.push(c);
    const later = renderPlain(Buffer.concat(again).toString('utf8'));
    const dir = `${h.dir}/sessions/${s.id}/log`;
    const files = (() => {
      try {
        return readdirSync(dir).map((f) => `${f}:${statSync(`${dir}/${f}`).size}`).join(',');
      } catch (err) {
        return (err as Error).message;
      }
    })();
    const events = (await client.sessions.inspect(s.id)).events.map((e) => `${e.type}${(e.data as { to?: string }).to ? `>${(e.data as { to?: string }).to}` : ''}@${e.createdAt.slice(17, 23)}`).join(' ');
    fail(`${s.id}: logs differ from seq 1 ${count} (${out.length} vs ${want.length} bytes; 3 s later ${later === want ? 'right' : `${later.length} bytes`}; files ${files}; events ${events})`);
  }
  await client.sessions.remove(s.id);
}

async function main(): Promise<void> {
  const h = new BenchHome(process.env.SOAK_HOME ?? mkdtempSync('/tmp/amux-soak-')); // SOAK_HOME: e.g. a daemon started by hand under a profiler
  process.on('SIGINT', () => void h.cleanup().finally(() => process.exit(130)));
  try {
    await h.amuxOk('daemon', 'start');
    const client = new Client(amuxPaths(h.dir), false);
    const pid = JSON.parse((await h.amuxOk('daemon', 'status', '--json')).stdout).pid as number;
    log(`creating ${third} printing and ${third} idle sessions`);
    // Printers pace themselves with `read -t` on a private FIFO: a `sleep` process twice a second
    // in each of 166 sessions would measure fork and exec on 2 cores, not amux.
    const printer = 'f=$(mktemp -u); mkfifo "$f"; exec 3<>"$f"; rm "$f"; i=0; while :; do echo "line $i"; i=$((i+1)); read -t 0.5 -u 3; done';
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/' };
    const printers = await pool(third, 8, async () => (await client.sessions.create({ command: printer, cwd: '/', env })).id);
    await pool(third, 8, async () => (await client.sessions.create({ cwd: '/', env })).id);
    const followers = printers.slice(0, 5).map((id) => follow(h, id));
    const deadline = performance.now() + minutes * 60_000;
    const psMs: number[] = [];
    const psAt: number[] = []; // when each ps began, in seconds of the soak
    const rssMb: { atS: number; mb: number }[] = [];
    let churned = 0;
    const psClient = (async () => {
      while (performance.now() < deadline) {
        const r = await run([h.bin, 'ps', '-q'], h.env);
        if (r.code !== 0) fail(`ps exited ${r.code}: ${r.stderr.trim()}`);
        psMs.push(r.ms);
        psAt.push(Math.round((performance.now() - started - r.ms) / 1000));
        await sleep(500);
      }
    })();
    const rssSampler = (async () => {
      while (performance.now() < deadline) {
        rssMb.push({ atS: Math.round((performance.now() - started) / 1000), mb: rss(pid) });
        await sleep(15_000);
      }
    })();
    const churners = Array.from({ length: third }, async (_, w) => {
      while (performance.now() < deadline) {
        await churn(h, client, churned++).catch((err) => fail(`churn: ${(err as Error).message}`));
        await sleep(2000 + Math.random() * 4000); // a slot is empty a while between two sessions
      }
    });
    await Promise.all([psClient, rssSampler, ...churners]);
    for (const f of followers) f.stop();
    await sleep(1000);
    for (const f of followers) {
      const problem = f.check();
      if (problem) fail(problem);
    }
    const ps = stats(psMs);
    const p99 = pct(psMs, 0.99);
    const report = {
      sessions, minutes, churnedSessions: churned, psRuns: ps.n, psP50Ms: +ps.median.toFixed(1), psP99Ms: +p99.toFixed(1),
      rssMb: rssMb.map((r) => `${r.atS}s:${r.mb.toFixed(0)}`).join(' '), rssMaxMb: +Math.max(...rssMb.map((r) => r.mb)).toFixed(1),
      psSlowest: psMs.map((ms, i) => ({ ms, at: psAt[i] })).sort((a, b) => b.ms - a.ms).slice(0, 5).map((x) => `${x.ms.toFixed(0)} ms at +${x.at}s`).join(', '),
      createdOk: createMs.length, createP50Ms: +pct(createMs, 0.5).toFixed(0), createP99Ms: +pct(createMs, 0.99).toFixed(0),
      daemonCpuS: +cpuSeconds(pid).toFixed(1),
      failures: failures.length,
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    for (const f of failures.slice(0, 20)) process.stdout.write(`FAILED ${f}\n`);
    process.exitCode = failures.length ? 1 : 0;
  } finally {
    // The daemon's log outlives the home, for whoever reads the failures.
    try {
      copyFileSync(amuxPaths(h.dir).daemonLog, join(tmpdir(), 'amux-soak-daemon.log'));
    } catch {
      /* no log */
    }
    await h.cleanup();
  }
}

// Followers, keep-alive sockets: nothing of the soak may keep it alive once reported and cleaned up.
void main().finally(() => process.exit());
