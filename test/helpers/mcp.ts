import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { after, before } from 'node:test';
import { BIN, sleep, type AmuxHome } from './amux.js';

/** How many sockets the process holds (its daemon connections, besides none at rest). */
export function sockets(pid: number): number {
  let n = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) n++;
    } catch {
      /* closed meanwhile */
    }
  }
  return n;
}

export async function until(what: string, predicate: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await sleep(100);
  }
}

/** The environment `amux mcp` runs with in tests: the test's, its AMUX_HOME, and `env`. */
export function mcpEnv(h: AmuxHome, env: Record<string, string> = {}): Record<string, string> {
  const base = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && e[0] !== 'NODE_EXTRA_CA_CERTS'));
  return { ...base, AMUX_HOME: h.home, NO_COLOR: '1', ...env };
}

/** `amux mcp` driven by the SDK's own client over stdio (or `command`/`args` that start it), against the test's daemon and tmux. */
export async function connect(h: AmuxHome, env: Record<string, string> = {}, spawnWith?: { command: string; args: string[]; env?: Record<string, string> }): Promise<Client> {
  const transport = new StdioClientTransport({
    command: spawnWith?.command ?? process.execPath, args: spawnWith?.args ?? [BIN, 'mcp'], env: spawnWith?.env ?? mcpEnv(h, env), stderr: 'pipe',
  });
  const client = new Client({ name: 'amux-test', version: '1.0.0' });
  await client.connect(transport);
  // The tools' output schemas are known from here on: the SDK checks every result against them.
  await client.listTools();
  return client;
}

/** A client of `amux mcp` for the tests of a describe block: connected before them (handed to `use`), closed after. */
export function clientFor(h: AmuxHome, use: (c: Client) => void): void {
  let c: Client | undefined;
  before(async () => {
    c = await connect(h);
    use(c);
  });
  after(async () => {
    await c?.close();
  });
}

/** Puts each output text back where its `textIn` points (src/guides/agents.md: the bulk is sent once, in a content block of its own). */
export function withTexts(value: any, content: { type: string; text?: string }[]): any {
  if (Array.isArray(value)) return value.map((v) => withTexts(v, content));
  if (value === null || typeof value !== 'object') return value;
  const out: any = {};
  for (const [k, v] of Object.entries(value)) out[k] = withTexts(v, content);
  const m = typeof value.textIn === 'string' ? /^content\[(\d+)\]$/.exec(value.textIn) : null;
  if (m) out.text = content[Number(m[1])]!.text;
  return out;
}

export async function call(c: Client, name: string, args: Record<string, unknown>, opts: { onprogress?: (p: unknown) => void; signal?: AbortSignal } = {}): Promise<any> {
  const r = await c.callTool({ name, arguments: args }, undefined, { timeout: 120_000, ...opts });
  if (r.isError) throw new Error(`tool ${name} failed: ${JSON.stringify(r.content)}`);
  return withTexts(r.structuredContent, r.content as { type: string; text?: string }[]);
}

/** A tool call that must fail: its text, and its `structuredContent.error`. */
export async function callFailure(c: Client, name: string, args: Record<string, unknown>): Promise<{ text: string; error: { code: string; message: string; exitCode: number } }> {
  const r = await c.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
  assert.equal(r.isError, true, `${name} ${JSON.stringify(args)} should fail: ${JSON.stringify(r.content)}`);
  const error = (r.structuredContent as { error: { code: string; message: string; exitCode: number } } | undefined)?.error;
  assert.ok(error, `a failed ${name} has structuredContent.error: ${JSON.stringify(r)}`);
  return { text: (r.content as { text: string }[])[0]!.text, error };
}

export async function callError(c: Client, name: string, args: Record<string, unknown>): Promise<string> {
  return (await callFailure(c, name, args)).text;
}

/** A shell session started through the MCP server, at its prompt. */
export async function idleShell(c: Client): Promise<string> {
  const shell = await call(c, 'run', {});
  await call(c, 'wait', { ids: [shell.session.id], until: 'idle', budgetMs: 30_000 });
  return shell.session.id as string;
}

/** `amux mcp` spoken to in raw JSON-RPC lines: for what an SDK client never sends (bad JSON, huge lines) and for its stdin closing. */
export class RawMcp {
  readonly child: ChildProcessWithoutNullStreams;
  readonly messages: any[] = [];
  stderr = '';
  private pending = '';
  private waiters: (() => void)[] = [];
  readonly exit: Promise<number | null>;

  constructor(h: AmuxHome, env: Record<string, string> = {}) {
    this.child = spawn(process.execPath, [BIN, 'mcp'], { env: mcpEnv(h, env), stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdin.on('error', () => undefined); // writing after it has exited
    this.child.stderr.on('data', (d: Buffer) => (this.stderr += d.toString('utf8')));
    this.child.stdout.on('data', (d: Buffer) => {
      this.pending += d.toString('utf8');
      let nl: number;
      while ((nl = this.pending.indexOf('\n')) >= 0) {
        const line = this.pending.slice(0, nl);
        this.pending = this.pending.slice(nl + 1);
        if (line.trim()) this.messages.push(JSON.parse(line));
      }
      for (const w of this.waiters.splice(0)) w();
    });
    this.exit = new Promise((resolve) => this.child.on('exit', (code) => {
      resolve(code);
      for (const w of this.waiters.splice(0)) w();
    }));
  }

  write(data: string | Buffer): Promise<void> {
    return new Promise((resolve) => this.child.stdin.write(data, () => resolve()));
  }

  send(message: object): Promise<void> {
    return this.write(`${JSON.stringify(message)}\n`);
  }

  /** The first message (in order of arrival) that `pred` takes; fails when none comes within `timeoutMs` or the server exits. */
  async next(pred: (m: any) => boolean, timeoutMs = 30_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(pred);
      if (found) return found;
      if (this.child.exitCode !== null) throw new Error(`amux mcp exited ${this.child.exitCode} without the message; stderr: ${this.stderr}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no such message within ${timeoutMs} ms; got ${JSON.stringify(this.messages).slice(0, 2000)}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  async request(id: number, method: string, params: object = {}, timeoutMs?: number): Promise<any> {
    await this.send({ jsonrpc: '2.0', id, method, params });
    return this.next((m) => m.id === id, timeoutMs);
  }

  async initialize(): Promise<void> {
    const r = await this.request(0, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
    assert.ok(r.result, JSON.stringify(r));
    await this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  /** The exit code once it has exited, or 'running' when it still runs after `timeoutMs`. */
  async exitWithin(timeoutMs: number): Promise<number | null | 'running'> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'running'>((resolve) => (timer = setTimeout(() => resolve('running'), timeoutMs)));
    try {
      return await Promise.race([this.exit, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}
