import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A mock model API on 127.0.0.1 (ADR 0051): each agent CLI under test is pointed at one. A turn is
 * chosen by a word in the person's prompt (MARKS): STREAM (a slow answer), TOOL (a shell command that
 * runs a few seconds, allowed without asking by the CLI's config), APPROVE (a shell command the
 * CLI must ask a person about). After a tool's result comes back the turn ends with a short text.
 * Every request is recorded, and each turn's end: when the last byte of the answer that ended it
 * was written (tests and the benchmark measure amux against that).
 */
export type TurnKind = 'stream' | 'tool' | 'approve';

/** The words in a prompt that choose its turn. */
export const MARKS: Record<TurnKind, string> = { stream: 'AMUX-STREAM', tool: 'AMUX-TOOL', approve: 'AMUX-APPROVE' };

export interface MockOptions {
  /** How long a STREAM answer takes from its first to its last byte (ms). */
  streamMs: number;
  /** The command of a TOOL turn (runs without approval). */
  toolCommand: string;
  /** The command of an APPROVE turn (the CLI asks before running it). */
  approvalCommand: string;
}

export interface RecordedRequest {
  at: number;
  method: string;
  path: string;
  body: any;
  /** A request of the agent's main loop (it offers tools), not a side call (titles, token counts). */
  main: boolean;
  /** The newest user text in it, when it is a main request. */
  prompt: string | null;
}

export interface TurnEnd {
  kind: TurnKind | 'text' | 'after tool';
  prompt: string;
  /** When the first byte of the answer was written (Date.now()). */
  firstByteAt: number;
  /** When the last byte was written and the response ended. */
  lastByteAt: number;
  /** Whether the answer ended the agent's turn (a text answer, not a tool call). */
  endsTurn: boolean;
}

/** What a dialect writes: events, one at a time, spaced by the mock. */
export interface Reply {
  /** The HTTP status and content type; body parts written in order, each after its delay. */
  contentType: string;
  parts: { delayMs: number; data: string }[];
}

/** One API's wire format. */
export interface Dialect {
  /** Whether this request belongs to the agent's main loop. */
  isMain(path: string, body: any): boolean;
  /** The newest user text in a main request's body. */
  lastUserText(body: any): string | null;
  /** The ids of every tool result in the request (one not answered yet continues its turn). */
  toolResults(body: any): string[];
  /** Text spread over `chunks` parts (a streamed answer), ending the turn. */
  text(path: string, body: any, chunks: string[], delayMs: number): Reply;
  /** A call to the CLI's shell tool with `command`. */
  shell(path: string, body: any, command: string, seq: number): Reply;
  /** A side request (title, token count, classifier): answered at once. */
  side(path: string, body: any): Reply;
}

export class MockApi {
  readonly requests: RecordedRequest[] = [];
  readonly turns: TurnEnd[] = [];
  private server: Server | null = null;
  private seq = 0;
  /** Tool results already answered (a CLI may send one again beside the next prompt). */
  private readonly answered = new Set<string>();
  port = 0;

  constructor(
    private readonly dialect: Dialect,
    readonly options: MockOptions,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async close(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  /** Main requests whose newest user text holds `needle`. */
  promptsWith(needle: string): RecordedRequest[] {
    return this.requests.filter((r) => r.main && r.prompt?.includes(needle));
  }

  /** The turn end after `at`: the first answer ending a turn whose first byte came after `at`. */
  turnEndAfter(at: number): TurnEnd | undefined {
    return this.turns.find((t) => t.endsTurn && t.firstByteAt >= at);
  }

  /** Polls until `predicate` holds (a bound, not a timed assertion). */
  async until<T>(what: string, predicate: () => T | undefined | null | false, timeoutMs = 60_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = predicate();
      if (v) return v;
      if (Date.now() > deadline) throw new Error(`mock API: never ${what}; requests: ${this.requests.map((r) => `${r.path} ${r.main ? `main ${JSON.stringify(r.prompt)}` : 'side'}`).join(' | ')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: any = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    const path = req.url ?? '/';
    const main = req.method === 'POST' && this.dialect.isMain(path, body);
    const prompt = main ? this.dialect.lastUserText(body) : null;
    this.requests.push({ at: Date.now(), method: req.method ?? 'GET', path, body, main, prompt });
    if (req.method !== 'POST') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    const { reply, kind, endsTurn } = this.decide(path, body, main, prompt ?? '');
    const firstByteAt = Date.now();
    res.writeHead(200, { 'content-type': reply.contentType, 'cache-control': 'no-cache' });
    for (const part of reply.parts) {
      if (part.delayMs > 0) await new Promise((r) => setTimeout(r, part.delayMs));
      if (res.destroyed) return;
      res.write(part.data);
    }
    await new Promise<void>((resolve) => res.end(resolve));
    if (main) this.turns.push({ kind, prompt: prompt ?? '', firstByteAt, lastByteAt: Date.now(), endsTurn });
  }

  private decide(path: string, body: any, main: boolean, prompt: string): { reply: Reply; kind: TurnEnd['kind']; endsTurn: boolean } {
    if (!main) return { reply: this.dialect.side(path, body), kind: 'text', endsTurn: false };
    const seq = ++this.seq;
    const results = this.dialect.toolResults(body).filter((id) => !this.answered.has(id));
    for (const id of results) this.answered.add(id);
    if (results.length > 0) {
      return { reply: this.dialect.text(path, body, [`The command finished. `, `MOCK-END-${seq}`], 100), kind: 'after tool', endsTurn: true };
    }
    // The newest mark decides: a CLI may send an earlier prompt again in the same message.
    const kind = (Object.keys(MARKS) as TurnKind[]).map((k) => ({ k, at: prompt.lastIndexOf(MARKS[k]) })).sort((a, b) => b.at - a.at)[0]!;
    if (kind.at >= 0 && kind.k === 'tool') return { reply: this.dialect.shell(path, body, this.options.toolCommand, seq), kind: 'tool', endsTurn: false };
    if (kind.at >= 0 && kind.k === 'approve') return { reply: this.dialect.shell(path, body, this.options.approvalCommand, seq), kind: 'approve', endsTurn: false };
    if (kind.at >= 0 && kind.k === 'stream') {
      const n = 20;
      const words = Array.from({ length: n }, (_, i) => `word${i + 1} `);
      words.push(`MOCK-END-${seq}`);
      return { reply: this.dialect.text(path, body, words, Math.round(this.options.streamMs / n)), kind: 'stream', endsTurn: true };
    }
    return { reply: this.dialect.text(path, body, [`Hello. `, `MOCK-END-${seq}`], 20), kind: 'text', endsTurn: true };
  }
}

/** One SSE event's text. */
export function sse(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
}
