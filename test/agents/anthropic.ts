import { type Dialect, type Reply, sse } from './mock-api.js';

/** Anthropic's Messages API (POST /v1/messages, SSE when `stream`), as Claude Code calls it. */

function userText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.filter((b: any) => b?.type === 'text').map((b: any) => String(b.text)).join('\n');
}

function stream(body: any, blocks: ({ type: 'text'; parts: string[] } | { type: 'tool_use'; id: string; name: string; input: unknown })[], delayMs: number, stop: string): Reply {
  const model = body?.model ?? 'mock';
  if (body?.stream !== true) {
    const content = blocks.map((b) => (b.type === 'text' ? { type: 'text', text: b.parts.join('') } : b));
    const msg = { id: 'msg_mock', type: 'message', role: 'assistant', model, content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 10 } };
    return { contentType: 'application/json', parts: [{ delayMs: 0, data: JSON.stringify(msg) }] };
  }
  const parts: Reply['parts'] = [];
  const put = (event: string, data: unknown, d = 0) => parts.push({ delayMs: d, data: sse(data, event) });
  put('message_start', { type: 'message_start', message: { id: 'msg_mock', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } });
  blocks.forEach((b, index) => {
    if (b.type === 'text') {
      put('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      for (const text of b.parts) put('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text } }, delayMs);
    } else {
      put('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } });
      put('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) } });
    }
    put('content_block_stop', { type: 'content_block_stop', index });
  });
  put('message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 10 } });
  put('message_stop', { type: 'message_stop' });
  return { contentType: 'text/event-stream', parts };
}

export const anthropic: Dialect = {
  isMain: (path, body) => path.startsWith('/v1/messages') && !path.includes('count_tokens') && Array.isArray(body?.tools) && body.tools.some((t: any) => t?.name === 'Bash'),
  lastUserText(body) {
    const msgs: any[] = Array.isArray(body?.messages) ? body.messages : [];
    for (let i = msgs.length - 1; i >= 0; i--) {
      if (msgs[i]?.role !== 'user') continue;
      const t = userText(msgs[i].content);
      if (t.trim()) return t;
    }
    return null;
  },
  toolResults(body) {
    // All of them: Claude Code may put a result beside, or before, the person's next text.
    const msgs: any[] = Array.isArray(body?.messages) ? body.messages : [];
    return msgs.flatMap((m) => (m?.role === 'user' && Array.isArray(m.content) ? m.content : [])).filter((b: any) => b?.type === 'tool_result').map((b: any) => String(b.tool_use_id));
  },
  text: (_path, body, chunks, delayMs) => stream(body, [{ type: 'text', parts: chunks }], delayMs, 'end_turn'),
  shell: (_path, body, command, seq) =>
    stream(body, [{ type: 'text', parts: ['Running it.'] }, { type: 'tool_use', id: `toolu_mock${seq}`, name: 'Bash', input: { command, description: 'Run the command' } }], 0, 'tool_use'),
  side(path, body) {
    if (path.includes('count_tokens')) return { contentType: 'application/json', parts: [{ delayMs: 0, data: '{"input_tokens":10}' }] };
    return stream(body, [{ type: 'text', parts: ['Mock title'] }], 0, 'end_turn');
  },
};
