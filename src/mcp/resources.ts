import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, type Resource } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '../client/client.js';
import { isTerminal } from '../core/status.js';
import { toAmuxError } from '../errors.js';
import { invalidParams, kindOf, onRequest, RpcError } from './rpc.js';

/*
 * amux's MCP resources (src/guides/agents.md): `amux://sessions/{id}`, a session's record, and
 * `amux://sessions/{id}/screen`, what its terminal shows. Errors are JSON-RPC errors with MCP's
 * codes: -32602 for a URI that is not one of these, -32002 for a session that does not exist;
 * `data.code` is the amux code.
 */

/** MCP's "resource not found" (the specification's Resources, Error Handling). */
export const RESOURCE_NOT_FOUND = -32002;

const SESSION_URI = /^amux:\/\/sessions\/([^/]+)(\/screen)?$/;

/** The session a resource URI names, and whether it is the screen; a bad URI is an invalid-params error. */
export function sessionOfUri(uri: unknown): { ref: string; screen: boolean } {
  if (typeof uri !== 'string') throw invalidParams(`params.uri must be a resource URI (amux://sessions/{id}), not ${kindOf(uri)}`);
  const m = SESSION_URI.exec(uri);
  if (!m) throw invalidParams(`not an amux resource: ${uri} (use amux://sessions/{id} or amux://sessions/{id}/screen)`);
  let ref: string;
  try {
    ref = decodeURIComponent(m[1]!);
  } catch {
    throw invalidParams(`not an amux resource: ${uri} (a malformed %-escape)`);
  }
  return { ref, screen: m[2] !== undefined };
}

/** An amux error as the JSON-RPC error of a resource request. */
export function resourceError(err: unknown): RpcError {
  if (err instanceof RpcError) return err;
  const e = toAmuxError(err);
  const code = e.code === 'session_not_found' || e.code === 'not_found' ? RESOURCE_NOT_FOUND
    : e.exitCode === 2 || e.code === 'ambiguous_id' || e.code === 'invalid_state' ? ErrorCode.InvalidParams : ErrorCode.InternalError;
  return new RpcError(code, e.message, { code: e.code });
}

async function mapped<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw resourceError(err);
  }
}

/** Answers resources/list, resources/templates/list and resources/read; `client` makes the requests. */
export function serveResources(server: Server, client: Client): void {
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      {
        uriTemplate: 'amux://sessions/{id}', name: 'session', title: 'amux session', mimeType: 'application/json',
        description: "A session's record: status, reason, exit code, times, output size. Subscribe to hear of status changes.",
      },
      { uriTemplate: 'amux://sessions/{id}/screen', name: 'screen', title: 'amux session screen', mimeType: 'text/plain', description: "What a live session's terminal shows now." },
    ],
  }));
  server.setRequestHandler(ListResourcesRequestSchema, (_req, extra) => mapped(async () => {
    const sessions = await client.withSignal(extra.signal).sessions.list();
    const resources: Resource[] = [];
    for (const s of sessions) {
      const name = s.name ?? s.id;
      resources.push({ uri: `amux://sessions/${s.id}`, name, title: `${name} (${s.status})`, mimeType: 'application/json' });
      if (!isTerminal(s.status) && s.status !== 'pending') resources.push({ uri: `amux://sessions/${s.id}/screen`, name: `${name} screen`, mimeType: 'text/plain' });
    }
    return { resources };
  }));
  onRequest(server, 'resources/read', (params, extra) => mapped(async () => {
    const { ref, screen } = sessionOfUri(params.uri);
    const uri = params.uri as string;
    const c = client.withSignal(extra.signal);
    if (screen) return { contents: [{ uri, mimeType: 'text/plain', text: (await c.sessions.screen(ref)).screen }] };
    const { session } = await c.sessions.inspect(ref);
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(session, null, 2) }] };
  }));
}
