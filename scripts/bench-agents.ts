/**
 * What amux says of the three agent CLIs, turn by turn (issue 30, ADR 0051; a report, never a
 * test): each CLI from the pinned npm install, against the mock API of test/agents/ on 127.0.0.1.
 * Per CLI and mode it runs BENCH_AGENTS_TURNS (5) streamed turns (BENCH_AGENTS_STREAM_MS, 8000),
 * as many tool turns (`sleep 3`) and approval turns, then watches the idle prompt for
 * BENCH_AGENTS_IDLE_S (60) seconds, and prints:
 *   - wrong idle: turns with an `idle` (or declared ready/waiting) between the prompt's arrival
 *     at the API and the turn's last byte;
 *   - idle latency: from the turn's last byte (the mock's clock) to the first `idle` or declared
 *     `ready` event after it, p50/p90, and as a ratio to the floor: the same latency for a shell
 *     whose command ends (`sleep 1; date +%s%3N`), measured in the same run;
 *   - send submitted k of N: the mock received the prompt after `amux send` alone;
 *   - attention latency: from the last byte of the answer asking for approval to the first
 *     `attention` event (or declared `waiting`);
 *   - spurious flips: `state_changed` events at the idle prompt over the window.
 * Modes: `evidence` (the CLI's notification settings only), `recipe` (src/guides/agents.md's hooks or
 * notify as well: Claude Code, Codex). BENCH_AGENTS (claude,codex,gemini) and BENCH_AGENTS_MODES
 * (evidence,recipe) choose.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { AmuxHome } from '../test/helpers/amux.js';
import { type AgentName, installAgentClis, prepareAgent, type Recipe } from '../test/agents/clis.js';
import { AgentSession, firstIdleAfter, idleBetween, type Turn } from '../test/agents/drive.js';
import { DECLARING, NOTIFICATIONS } from '../test/agents/recipes.js';

const N = Number(process.env.BENCH_AGENTS_TURNS ?? 5);
const STREAM_MS = Number(process.env.BENCH_AGENTS_STREAM_MS ?? 8000);
const IDLE_S = Number(process.env.BENCH_AGENTS_IDLE_S ?? 60);
const AGENTS = (process.env.BENCH_AGENTS ?? 'claude,codex,gemini').split(',') as AgentName[];
const MODES = (process.env.BENCH_AGENTS_MODES ?? 'evidence,recipe').split(',');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function pct(xs: number[], p: number): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}
const ms = (x: number | null) => (x === null ? '—' : `${Math.round(x)} ms`);

/** The floor: a shell's idle latency after its command ended, by the command's own clock. */
async function floor(h: AmuxHome): Promise<number[]> {
  const dir = mkdtempSync('/tmp/amux-ba-floor-');
  const id = await h.ok(['run', '-n', 'floor']);
  await h.ok(['wait', id, '--until', 'idle', '--timeout', '30s']);
  const out: number[] = [];
  for (let i = 0; i < N; i++) {
    const f = join(dir, `t${i}`);
    const receipt = JSON.parse(await h.ok(['send', id, `sleep 1; date +%s%3N > ${f}`, '--json']));
    const w = JSON.parse(await h.ok(['wait', id, '--until', 'idle', '--after', String(receipt.eventId), '--timeout', '30s', '--json']))[0];
    out.push(Date.parse(w.event.createdAt) - Number(readFileSync(f, 'utf8').trim()));
  }
  await h.ok(['kill', id]);
  rmSync(dir, { recursive: true, force: true });
  return out;
}

interface Result {
  agent: string;
  mode: string;
  wrongIdle: { stream: number; tool: number; of: number; earliestMs: number[] };
  latency: number[];
  submitted: number;
  sends: number;
  attention: number[];
  noAttention: number;
  flips: string[];
  error?: string;
}

async function bench(agent: AgentName, mode: string, recipe: Recipe): Promise<Result> {
  const r: Result = { agent, mode, wrongIdle: { stream: 0, tool: 0, of: N, earliestMs: [] }, latency: [], submitted: 0, sends: 0, attention: [], noAttention: 0, flips: [] };
  const h = new AmuxHome();
  const a = await prepareAgent(agent, { streamMs: STREAM_MS }, recipe);
  const s = new AgentSession(h, a);
  try {
    await s.start();
    await s.waitUntil('idle', 0, 20).catch(() => undefined);
    const judge = async (turn: Turn, kind: 'stream' | 'tool') => {
      r.sends++;
      if (turn.submitted) r.submitted++;
      await s.waitUntil(mode === 'recipe' ? 'ready' : 'idle', turn.receipt.eventId, 10);
      const events = await s.events();
      const early = idleBetween(events, turn.receivedAt, turn.end.lastByteAt);
      if (early.length > 0) {
        r.wrongIdle[kind]++;
        r.wrongIdle.earliestMs.push(turn.end.lastByteAt - early[0]!.at);
      }
      const idle = firstIdleAfter(events, turn.end.lastByteAt);
      if (idle && early.length === 0) r.latency.push(idle.at - turn.end.lastByteAt);
    };
    for (let i = 0; i < N; i++) {
      await judge(await s.prompt('stream'), 'stream');
      await judge(await s.prompt('tool'), 'tool');
      const ap = await s.prompt('approve');
      r.sends++;
      if (ap.submitted) r.submitted++;
      const asked = await a.mock.until('asked for approval', () => a.mock.turns.find((t) => t.kind === 'approve' && t.firstByteAt >= ap.receivedAt), 60_000);
      const w = await s.waitUntil('attention', ap.receipt.eventId, 15);
      if (w.code === 0) r.attention.push(Date.parse(w.result.event.createdAt) - asked.lastByteAt);
      else r.noAttention++;
      const done = await s.approve(ap);
      await s.waitUntil(mode === 'recipe' ? 'ready' : 'idle', done.cursor, 10);
    }
    await sleep(3000);
    const from = Date.now();
    await sleep(IDLE_S * 1000);
    r.flips = (await s.events()).filter((e) => e.at >= from && e.type === 'state_changed').map((e) => `${e.data.from}→${e.data.to} (${e.data.reason})`);
  } catch (e) {
    r.error = String((e as Error).message ?? e).split('\n')[0];
  } finally {
    await h.cleanup();
    await a.cleanup();
  }
  return r;
}

async function main(): Promise<void> {
  const why = installAgentClis();
  if (why) throw new Error(why);
  const fh = new AmuxHome();
  const fl = await floor(fh).finally(() => fh.cleanup());
  const floorP50 = pct(fl, 50)!;
  console.log(`floor: a shell's idle after its command ended, p50 ${ms(floorP50)} p90 ${ms(pct(fl, 90))} (${N} runs)`);
  console.log(`turns: ${N} streamed (${STREAM_MS} ms), ${N} tool (sleep 3), ${N} approval per CLI and mode; idle window ${IDLE_S} s\n`);
  const rows: string[][] = [['CLI', 'mode', 'wrong idle (stream/tool)', 'idle latency p50 / p90 (× floor p50)', 'send submitted', 'attention latency p50 / p90', 'flips at idle prompt']];
  for (const agent of AGENTS) {
    for (const mode of MODES) {
      if (mode === 'recipe' && !DECLARING[agent]) continue;
      const r = await bench(agent, mode, mode === 'recipe' ? DECLARING[agent]! : NOTIFICATIONS[agent]!);
      const p50 = pct(r.latency, 50);
      const p90 = pct(r.latency, 90);
      rows.push([
        agent,
        mode,
        `${r.wrongIdle.stream}/${r.wrongIdle.tool} of ${N}/${N}${r.wrongIdle.earliestMs.length ? ` (up to ${Math.max(...r.wrongIdle.earliestMs)} ms early)` : ''}`,
        `${ms(p50)} / ${ms(p90)} (${p50 === null ? '—' : (p50 / floorP50).toFixed(1)}×; n=${r.latency.length})`,
        `${r.submitted} of ${r.sends}`,
        `${ms(pct(r.attention, 50))} / ${ms(pct(r.attention, 90))}${r.noAttention ? `, none in ${r.noAttention}` : ''}`,
        `${r.flips.length} in ${IDLE_S} s${r.flips.length ? `: ${r.flips.slice(0, 3).join(', ')}` : ''}`,
      ]);
      if (r.error) rows[rows.length - 1]!.push(`stopped: ${r.error}`);
      console.log(`| ${rows[rows.length - 1]!.join(' | ')} |`);
    }
  }
  console.log(`\n| ${rows[0]!.join(' | ')} |\n|${rows[0]!.map(() => '---').join('|')}|`);
  for (const row of rows.slice(1)) console.log(`| ${row.join(' | ')} |`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
