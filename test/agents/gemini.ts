import { type Dialect, type Reply } from './mock-api.js';

/** The Gemini API (models/M:streamGenerateContent?alt=sse, generateContent, countTokens), as Gemini CLI calls it. */

const usage = { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 };

function chunk(parts: unknown[], finish: boolean): string {
  const c: any = { candidates: [{ content: { role: 'model', parts }, index: 0, ...(finish ? { finishReason: 'STOP' } : {}) }], usageMetadata: usage, modelVersion: 'gemini-2.5-flash' };
  return `data: ${JSON.stringify(c)}\r\n\r\n`;
}

function stream(parts: unknown[][], delayMs: number): Reply {
  return { contentType: 'text/event-stream', parts: parts.map((p, i) => ({ delayMs: i === 0 ? 0 : delayMs, data: chunk(p, i === parts.length - 1) })) };
}

export const gemini: Dialect = {
  isMain: (path, body) =>
    path.includes(':streamGenerateContent') &&
    Array.isArray(body?.tools) &&
    body.tools.some((t: any) => Array.isArray(t?.functionDeclarations) && t.functionDeclarations.some((f: any) => f?.name === 'run_shell_command')),
  lastUserText(body) {
    const contents: any[] = Array.isArray(body?.contents) ? body.contents : [];
    for (let i = contents.length - 1; i >= 0; i--) {
      if (contents[i]?.role !== 'user' || !Array.isArray(contents[i].parts)) continue;
      const t = contents[i].parts.filter((p: any) => typeof p?.text === 'string').map((p: any) => p.text).join('\n');
      if (t.trim()) return t;
    }
    return null;
  },
  toolResults(body) {
    const contents: any[] = Array.isArray(body?.contents) ? body.contents : [];
    return contents.flatMap((c) => (Array.isArray(c?.parts) ? c.parts : [])).filter((p: any) => p?.functionResponse).map((p: any) => String(p.functionResponse.id ?? p.functionResponse.name));
  },
  text: (_path, _body, chunks, delayMs) => stream(chunks.map((text) => [{ text }]), delayMs),
  shell: (_path, _body, command) => stream([[{ functionCall: { name: 'run_shell_command', args: { command, description: 'Run the command' } } }]], 0),
  side(path) {
    if (path.includes(':countTokens')) return { contentType: 'application/json', parts: [{ delayMs: 0, data: JSON.stringify({ totalTokens: 10 }) }] };
    const text = JSON.stringify({ reasoning: 'mock', next_speaker: 'user', model_choice: 'flash' });
    if (path.includes(':streamGenerateContent')) return stream([[{ text }]], 0);
    return {
      contentType: 'application/json',
      parts: [{ delayMs: 0, data: JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }], usageMetadata: usage }) }],
    };
  },
};
