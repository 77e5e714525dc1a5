/**
 * The multiplexed job stream of the API (src/guides/api.md): frames with docker's 8-byte header (type,
 * three zero bytes, big-endian payload length), then the payload. Types: 0 the job as it started
 * (JSON), 1 stdout bytes, 2 stderr bytes, 3 the job as it ended (JSON, the last frame).
 */
export const FRAME = { start: 0, stdout: 1, stderr: 2, end: 3 } as const;

export interface Frame {
  type: number;
  payload: Buffer;
}

export function encodeFrame(type: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head[0] = type;
  head.writeUInt32BE(payload.length, 4);
  return Buffer.concat([head, payload]);
}

/** Splits a byte stream into frames, whatever the chunk boundaries. */
export class FrameParser {
  private pending: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Frame[] {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const out: Frame[] = [];
    while (this.pending.length >= 8) {
      const len = this.pending.readUInt32BE(4);
      if (this.pending.length < 8 + len) break;
      out.push({ type: this.pending[0]!, payload: this.pending.subarray(8, 8 + len) });
      this.pending = this.pending.subarray(8 + len);
    }
    return out;
  }

  /** Bytes of an incomplete frame left at the end of the stream (0 when it ended cleanly). */
  get leftover(): number {
    return this.pending.length;
  }
}
