import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema, type CallToolResult, type Tool, type ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Client } from '../client/client.js';
import { AmuxError, toAmuxError } from '../errors.js';
import { ERROR_CODES } from '../protocol/errors.js';
import { invalidParams, kindOf, onRequest } from './rpc.js';
import { inMcpWords } from './words.js';
import type { Extra } from './wait.js';

/*
 * How amux's MCP tools are declared and served (src/guides/agents.md, ADR 0019): a strict input schema
 * (an unknown or bad argument is a tool error naming the field, with the amux code), an output
 * schema that every `structuredContent` is checked against, and output text sent once, in a content
 * block of its own.
 */

/** What a tool call acts with: a client whose requests close when the call is cancelled or its client leaves. */
export interface Call {
  client: Client;
  extra: Extra;
  /** Puts output text in a content block of its own and answers where it went (`textIn`). */
  text(text: string): string;
}

export interface ToolSpec<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: Omit<ToolAnnotations, 'title'>;
  /** Answers what `output` describes (checked on every call: API records are interfaces, which zod's types do not take). */
  run(args: z.output<I>, call: Call): Promise<object>;
}

/** A tool with its types tied together. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(spec: ToolSpec<I, O>): ToolSpec {
  return spec as unknown as ToolSpec;
}

/** An amux error as a tool error: its message and code, and the exit code the CLI would give. */
export function toolError(err: unknown): CallToolResult {
  const e = toAmuxError(err);
  const exitCode = ERROR_CODES[e.code].exit;
  const message = inMcpWords(e.message);
  return {
    isError: true,
    content: [{ type: 'text', text: `${message} (amux error ${e.code})` }],
    structuredContent: { error: { code: e.code, message, exitCode } },
  };
}

/** Zod's complaints about a tool's arguments as one line that names each field. */
export function argumentsError(tool: string, error: z.ZodError): AmuxError {
  const what = error.issues.map((i) => {
    if (i.code === 'unrecognized_keys') return `unknown field${i.keys.length > 1 ? 's' : ''} ${i.keys.map((k) => `'${k}'`).join(', ')}`;
    const at = i.path.length ? `'${i.path.join('.')}'` : 'arguments';
    return `${at}: ${i.message}`;
  });
  return new AmuxError('invalid_argument', `invalid arguments for ${tool}: ${what.join('; ')}`);
}

/** What `structuredContent` holds when a call fails (src/guides/agents.md: errors). */
const errorOut = z.strictObject({
  error: z.strictObject({
    code: z.string().describe("amux's error code, e.g. session_not_found, invalid_argument"),
    message: z.string(),
    exitCode: z.number().int().describe('the exit code the amux CLI gives for it'),
  }),
});

function jsonSchema(schema: z.ZodObject, io: 'input' | 'output'): Tool['inputSchema'] {
  return z.toJSONSchema(schema, { target: 'draft-7', io }) as Tool['inputSchema'];
}

/**
 * A tool's output schema: its answer, or the error of a failed call. Clients (the TypeScript SDK's)
 * check an error's `structuredContent` against it too.
 */
function outputSchema(schema: z.ZodObject): Tool['inputSchema'] {
  const { $schema, ...answer } = jsonSchema(schema, 'output') as Record<string, unknown>;
  const { $schema: _, ...error } = jsonSchema(errorOut, 'output') as Record<string, unknown>;
  return { $schema, type: 'object', anyOf: [answer, error] } as Tool['inputSchema'];
}

/** Answers `tools/list` and `tools/call` with `tools`; `client` makes each call's requests. */
export function serveTools(server: Server, client: Client, tools: readonly ToolSpec[]): void {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const listed: Tool[] = tools.map((t) => ({
    name: t.name, title: t.title, description: t.description,
    inputSchema: jsonSchema(t.input, 'input'), outputSchema: outputSchema(t.output),
    annotations: { title: t.title, ...t.annotations },
  }));
  server.registerCapabilities({ tools: {} });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  const names = `the tools are ${[...byName.keys()].join(', ')}`;
  onRequest(server, 'tools/call', async (params, extra) => {
    const { name, arguments: args } = params;
    if (typeof name !== 'string') throw invalidParams(`tools/call needs params.name, the tool to call (${names}), and params.arguments, an object`);
    const tool = byName.get(name);
    if (!tool) throw invalidParams(`no tool '${name}'; ${names}`);
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
      throw invalidParams(`the arguments of ${name} must be an object (or left out), not ${kindOf(args)}`);
    }
    return callTool(tool, args ?? {}, client, extra);
  });
}

async function callTool(tool: ToolSpec, args: unknown, client: Client, extra: Extra): Promise<CallToolResult> {
  const parsed = tool.input.safeParse(args);
  if (!parsed.success) return toolError(argumentsError(tool.name, parsed.error));
  const texts: string[] = [];
  const call: Call = {
    client: client.withSignal(extra.signal),
    extra,
    text: (text) => {
      texts.push(text);
      return `content[${texts.length}]`;
    },
  };
  let result: Record<string, unknown>;
  try {
    result = await tool.run(parsed.data, call) as Record<string, unknown>;
  } catch (err) {
    return toolError(err);
  }
  const checked = tool.output.strict().safeParse(result);
  if (!checked.success) return toolError(new AmuxError('internal', `tool ${tool.name} answered outside its output schema: ${z.prettifyError(checked.error)}`));
  return {
    content: [{ type: 'text', text: JSON.stringify(result, null, 2) }, ...texts.map((text) => ({ type: 'text' as const, text }))],
    structuredContent: result,
  };
}
