import { join } from 'node:path';
import { abRounds, emptySamples, epochSizes, type LoopPlan, type Metric, type MetricSamples } from './ab-loop.js';
import { timeStreamedJob } from './ab-socket.js';
import { SLOTS, type Slot, type Tree } from './ab-trees.js';
import { countListed, rssMb, timeGet, waitSample } from './cli-phases.js';
import type { BenchHome, Homes } from './homes.js';
import { isAborted, runOk, sleep } from './measure.js';

export interface AbSizes extends LoopPlan {
  sessions: number;
  concurrency: number;
}

export interface AbPhaseResult {
  metrics: MetricSamples[];
  facts: Record<string, unknown>;
}

type Log = (msg: string) => void;
type PerSlot<T> = Record<Slot, T>;

/** A phase: how a slot's home is made ready, what is sampled, and facts gathered at the end. */
interface PhaseDef<C> {
  name: string;
  setup: (h: BenchHome, slot: Slot) => Promise<C>;
  metrics: Metric<C>[];
  /** After every slot's setup: e.g. let the monitors settle. */
  ready?: (ctxs: PerSlot<C>) => Promise<void>;
  facts?: (epochs: PerSlot<C>[]) => Record<string, unknown>;
}

const NODE_FLOOR = ['node', '-e', '0'];
/** Home directory names (the slot names carry a quote). */
const HOME_TAG: PerSlot<string> = { A: 'a', "A'": 'a2', B: 'b' };

/**
 * Runs a phase epoch by epoch, each in fresh homes (its own daemon and tmux server per slot):
 * one daemon's luck (heap size, where its refresh tick falls) then counts as a sample, where a
 * single process per slot would pass it off as a difference between trees. An identical-code
 * run showed such luck worth up to 10% of RSS. Each epoch's homes are torn down when it is done
 * or has failed (Homes also does on Ctrl-C), so the next starts on a quiet machine.
 */
async function runEpochs<C extends { h: BenchHome }>(homes: Homes, trees: PerSlot<Tree>, plan: LoopPlan, def: PhaseDef<C>, log: Log): Promise<AbPhaseResult> {
  const out = emptySamples(def.metrics as Metric<unknown>[]);
  const done: PerSlot<C>[] = [];
  let first = 0;
  const epochs = epochSizes(plan.runs, plan.epochs);
  for (const [e, timed] of epochs.entries()) {
    if (isAborted()) break;
    log(`  epoch ${e + 1}/${epochs.length}: ${plan.warmup} + ${timed} rounds`);
    const hs = Object.fromEntries(SLOTS.map((s) => [s, homes.home(`${def.name}${e + 1}-${HOME_TAG[s]}`, trees[s].bin)])) as PerSlot<BenchHome>;
    try {
      const ctxs = {} as PerSlot<C>;
      for (const s of SLOTS) ctxs[s] = await def.setup(hs[s], s);
      await def.ready?.(ctxs);
      await abRounds(ctxs, def.metrics, out, { first, warmup: plan.warmup, timed }, log);
      done.push(ctxs);
    } catch (err) {
      // Keep what earlier epochs measured; the rows say the phase broke off.
      log(`${def.name} epoch ${e + 1} failed: ${(err as Error).stack ?? err}`);
      for (const m of out) m.error ??= `epoch ${e + 1}: ${(err as Error).message.split('\n')[0]}`;
      break;
    } finally {
      for (const s of SLOTS) await hs[s].cleanup();
    }
    first += plan.warmup + timed;
  }
  return { metrics: out, facts: def.facts?.(done) ?? {} };
}

interface ListCtx {
  h: BenchHome;
  socket: string;
  pid: number;
}

/** `ps`, `ps --json`, GET /v1/sessions and the daemon's RSS, each home holding `sessions` live ones. */
export function listPhase(homes: Homes, trees: PerSlot<Tree>, sizes: AbSizes, log: Log): Promise<AbPhaseResult> {
  const n = sizes.sessions;
  return runEpochs<ListCtx>(homes, trees, sizes, {
    name: 'ps',
    setup: async (h, slot) => {
      log(`    ${slot}: ${n} sessions via ${h.bin} run`);
      await h.runMany(n, 'sleep 3600', sizes.concurrency);
      const listed = await countListed(h);
      if (listed !== n) throw new Error(`${slot}: amux ps lists ${listed} sessions, expected ${n}`);
      return { h, socket: join(h.dir, 'amux.sock'), pid: await h.daemonPid() };
    },
    // As the plain bench does before reading RSS: a few monitor refresh ticks with every session live.
    ready: async () => {
      await sleep(4500);
    },
    metrics: [
      { name: 'floor: node -e 0', unit: 'ms', sample: async (c) => (await runOk(NODE_FLOOR, c.h.env)).ms },
      { name: `amux ps (${n} live, warm daemon)`, unit: 'ms', sample: async (c) => (await c.h.amuxOk('ps')).ms },
      { name: `amux ps --json (${n} live)`, unit: 'ms', sample: async (c) => (await c.h.amuxOk('ps', '--json')).ms },
      { name: `daemon: GET /v1/sessions (${n} live)`, unit: 'ms', sample: (c) => timeGet(c.socket, '/v1/sessions') },
      { name: `daemon RSS (${n} live)`, unit: 'MB', sample: async (c) => rssMb(c.pid).rss },
    ],
  }, log);
}

interface RunCtx {
  h: BenchHome;
  socket: string;
  /** A warm shell session for exec and the job round trip. */
  shell: string;
  minWaitHeadStartMs: number;
}

/** `run -- true`, `exec ID -- true`, the daemon's job round trip and `amux wait`, in empty homes. */
export function runsPhase(homes: Homes, trees: PerSlot<Tree>, sizes: AbSizes, log: Log): Promise<AbPhaseResult> {
  return runEpochs<RunCtx>(homes, trees, sizes, {
    name: 'run',
    setup: async (h) => {
      await h.amuxOk('daemon', 'start');
      const shell = (await h.amuxOk('run')).stdout.trim();
      return { h, socket: join(h.dir, 'amux.sock'), shell, minWaitHeadStartMs: Infinity };
    },
    metrics: [
      { name: 'amux run -- true', unit: 'ms', sample: async (c) => (await c.h.amuxOk('run', '--', 'true')).ms },
      { name: 'amux exec ID -- true', unit: 'ms', sample: async (c) => (await c.h.amuxOk('exec', c.shell, '--', 'true')).ms },
      { name: 'daemon: POST /v1/sessions/ID/jobs?stream=1 true, to end frame', unit: 'ms', sample: (c) => timeStreamedJob(c.socket, c.shell) },
      {
        name: 'amux wait: return after command exit', unit: 'ms',
        sample: async (c, round) => {
          const w = await waitSample(c.h, String(round));
          c.minWaitHeadStartMs = Math.min(c.minWaitHeadStartMs, w.headStartMs);
          return w.latencyMs;
        },
      },
    ],
    // The waiter must have been waiting before the command exited for its latency to mean anything.
    facts: (epochs) => ({
      minWaitHeadStartMs: Object.fromEntries(SLOTS.map((s) => [s, Math.round(Math.min(...epochs.map((c) => c[s].minWaitHeadStartMs)))])),
    }),
  }, log);
}
