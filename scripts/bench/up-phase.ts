import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadStack } from '../../src/cli/stack/load.js';
import type { SessionView } from '../../src/protocol/sessions.js';
import type { BenchHome } from './homes.js';
import { stats, type Stats } from './measure.js';

/** The five-session example of src/guides/stacks.md, as the integration test runs it. */
const DEMO = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'stacks', 'demo');

export interface UpStats {
  /** Wall time of `amux up -d` (spawn to exit, CLI start-up included). */
  up: Stats;
  /** Per run: the sum of every session's readiness time (see below). */
  readinessSum: Stats;
  /** Per run: the longest chain of readiness times through the dependencies (what `up` cannot beat). */
  criticalPath: Stats;
  /** Per run: up − the sum, and up − the critical path. */
  overSum: Stats;
  overPath: Stats;
  /** Wall time of `amux down -p demo`. */
  down: Stats;
  /** Median readiness of each session, ms. */
  perSession: Record<string, number>;
}

/**
 * `up -d` of the demo stack against the time its sessions take to be ready (issue 23; src/guides/stacks.md). A session's readiness time is what it takes once created: for a `ready` probe, the
 * time `up` reports (`KEY ready (N ms)`: from its creation to the probe passing); for a session a
 * dependent needs `completed`, its run (startedAt to endedAt, daemon clock); otherwise 0 (ready
 * once started). The sum over sessions is the issue's floor; since independent sessions come up at
 * once, the critical path through `depends_on` is the tighter one. The difference is `up`'s own
 * overhead: the CLI's start-up, reading the file, the creates, the waits' round trips, the probes'
 * intervals. Ports 8617-8618 are the fixture's, so runs are one after the other.
 */
export async function upPhase(h: BenchHome, runs: number): Promise<UpStats> {
  const scratch = mkdtempSync('/tmp/amux-bench-up-');
  const dir = join(scratch, 'demo');
  cpSync(DEMO, dir, { recursive: true });
  const file = join(dir, 'amux.yaml');
  const stack = loadStack(file);
  const need = new Set(stack.services.flatMap((s) => Object.entries(s.dependsOn).filter(([, c]) => c === 'completed' || c === 'exited').map(([d]) => d)));
  const samples = { up: [] as number[], sum: [] as number[], path: [] as number[], overSum: [] as number[], overPath: [] as number[], down: [] as number[] };
  const per: Record<string, number[]> = {};
  try {
    await h.amuxOk('daemon', 'start');
    for (let i = -1; i < runs; i++) {
      const up = await h.amux('up', '-d', '-f', file);
      if (up.code !== 0) throw new Error(`amux up -d exited ${up.code}: ${up.stderr.trim().split('\n').pop()}`);
      const sessions = JSON.parse((await h.amuxOk('ps', '--stack', 'demo', '--json')).stdout) as SessionView[];
      const ready: Record<string, number> = {};
      for (const s of stack.services) {
        const probe = new RegExp(`^up: ${s.key} ready \\((\\d+)ms\\)$`, 'm').exec(up.stderr);
        const view = sessions.find((x) => x.labels.service === s.key);
        if (probe) ready[s.key] = Number(probe[1]);
        else if (need.has(s.key) && view?.startedAt && view.endedAt) ready[s.key] = Date.parse(view.endedAt) - Date.parse(view.startedAt);
        else ready[s.key] = 0;
      }
      const down = await h.amuxOk('down', '-p', 'demo');
      if (i < 0) continue; // warm-up: python, node and the page cache
      const sum = Object.values(ready).reduce((a, b) => a + b, 0);
      const path = criticalPath(stack.services, ready);
      samples.up.push(up.ms);
      samples.sum.push(sum);
      samples.path.push(path);
      samples.overSum.push(up.ms - sum);
      samples.overPath.push(up.ms - path);
      samples.down.push(down.ms);
      for (const [k, v] of Object.entries(ready)) (per[k] ??= []).push(v);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return {
    up: stats(samples.up), readinessSum: stats(samples.sum), criticalPath: stats(samples.path),
    overSum: stats(samples.overSum), overPath: stats(samples.overPath), down: stats(samples.down),
    perSession: Object.fromEntries(Object.entries(per).map(([k, v]) => [k, stats(v).median])),
  };
}

/** When each session is ready if nothing but readiness took time: a dependency's readiness, then its own. */
function criticalPath(services: ReturnType<typeof loadStack>['services'], ready: Record<string, number>): number {
  const at = new Map<string, number>();
  const readyAt = (key: string): number => {
    if (at.has(key)) return at.get(key)!;
    const s = services.find((x) => x.key === key)!;
    const start = Math.max(0, ...Object.keys(s.dependsOn).map(readyAt));
    at.set(key, start + ready[key]!);
    return at.get(key)!;
  };
  return Math.max(...services.map((s) => readyAt(s.key)));
}
