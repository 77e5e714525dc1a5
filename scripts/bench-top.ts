/**
 * Measurements of `amux top` for ADR 0020 (a report, never a test): the cost of loading ink and
 * React, the time from typing `amux top` to its first frame, the CPU `top` and the daemon use
 * while `top` sits idle over BENCH_TOP_SESSIONS (20) sessions, and `GET /v1/sessions` with and
 * without `usage=1`. Runs in its own AMUX_HOME and tmux servers, and removes them.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';

const BIN = join(__dirname, '..', '..', 'bin', 'amux');
const N = Number(process.env.BENCH_TOP_SESSIONS ?? 20);
const RUNS = Number(process.env.BENCH_TOP_RUNS ?? 10);
const IDLE_S = Number(process.env.BENCH_TOP_IDLE_SECONDS ?? 30);
const home = mkdtempSync('/tmp/amux-bt-');
const env: NodeJS.ProcessEnv = { ...process.env, AMUX_HOME: home, PS1: 'bench$ ' };
delete env.NODE_EXTRA_CA_CERTS;
delete env.TMUX;
const term = join(home, 'term.sock');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const amux = (...args: string[]) => execFileSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8' }).trim();
const tmux = (...args: string[]) => spawnSync('tmux', ['-S', term, ...args], { encoding: 'utf8', env });
const ticks = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]!.split(' ');
  return Number(f[11]) + Number(f[12]);
};

function timeNode(args: string[]): number {
  const t0 = performance.now();
  execFileSync(process.execPath, args, { env, stdio: 'ignore', cwd: join(__dirname, '..', '..') });
  return performance.now() - t0;
}

function get(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    request({ socketPath: join(home, 'amux.sock'), path }, (res) => {
      res.resume();
      res.on('end', () => resolve(performance.now() - t0));
    }).on('error', reject).end();
  });
}

async function main(): Promise<void> {
  const report: Record<string, string> = {};
  report['processes on the machine'] = String(readdirSync('/proc').filter((n) => /^\d+$/.test(n)).length);
  const floor: number[] = [];
  const inkLoad: number[] = [];
  const bundleLoad: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    floor.push(timeNode(['-e', '0']));
    inkLoad.push(timeNode(['-e', "import('ink').then(() => require('react'))"]));
    bundleLoad.push(timeNode(['-e', "import('./dist/src/cli/ink.mjs').then(() => require('react'))"]));
  }
  const over = (xs: number[]) => `${median(xs).toFixed(0)} ms (+${(median(xs) - median(floor)).toFixed(0)} ms)`;
  report['node -e 0'] = `${median(floor).toFixed(0)} ms`;
  report['loading ink (its files) and react'] = over(inkLoad);
  report['loading ink (the build\'s one-file bundle) and react'] = over(bundleLoad);

  amux('daemon', 'start');
  for (let i = 0; i < N; i++) amux('run', '-n', `s${i}`, ...(i % 2 ? ['--', 'sleep 100000'] : []));
  await sleep(3000);

  const plain: number[] = [];
  const usage: number[] = [];
  for (let i = 0; i < 20; i++) {
    plain.push(await get('/v1/sessions'));
    // More than a second apart, so that every one reads /proc (a pass answers for a second).
    await sleep(1100);
    usage.push(await get('/v1/sessions?usage=1'));
  }
  report[`GET /v1/sessions, ${N} live`] = `${median(plain).toFixed(1)} ms; with usage=1 ${median(usage).toFixed(1)} ms`;

  tmux('-f', '/dev/null', 'new-session', '-d', '-x', '80', '-y', '24', '--', 'bash', '--norc', '--noprofile');
  const firstFrame = async (command: string, seen: RegExp): Promise<number> => {
    tmux('send-keys', '-l', `clear; ${command}`);
    const t0 = performance.now();
    tmux('send-keys', 'Enter');
    for (;;) {
      const s = tmux('capture-pane', '-p').stdout ?? '';
      if (seen.test(s)) return performance.now() - t0;
      if (performance.now() - t0 > 30_000) throw new Error(`never seen:\n${s}`);
    }
  };
  const psShown: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    psShown.push(await firstFrame(`${process.execPath} ${BIN} ps`, /^ID +NAME[\s\S]*^bench\$ *$/m));
    await sleep(300);
  }
  report[`typing 'amux ps' → its table and the prompt, ${N} sessions`] = `median ${median(psShown).toFixed(0)} ms`;
  const first: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    tmux('send-keys', '-l', `clear; ${process.execPath} ${BIN} top`);
    const t0 = performance.now();
    tmux('send-keys', 'Enter');
    for (;;) {
      const s = tmux('capture-pane', '-p').stdout ?? '';
      if (/^amux top /m.test(s) && new RegExp(` s${N - 1} `).test(s)) break;
      if (performance.now() - t0 > 30_000) throw new Error(`no frame:\n${s}`);
    }
    first.push(performance.now() - t0);
    tmux('send-keys', 'q');
    while (!/^bench\$ *$/m.test(tmux('capture-pane', '-p').stdout ?? '')) await sleep(50);
    await sleep(200);
  }
  report[`typing 'amux top' → first frame, ${N} sessions`] = `median ${median(first).toFixed(0)} ms (min ${Math.min(...first).toFixed(0)}, max ${Math.max(...first).toFixed(0)})`;

  const daemon = Number(readFileSync(join(home, 'daemon.pid'), 'utf8'));
  const d0 = ticks(daemon);
  await sleep(IDLE_S * 1000);
  const daemonAlone = ((ticks(daemon) - d0) * 10) / (IDLE_S * 10);
  tmux('send-keys', '-l', `clear; ${process.execPath} ${BIN} top`);
  tmux('send-keys', 'Enter');
  await sleep(3000);
  const bash = Number(tmux('display-message', '-p', '#{pane_pid}').stdout.trim());
  const topPid = Number(readFileSync(`/proc/${bash}/task/${bash}/children`, 'utf8').trim().split(' ')[0]);
  const t0 = ticks(topPid);
  const d1 = ticks(daemon);
  await sleep(IDLE_S * 1000);
  const topCpu = ((ticks(topPid) - t0) * 10) / (IDLE_S * 10);
  const daemonWithTop = ((ticks(daemon) - d1) * 10) / (IDLE_S * 10);
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${topPid}/status`, 'utf8'))![1]) / 1024;
  tmux('send-keys', 'q');
  report[`top idle ${IDLE_S} s, ${N} sessions: top's CPU`] = `${topCpu.toFixed(1)} % of a core, RSS ${rss.toFixed(0)} MiB`;
  report[`the daemon's CPU over ${IDLE_S} s`] = `${daemonAlone.toFixed(1)} % without top, ${daemonWithTop.toFixed(1)} % with top`;

  for (const [k, v] of Object.entries(report)) process.stdout.write(`${k.padEnd(60)} ${v}\n`);
}

main()
  .catch((err) => {
    process.stderr.write(`${(err as Error).stack}\n`);
    process.exitCode = 1;
  })
  .finally(() => {
    tmux('kill-server');
    try {
      execFileSync(process.execPath, [BIN, 'daemon', 'stop'], { env, stdio: 'ignore' });
    } catch {
      /* not running */
    }
    spawnSync('tmux', ['-S', join(home, 'tmux.sock'), 'kill-server'], { stdio: 'ignore' });
    rmSync(home, { recursive: true, force: true });
  });
