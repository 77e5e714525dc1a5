import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client } from '../../src/client/client.js';
import { amuxPaths } from '../../src/paths.js';
import type { BenchHome } from './homes.js';
import { run, runOk, sleep, stats, type Stats } from './measure.js';

export interface AgentsResult {
  /** `exec` of `true` through a running `amux mcp` (SDK client over stdio): call to answer. */
  mcpExec: Stats;
  /** `amux exec ID -- true` from the shell, interleaved with the MCP calls. */
  cliExec: Stats;
  /** From the moment a program starts reading the terminal to `amux wait --until idle` (started before) exiting. */
  idleWait: Stats;
}

/**
 * src/guides/agents.md figures, on the daemon of `h`:
 * - an MCP `exec` round trip against the CLI's, `runs` each, interleaved, in one shell session;
 * - `n` sessions run `sleep 1; echo T=<ms>; read x` with `amux wait ID --until idle` spawned right
 *   after the start: latency = the wait's exit (measured here) minus T (stamped by the session).
 */
export async function agentsPhase(h: BenchHome, runs: number, n: number): Promise<AgentsResult> {
  await h.amuxOk('daemon', 'start');
  const shell = (await h.amuxOk('run')).stdout.trim();
  await h.amuxOk('wait', shell, '--until', 'idle');
  const env = Object.fromEntries(Object.entries(h.env).filter((e): e is [string, string] => e[1] !== undefined));
  const mcp = new McpClient({ name: 'amux-bench', version: '1' });
  await mcp.connect(new StdioClientTransport({ command: process.execPath, args: [h.bin, 'mcp'], env, stderr: 'ignore' }));
  const mcpMs: number[] = [];
  const cliMs: number[] = [];
  try {
    const execTrue = async () => {
      const t0 = performance.now();
      const r = await mcp.callTool({ name: 'exec', arguments: { session: shell, command: 'true' } });
      const ms = performance.now() - t0;
      const out = r.structuredContent as { exitCode?: number } | undefined;
      if (r.isError || out?.exitCode !== 0) throw new Error(`MCP exec true failed: ${JSON.stringify(r.content)}`);
      return ms;
    };
    for (let i = 0; i < 3; i++) await execTrue();
    for (let i = 0; i < runs; i++) {
      mcpMs.push(await execTrue());
      cliMs.push((await runOk([h.bin, 'exec', shell, '--', 'true'], h.env)).ms);
    }
  } finally {
    await mcp.close();
  }

  const client = new Client(amuxPaths(h.dir), false);
  const latencies: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = await client.sessions.create({ command: 'sleep 1; echo "T=$(date +%s%3N)"; read x', cwd: '/', env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
    const waited = await run([h.bin, 'wait', s.id, '--until', 'idle', '--timeout', '30s'], h.env);
    if (waited.code !== 0) throw new Error(`amux wait --until idle exited ${waited.code}: ${waited.stderr.trim()}`);
    const chunks: Buffer[] = [];
    for await (const c of await client.sessions.logs(s.id)) chunks.push(c);
    const readAt = Number(/T=(\d+)/.exec(Buffer.concat(chunks).toString('utf8'))?.[1]);
    if (readAt) latencies.push(waited.endedAt - readAt);
    await client.sessions.kill(s.id, { graceMs: 500 });
    await sleep(100);
  }
  return { mcpExec: stats(mcpMs), cliExec: stats(cliMs), idleWait: stats(latencies) };
}
