import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Client } from '../client/client.js';
import { VERSION } from '../version.js';
import type { ToolContext } from './context.js';
import { findOwnSession } from './own-session.js';
import { resourceError, serveResources } from './resources.js';
import { onRequest } from './rpc.js';
import { Subscriptions } from './subscriptions.js';
import { serveTools } from './toolkit.js';
import { stackTools } from './stack-tools.js';
import { amuxTools } from './tools.js';
import { LineTransport } from './transport.js';

const INSTRUCTIONS = 'amux runs commands and shells as tmux sessions with exact statuses and exit codes. Start with run (or list), '
  + 'wait with a budget (call wait again with the cursor when done is false), read output in pages with read_output, '
  + "type with send (when: 'idle' to wait for a prompt), and run commands with separate streams in a shell session with exec.";

/**
 * The MCP server of `amux mcp` (src/guides/agents.md, ADR 0019): amux's tools and session resources over
 * the typed client. The tools and the resources are fixed, so no list_changed is advertised: an
 * agent lists sessions with `list` (or resources/list) and hears of one session by subscribing.
 */
export function createMcpServer(client: Client, ctx: ToolContext): { server: Server; subscriptions: Subscriptions } {
  const server = new Server(
    { name: 'amux', version: VERSION },
    { capabilities: { tools: { listChanged: false }, resources: { subscribe: true, listChanged: false } }, instructions: INSTRUCTIONS },
  );
  // up's bring-up outlives a call's budget (a later up waits for it), but not the server's client.
  serveTools(server, client, [...amuxTools(ctx), ...stackTools(ctx, () => client.withSignal(ctx.closing))]);
  serveResources(server, client);
  const subscriptions = new Subscriptions(client, (uri) => server.sendResourceUpdated({ uri }));
  onRequest(server, 'resources/subscribe', async (params) => {
    await subscriptions.subscribe(params.uri).catch((err: unknown) => {
      throw resourceError(err);
    });
    return {};
  });
  onRequest(server, 'resources/unsubscribe', async (params) => {
    if (typeof params.uri === 'string') subscriptions.unsubscribe(params.uri);
    return {};
  });
  return { server, subscriptions };
}

/**
 * `amux mcp`: serves on stdin/stdout until its client leaves (src/guides/agents.md: when the client
 * leaves). The end of stdin or a broken stdout closes the transport; every call under way is then
 * aborted, which closes its daemon connections (a held send is not typed), and this returns.
 */
export async function runMcpServer(client: Client): Promise<number> {
  const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  const closing = new AbortController();
  const ownSession = client.remote ? null : findOwnSession();
  const { server, subscriptions } = createMcpServer(client, { ownSession, cwd: process.cwd(), env, closing: closing.signal });
  // No call ends the server (ADR 0019, amended): a rejection that nothing handled is a bug to
  // report on stderr, which MCP clients keep as the server's log, not a reason to drop the client.
  process.on('unhandledRejection', (err) => {
    process.stderr.write(`amux mcp: internal error, serving on: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  });
  const transport = new LineTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(transport);
  await closed;
  closing.abort();
  subscriptions.close();
  return 0;
}
