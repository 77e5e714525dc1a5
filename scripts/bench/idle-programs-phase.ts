import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '../../src/client/client.js';
import { amuxPaths } from '../../src/paths.js';
import { descendantsOf, procStat, STAT } from '../../src/process/process-table.js';
import type { BenchHome } from './homes.js';
import { run, sleep, stats, type Stats } from './measure.js';

export interface IdleProgramsResult {
  /** From the moment every thread of the program sleeps (polled every 20 ms) to its `idle` event. */
  latency: Stats;
  /** Per program, in ms; null when it never became idle in the watch. */
  byProgram: Record<string, number | null>;
  /** Programs that became idle while one of their threads ran (must be 0). */
  idleWhileRunning: number;
}

/** Programs that wait for the terminal, with and without a time limit (src/guides/statuses.md). */
const PROGRAMS: Record<string, string> = {
  'python3 REPL': 'python3',
  'node REPL (timed epoll)': 'node',
  'vim (4 s updatetime)': 'vim -u NONE -i NONE -n',
  vi: 'vi',
  'read -p': `bash -c 'read -p "? " x'`,
  'read -t 30 (timed)': `bash -c 'read -t 30 -p "? " x'`,
  less: 'less /etc/services',
  more: 'more /etc/services',
  'yes | less': 'yes | less',
  cat: 'cat',
  bc: 'bc -q',
  sqlite3: 'sqlite3',
  'gdb (threads)': 'gdb -q -nx',
  'python3 input()': `python3 -c 'input("> ")'`,
  'python3 select, 30 s limit (timed)': `python3 -c 'import select, sys; select.select([sys.stdin], [], [], 30)'`,
  'node readline question': `node -e 'require("readline").createInterface({input: process.stdin, output: process.stdout}).question("? ", () => {})'`,
  'node stdin with a 30 s timer (timed)': `node -e 'process.stdin.resume(); setTimeout(() => {}, 30000)'`,
  'perl <STDIN>': `perl -e '$x = <STDIN>'`,
  'a password prompt with a socket (as ssh)': `python3 -c 'import os, socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(); c = socket.create_connection(s.getsockname()); os.read(os.open("/dev/tty", os.O_RDWR), 9)'`,
  'man ls (a pager behind a pipeline)': 'man ls',
  'head -c 1 (dd-like read)': 'head -c 1',
  'awk reading stdin': `awk '{ print }'`,
};

/** How often the bench looks at every program's threads. */
const POLL_MS = 20;

/** Every thread of the terminal's foreground group of `shell` sleeps (S); null when it is not known yet. */
function allAsleep(shell: number): boolean | null {
  const sh = procStat(shell);
  if (!sh) return null;
  const pgid = Number(sh.fields[STAT.tpgid]);
  if (pgid === shell) return null; // the program has not started yet
  for (const pid of descendantsOf(shell)) {
    const st = procStat(pid);
    if (!st || Number(st.fields[STAT.pgrp]) !== pgid) continue;
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      const state = /\) (\S)/.exec(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'latin1'))?.[1];
      if (state !== 'S') return false;
    }
  }
  return true;
}

/**
 * Time to idle after a program starts waiting for the terminal (scripts/PERFORMANCE.md, ADR 0015):
 * each program of PROGRAMS is started as a session; the bench polls /proc every 20 ms and takes
 * the start of the span of sleep of all the foreground's threads that its first `idle` event falls
 * in; the latency is the event minus that start. An event outside every such span is counted
 * as idle while running. Both clocks are this machine's.
 */
export async function idleProgramsPhase(h: BenchHome, watchMs: number): Promise<IdleProgramsResult> {
  await h.amuxOk('daemon', 'start');
  const client = new Client(amuxPaths(h.dir), false);
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: h.dir, TERM: 'xterm-256color' };
  writeFileSync(join(h.dir, '.vimrc'), '');
  const available = Object.entries(PROGRAMS).filter(([, cmd]) => commandExists(cmd.split(' ')[0]!));
  /** Per session, the spans during which all its foreground's threads slept: [from, to] (to: null while it lasts). */
  /** `[from, to, seenAwakeAt]`: the previous poll, which did not see it asleep, bounds when the span really began. */
  const sessions: { name: string; id: string; shell: number | null; asleep: [number, number | null, number][]; polledAt: number }[] = [];
  const { childrenOf } = await import('../../src/process/process-table.js');
  const shellOf = async (id: string): Promise<number | null> => {
    const panes = (await run(['tmux', '-S', h.tmuxSocket, 'list-panes', '-a', '-F', '#{session_name} #{pane_pid}'], h.env)).stdout;
    const pane = panes.split('\n').find((l) => l.startsWith(`amux-${id} `));
    return pane ? (childrenOf(Number(pane.split(' ')[1]))[0] ?? null) : null;
  };
  // The poller runs from the first start on: a program may wait within a few hundred ms.
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const now = Date.now();
      for (const s of sessions) {
        if (s.shell === null) continue;
        const asleep = allAsleep(s.shell);
        const open = s.asleep.at(-1);
        const sleeping = open !== undefined && open[1] === null;
        if (asleep && !sleeping) s.asleep.push([now, null, s.polledAt]);
        else if (!asleep && sleeping) open[1] = now;
        s.polledAt = now;
      }
      await sleep(POLL_MS);
    }
  })();
  for (const [name, command] of available) {
    const s = { name, id: (await client.sessions.create({ command, cwd: h.dir, env })).id, shell: null as number | null, asleep: [] as [number, number | null, number][], polledAt: 0 };
    sessions.push(s);
    for (let i = 0; i < 20 && s.shell === null; i++) s.shell = await shellOf(s.id);
    await sleep(200);
  }
  await sleep(watchMs);
  polling = false;
  await poller;
  let idleWhileRunning = 0;
  const byProgram: Record<string, number | null> = {};
  const latencies: number[] = [];
  for (const s of sessions) {
    const chunks: Buffer[] = [];
    for await (const c of await client.events.read({ session: s.id })) chunks.push(c);
    const changes = Buffer.concat(chunks).toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))
      .filter((e) => e.type === 'state_changed');
    const idle = changes.find((e) => e.data.to === 'idle');
    if (!idle) {
      byProgram[s.name] = null;
      continue;
    }
    const at = Date.parse(idle.createdAt);
    // The span of sleep the idle event fell in (one poll of slack on either side).
    // A poll takes longer than POLL_MS when the machine is loaded: the span began after the previous poll.
    const span = s.asleep.find(([, to, awake]) => awake <= at && (to === null || at <= to + POLL_MS));
    if (!span) {
      idleWhileRunning++;
      byProgram[s.name] = null;
      continue;
    }
    byProgram[s.name] = Math.max(0, at - span[0]);
    latencies.push(Math.max(0, at - span[0]));
  }
  return { latency: stats(latencies), byProgram, idleWhileRunning };
}

function commandExists(cmd: string): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(join(dir, cmd)));
}
