/**
 * One agent CLI under amux with every look traced (src/guides/contributing.md: tracing the looks;
 * a tool for finding why a status flipped, never a test): the CLI from the pinned npm install,
 * against the mock API of test/agents/ on 127.0.0.1, with `AMUX_LOOK_TRACE` set for its daemon.
 * It runs TURNS streamed turns (8 s), then watches the idle prompt for IDLE_S seconds, and prints
 * every state change (with its time from the turn's last byte) beside the mock's requests.
 *   AGENT=claude|codex|gemini (claude)  TURNS (1)  IDLE_S (60)  TRACE (/tmp/amux-look-trace.jsonl)
 */
import { rmSync } from 'node:fs';
import { AmuxHome } from '../test/helpers/amux.js';
import { installAgentClis, prepareAgent, type AgentName } from '../test/agents/clis.js';
import { AgentSession } from '../test/agents/drive.js';
import { NOTIFICATIONS } from '../test/agents/recipes.js';

const AGENT = (process.env.AGENT ?? 'claude') as AgentName;
const TURNS = Number(process.env.TURNS ?? 1);
const IDLE_S = Number(process.env.IDLE_S ?? 60);
const TRACE = process.env.TRACE ?? '/tmp/amux-look-trace.jsonl';

async function main(): Promise<void> {
  const why = installAgentClis();
  if (why) throw new Error(why);
  rmSync(TRACE, { force: true });
  const h = new AmuxHome({ AMUX_LOOK_TRACE: TRACE });
  const a = await prepareAgent(AGENT, { streamMs: 8000 }, NOTIFICATIONS[AGENT]!);
  const s = new AgentSession(h, a);
  try {
    await s.start();
    await s.waitUntil('idle', 0, 60).catch(() => undefined);
    const lastBytes: number[] = [];
    for (let i = 0; i < TURNS; i++) {
      const turn = await s.prompt('stream');
      lastBytes.push(turn.end.lastByteAt);
      await s.waitUntil('idle', turn.receipt.eventId, 30);
    }
    const watchFrom = Date.now();
    await new Promise((r) => setTimeout(r, IDLE_S * 1000));
    const since = (at: number) => {
      const last = lastBytes.filter((b) => b <= at + 30_000).map((b) => at - b).sort((x, y) => Math.abs(x) - Math.abs(y))[0];
      return last === undefined ? '' : `(${last >= 0 ? '+' : ''}${last} ms from a turn's last byte)`;
    };
    for (const e of await s.events()) {
      if (e.type !== 'state_changed' && e.type !== 'input_sent' && e.type !== 'state_declared') continue;
      console.log(`${e.at} ${e.at >= watchFrom ? 'idle watch ' : ''}${e.type} ${JSON.stringify(e.data)} ${since(e.at)}`);
    }
    console.log('mock requests:');
    for (const r of a.mock.requests) console.log(`${r.at} ${r.method} ${r.path} ${r.main ? 'main' : 'side'}`);
    console.log(`trace: ${TRACE}`);
  } finally {
    await h.cleanup();
    await a.cleanup();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
