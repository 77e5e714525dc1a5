import type { Client } from '../../client/client.js';

/** `amux mcp`: the MCP server on stdio (src/guides/agents.md); its SDK is loaded only here. */
export async function mcpCommand(client: Client): Promise<number> {
  const { runMcpServer } = require('../../mcp/server.js') as typeof import('../../mcp/server.js');
  return runMcpServer(client);
}
