import { type Dialect, type Reply, sse } from './mock-api.js';

/** OpenAI's Responses API (POST /v1/responses, SSE), as Codex calls it. */

function stream(items: ({ type: 'text'; parts: string[] } | { type: 'call'; name: string; args: unknown; id: string })[], delayMs: number): Reply {
  const parts: Reply['parts'] = [];
  const put = (data: any, d = 0) => parts.push({ delayMs: d, data: sse(data, data.type) });
  const id = `resp_mock${Date.now()}`;
  put({ type: 'response.created', response: { id } });
  items.forEach((it, output_index) => {
    if (it.type === 'text') {
      const item_id = `msg_mock${output_index}`;
      put({ type: 'response.output_item.added', output_index, item: { type: 'message', id: item_id, role: 'assistant', content: [] } });
      for (const delta of it.parts) put({ type: 'response.output_text.delta', item_id, output_index, content_index: 0, delta }, delayMs);
      put({ type: 'response.output_item.done', output_index, item: { type: 'message', id: item_id, role: 'assistant', content: [{ type: 'output_text', text: it.parts.join(''), annotations: [] }] } });
    } else {
      const item = { type: 'function_call', id: `fc_${it.id}`, call_id: it.id, name: it.name, arguments: JSON.stringify(it.args) };
      put({ type: 'response.output_item.added', output_index, item });
      put({ type: 'response.output_item.done', output_index, item });
    }
  });
  put({ type: 'response.completed', response: { id, usage: { input_tokens: 10, input_tokens_details: null, output_tokens: 10, output_tokens_details: null, total_tokens: 20 } } });
  return { contentType: 'text/event-stream', parts };
}

/** The shell tool Codex offered, and its arguments for `command`. */
function shellCall(body: any, command: string): { name: string; args: unknown } {
  const names: string[] = (Array.isArray(body?.tools) ? body.tools : []).map((t: any) => t?.name).filter(Boolean);
  if (names.includes('shell_command')) return { name: 'shell_command', args: { command } };
  if (names.includes('exec_command')) return { name: 'exec_command', args: { cmd: command } };
  return { name: 'shell', args: { command: ['bash', '-lc', command] } };
}

export const openai: Dialect = {
  isMain: (path, body) => path.endsWith('/responses') && Array.isArray(body?.tools) && body.tools.length > 0,
  lastUserText(body) {
    const input: any[] = Array.isArray(body?.input) ? body.input : [];
    for (let i = input.length - 1; i >= 0; i--) {
      const it = input[i];
      if (it?.role !== 'user' || !Array.isArray(it.content)) continue;
      const t = it.content.filter((c: any) => c?.type === 'input_text').map((c: any) => String(c.text)).join('\n');
      if (t.trim() && !t.includes('<environment_context>') && !t.includes('AGENTS.md')) return t;
    }
    return null;
  },
  toolResults: (body) => (Array.isArray(body?.input) ? body.input : []).filter((it: any) => /_output$/.test(String(it?.type ?? ''))).map((it: any) => String(it.call_id)),
  text: (_path, _body, chunks, delayMs) => stream([{ type: 'text', parts: chunks }], delayMs),
  shell(_path, body, command, seq) {
    const { name, args } = shellCall(body, command);
    return stream([{ type: 'call', name, args, id: `call_mock${seq}` }], 0);
  },
  side: (_path, _body) => stream([{ type: 'text', parts: ['Mock title'] }], 0),
};
