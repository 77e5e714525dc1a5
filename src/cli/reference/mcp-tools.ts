import type { z } from 'zod';
import type { Block, Span } from './doc.js';

/**
 * The MCP tools on `amux mcp`'s page (ADR 0063), from the same definitions the server lists them by
 * (`src/mcp/tools.ts`, `src/mcp/stack-tools.ts`): each tool's description, its arguments, and the
 * fields of its answer that carry a description (`more` and `truncated` of read_output among them).
 */
export function mcpToolBlocks(): Block[] {
  const { amuxTools } = require('../../mcp/tools.js') as typeof import('../../mcp/tools.js');
  const { stackTools } = require('../../mcp/stack-tools.js') as typeof import('../../mcp/stack-tools.js');
  // Only the tools' declarations are read: nothing here runs a tool or talks to a daemon.
  const ctx = { ownSession: null, cwd: '/', env: {}, closing: new AbortController().signal };
  const tools = [...amuxTools(ctx), ...stackTools(ctx, () => { throw new Error('not served'); })];
  const blocks: Block[] = [{ kind: 'heading', level: 2, text: [{ text: 'MCP tools' }] }];
  for (const tool of tools) {
    blocks.push({ kind: 'heading', level: 3, text: [{ text: tool.name }] }, { kind: 'paragraph', text: [{ text: tool.description }] });
    const args = fields(tool.input);
    if (args.length) blocks.push({ kind: 'paragraph', text: [{ text: 'Arguments:' }] }, { kind: 'terms', items: args });
    const answer = fields(tool.output).filter((f) => f.body.length);
    if (answer.length) blocks.push({ kind: 'paragraph', text: [{ text: 'In the answer:' }] }, { kind: 'terms', items: answer });
  }
  return blocks;
}

type Field = { term: Span[]; body: Span[] };

/** The fields of an object schema, nested objects as `a.b`; a field's body is its description (none: empty). */
function fields(schema: z.ZodType, prefix = ''): Field[] {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape;
  if (!shape) return [];
  return Object.entries(shape).flatMap(([name, field]) => {
    let inner = field;
    let description = field.description;
    // Optional, nullable and defaulted fields keep the description on either side of the wrapper.
    while (['optional', 'nullable', 'default'].includes((inner as unknown as { _zod: { def: { type: string } } })._zod.def.type)) {
      inner = (inner as unknown as { unwrap(): z.ZodType }).unwrap();
      description ??= inner.description;
    }
    const own: Field = { term: [{ text: prefix + name, style: 'code' }], body: description ? [{ text: description }] : [] };
    return [own, ...fields(inner, `${prefix}${name}.`)];
  });
}
