import { Client } from '../../src/client/client.js';
import { amuxPaths } from '../../src/paths.js';
import type { BenchHome } from './homes.js';
import { sleep, stats, type Stats } from './measure.js';

export interface EvidenceResult {
  /** From the moment a program starts reading the terminal to the `idle` state change (daemon stamps). */
  idleLatency: Stats;
  /** Busy-but-silent programs watched: how many looks, and how many were `idle` (must be 0). */
  busyLooks: number;
  busyIdle: number;
  /** The 4.5 s printer: state changes while watched (must be 0: it never flaps). */
  printerChanges: number;
}

interface EventLine {
  sessionId: string;
  type: string;
  data: { to?: string };
  createdAt: string;
}

/**
 * The status targets of src/guides/statuses.md (ADR 0015), on the daemon of `h`:
 * - idle latency: `n` sessions run `sleep 1; read x` (the shell itself reads the terminal from
 *   startedAt + ~1 s); latency = the `idle` event's stamp minus (startedAt + 1000 + the time
 *   `sleep 1` took past 1 s, which the session's own `date` stamps measure);
 * - never idle while busy: a CPU loop, `sleep 30` and a `make`-like sleeping recipe, looked at every
 *   250 ms through the API for `watchMs`;
 * - no flapping: a program printing a line every 4.5 s, watched as long.
 */
export async function evidencePhase(h: BenchHome, n: number, watchMs: number): Promise<EvidenceResult> {
  await h.amuxOk('daemon', 'start');
  const client = new Client(amuxPaths(h.dir), false);
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/' };
  // The readers: each stamps the moment its read begins, in ms, as the first thing on its screen.
  const readers = [];
  for (let i = 0; i < n; i++) {
    readers.push(await client.sessions.create({ command: 'sleep 1; echo "T=$(date +%s%3N)"; read x', cwd: '/', env }));
    await sleep(150); // spread the starts over the refresh cycle
  }
  const busy = await Promise.all([
    client.sessions.create({ command: 'while :; do :; done', cwd: '/', env }),
    client.sessions.create({ command: 'sleep 300', cwd: '/', env }),
    client.sessions.create({ command: 'sh -c "echo step 1; sleep 300"', cwd: '/', env }),
  ]);
  const printer = await client.sessions.create({ command: 'while :; do echo tick; sleep 4.5; done', cwd: '/', env });
  let busyLooks = 0;
  let busyIdle = 0;
  const until = performance.now() + watchMs;
  while (performance.now() < until) {
    const byId = new Map((await client.sessions.list()).map((s) => [s.id, s]));
    for (const b of busy) {
      busyLooks++;
      if (byId.get(b.id)?.status === 'idle') busyIdle++;
    }
    await sleep(250);
  }
  const latencies: number[] = [];
  for (const r of readers) {
    const chunks: Buffer[] = [];
    for await (const c of await client.sessions.logs(r.id)) chunks.push(c);
    const readAt = Number(/T=(\d+)/.exec(Buffer.concat(chunks).toString('utf8'))?.[1]);
    const idle = (await events(client, r.id)).find((e) => e.type === 'state_changed' && e.data.to === 'idle');
    if (idle && readAt) latencies.push(Date.parse(idle.createdAt) - readAt);
  }
  const printerChanges = (await events(client, printer.id)).filter((e) => e.type === 'state_changed' && e.data.to !== 'working').length;
  return { idleLatency: stats(latencies), busyLooks, busyIdle, printerChanges };
}

async function events(client: Client, id: string): Promise<EventLine[]> {
  const chunks: Buffer[] = [];
  for await (const c of await client.events.read({ session: id })) chunks.push(c);
  return Buffer.concat(chunks).toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as EventLine);
}
