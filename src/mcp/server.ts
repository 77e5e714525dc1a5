import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Client, Stream } from '../client/client.js';
import { isTerminal } from '../core/status.js';
import type { EventView } from '../protocol/events.js';
import { VERSION } from '../version.js';
import { registerTools, type ToolContext } from './tools.js';

const SESSION_URI = /^amux:\/\/sessions\/([^/]+)(\/screen)?$/;
/** The events that change a session resource: its status, its removal, its attention and declared state (ADR 0034). */
const UPDATES = new Set(['state_changed', 'session_removed', 'attention', 'attention_cleared', 'state_declared', 'declaration_ended']);
/** How long to wait before following the event stream again when the daemon went away. */
const REFOLLOW_MS = 1_000;

/**
 * Subscriptions to session resources (README "Agents"): one follow of the daemon's event stream
 * while anything is subscribed, and `notifications/resources/updated` for each subscribed URI of a
 * session whose status, attention or declared state changed (or that was removed).
 */
class Subscriptions {
  /** Session id → subscribed URIs of it. */
  private readonly bySession = new Map<string, Set<string>>();
  private stream: Stream | null = null;
  /** The follow under way (connecting or connected); null when none. */
  private connecting: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly client: Client,
    private readonly notify: (uri: string) => Promise<void>,
  ) {}

  async subscribe(uri: string): Promise<void> {
    const m = SESSION_URI.exec(uri);
    if (!m) throw new Error(`not an amux resource: ${uri} (use amux://sessions/{id} or amux://sessions/{id}/screen)`);
    const { session } = await this.client.sessions.inspect(decodeURIComponent(m[1]!));
    const uris = this.bySession.get(session.id) ?? new Set<string>();
    uris.add(uri);
    this.bySession.set(session.id, uris);
    await this.follow();
  }

  unsubscribe(uri: string): void {
    for (const [id, uris] of this.bySession) {
      uris.delete(uri);
      if (uris.size === 0) this.bySession.delete(id);
    }
    if (this.bySession.size === 0) this.stop();
  }

  close(): void {
    this.closed = true;
    this.stop();
  }

  private stop(): void {
    this.stream?.destroy();
    this.stream = null;
    this.connecting = null;
  }

  /**
   * Follows new events (those after now: `since` 1 ms) until nothing is subscribed. Resolves once
   * the daemon has the follow, so a change made after a subscription was answered is always heard.
   */
  private follow(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.connecting) return this.connecting;
    const mine: Promise<void> = new Promise<void>((connected) => {
      void (async () => {
        let stream: Stream | null = null;
        try {
          stream = await this.client.events.follow({ since: 1 });
          if (this.connecting === mine) this.stream = stream;
          connected();
          if (this.connecting !== mine || this.bySession.size === 0 || this.closed) return void stream.destroy();
          let pending = '';
          for await (const chunk of stream) {
            pending += chunk.toString('utf8');
            let nl: number;
            while ((nl = pending.indexOf('\n')) >= 0) {
              const line = pending.slice(0, nl);
              pending = pending.slice(nl + 1);
              if (line) await this.onEvent(JSON.parse(line) as EventView);
            }
          }
        } catch {
          /* the daemon went away: followed again below while anything is subscribed */
        } finally {
          connected();
        }
        if (this.connecting !== mine) return; // stopped: a newer follow (if any) is in charge
        this.stream = null;
        this.connecting = null;
        if (this.bySession.size > 0 && !this.closed) setTimeout(() => void this.follow(), REFOLLOW_MS).unref();
      })();
    });
    this.connecting = mine;
    return mine;
  }

  private async onEvent(e: EventView): Promise<void> {
    if (!UPDATES.has(e.type)) return;
    for (const uri of this.bySession.get(e.sessionId) ?? []) await this.notify(uri).catch(() => undefined);
  }
}

/** The MCP server of `amux mcp` (README "Agents"): amux's tools and session resources over the typed client. */
export function createMcpServer(ctx: ToolContext): { server: McpServer; subscriptions: Subscriptions } {
  const server = new McpServer(
    { name: 'amux', version: VERSION },
    {
      capabilities: { resources: { subscribe: true, listChanged: false } },
      instructions: 'amux runs commands and shells as tmux sessions with exact statuses and exit codes. Start with run (or list), '
        + 'wait with a budget (call wait again with the cursor when done is false), read output in pages with read_output, '
        + "type with send (when: 'idle' to wait for a prompt), and run commands with separate streams in a shell session with exec.",
    },
  );
  registerTools(server, ctx);
  const { client } = ctx;

  server.registerResource('session', new ResourceTemplate('amux://sessions/{id}', {
    list: async () => ({
      resources: (await client.sessions.list()).map((s) => ({
        uri: `amux://sessions/${s.id}`, name: s.name ?? s.id, title: `${s.name ?? s.id} (${s.status})`, mimeType: 'application/json',
      })),
    }),
  }), {
    title: 'amux session', description: "A session's record: status, reason, exit code, times, output size. Subscribe to hear of status changes.",
    mimeType: 'application/json',
  }, async (uri, { id }) => {
    const { session } = await client.sessions.inspect(decodeURIComponent(String(id)));
    return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(session, null, 2) }] };
  });

  server.registerResource('screen', new ResourceTemplate('amux://sessions/{id}/screen', {
    list: async () => ({
      resources: (await client.sessions.list()).filter((s) => !isTerminal(s.status) && s.status !== 'pending').map((s) => ({
        uri: `amux://sessions/${s.id}/screen`, name: `${s.name ?? s.id} screen`, mimeType: 'text/plain',
      })),
    }),
  }), {
    title: 'amux session screen', description: "What a live session's terminal shows now.", mimeType: 'text/plain',
  }, async (uri, { id }) => {
    const { screen } = await client.sessions.screen(decodeURIComponent(String(id)));
    return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: screen }] };
  });

  const subscriptions = new Subscriptions(client, (uri) => server.server.sendResourceUpdated({ uri }));
  server.server.setRequestHandler(SubscribeRequestSchema, async (req) => {
    await subscriptions.subscribe(req.params.uri);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
    subscriptions.unsubscribe(req.params.uri);
    return {};
  });
  return { server, subscriptions };
}

/** `amux mcp`: serves on stdin/stdout until the client closes them. */
export async function runMcpServer(client: Client): Promise<number> {
  const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  const { server, subscriptions } = createMcpServer({ client, ownSession: process.env.AMUX_SESSION_ID || null, cwd: process.cwd(), env });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.on('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  subscriptions.close();
  await server.close().catch(() => undefined);
  return 0;
}
