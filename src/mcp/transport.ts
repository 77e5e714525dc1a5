import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LineReader, MAX_MESSAGE_BYTES, type Piece } from './lines.js';

/**
 * `amux mcp`'s stdio (src/guides/agents.md, ADR 0019), in place of the SDK's StdioServerTransport, which
 * stops reading for good after a message over its buffer and answers nothing to a line that is not
 * JSON. Here every line gets an answer or is a message: malformed JSON gets -32700, a message that
 * is not JSON-RPC -32600, one over MAX_MESSAGE_BYTES -32600 with the amux code `payload_too_large`,
 * and the server reads on. The end of stdin or a broken stdout closes it, at once.
 */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly reader = new LineReader(MAX_MESSAGE_BYTES);
  private closed = false;
  /** One wait for stdout to drain, shared by every writer held up meanwhile. */
  private drained: Promise<void> | null = null;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onEnd);
    this.output.on('error', this.onEnd);
    this.output.on('close', this.onEnd);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    while (this.drained) await this.drained;
    if (this.closed) return;
    if (this.output.write(`${JSON.stringify(message)}\n`)) return;
    this.drained = new Promise<void>((resolve) => {
      const done = () => {
        this.output.off('drain', done).off('close', done);
        this.drained = null;
        resolve();
      };
      this.output.on('drain', done).on('close', done);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.destroy();
    this.onclose?.();
  }

  private readonly onEnd = (): void => void this.close();

  private readonly onData = (chunk: Buffer | string): void => {
    for (const piece of this.reader.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)) this.onPiece(piece);
  };

  private onPiece(piece: Piece): void {
    if (piece.kind === 'oversize') {
      const mib = MAX_MESSAGE_BYTES / 1024 / 1024;
      return this.answerError(piece.id, ErrorCode.InvalidRequest,
        `message of ${piece.bytes} bytes is over amux mcp's limit of ${mib} MiB; send large input another way (a file the command reads)`,
        { code: 'payload_too_large', limit: MAX_MESSAGE_BYTES });
    }
    if (!piece.text.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(piece.text);
    } catch (err) {
      return this.answerError(null, ErrorCode.ParseError, `Parse error: ${(err as Error).message}`);
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = (value as { id?: unknown } | null)?.id;
      return this.answerError(typeof id === 'string' || typeof id === 'number' ? id : null, ErrorCode.InvalidRequest,
        'Invalid Request: not a JSON-RPC 2.0 message (a request needs jsonrpc "2.0", an id and a method)');
    }
    this.onmessage?.(parsed.data);
  }

  private answerError(id: string | number | null, code: number, message: string, data?: unknown): void {
    // JSON-RPC answers a message whose id is unknown with id null; the SDK's types want a string or number.
    const answer = { jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } } as unknown as JSONRPCMessage;
    this.send(answer).catch(() => undefined);
  }
}
