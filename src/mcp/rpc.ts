import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Extra } from './wait.js';

/*
 * JSON-RPC errors as amux's MCP server answers them (src/guides/agents.md: errors): MCP's code and one
 * line. The SDK's McpError puts "MCP error -32602: " before its message, and the client's SDK puts
 * it there again; and a request whose params do not parse is answered -32603 with zod's issues as
 * JSON. Here the message is the line itself, and params are checked by amux (ADR 0053).
 */

/** A JSON-RPC error: `code` (MCP's), the message as it is, and `data`. */
export class RpcError extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message);
  }
}

export const invalidParams = (message: string, data?: unknown) => new RpcError(ErrorCode.InvalidParams, message, data);

type Params = Record<string, unknown>;

/**
 * Handles `method`, its params checked by `handler` (not the SDK's schema): missing params are
 * `{}`, and params that are not an object are -32602 with one line.
 */
export function onRequest(server: Server, method: string, handler: (params: Params, extra: Extra) => Promise<object> | object): void {
  const schema = z.object({ method: z.literal(method), params: z.unknown().optional() });
  // Protocol's own registration: Server's wrapper for tools/call parses params with the SDK's schema first.
  const register = Protocol.prototype.setRequestHandler as (this: Server, s: typeof schema, h: (r: z.output<typeof schema>, e: Extra) => Promise<object>) => void;
  register.call(server, schema, async (req, extra) => {
    const params = req.params ?? {};
    if (typeof params !== 'object' || params === null || Array.isArray(params)) throw invalidParams(`${method}: params must be an object, not ${kindOf(params)}`);
    return handler(params as Params, extra);
  });
}

/** What a JSON value is, in a message: null, an array, a string, … */
export function kindOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

