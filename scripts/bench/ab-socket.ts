import { request } from 'node:http';

/**
 * A tiny client for the daemon's HTTP API over its Unix socket (src/guides/api.md), written here
 * rather than imported from src/client so that the A/B bench depends on neither tree's source:
 * both trees speak the same API, whatever their src/ layout.
 */

/** Frame types of a job stream (src/guides/api.md: docker's 8-byte header, then the payload). */
const FRAME_END = 3;

interface Frame {
  type: number;
  payload: Buffer;
}

/** Splits a whole stream body into frames; a truncated last frame is an error. */
export function parseFrames(body: Buffer): Frame[] {
  const frames: Frame[] = [];
  let at = 0;
  while (body.length - at >= 8) {
    const len = body.readUInt32BE(at + 4);
    if (body.length - at - 8 < len) break;
    frames.push({ type: body[at]!, payload: body.subarray(at + 8, at + 8 + len) });
    at += 8 + len;
  }
  if (at !== body.length) throw new Error(`job stream ended inside a frame (${body.length - at} bytes left)`);
  return frames;
}

/** One POST with a JSON body; resolves with the status and the whole body once the daemon closed it. */
function post(socketPath: string, path: string, body: unknown): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const payload = Buffer.from(JSON.stringify(body));
    const req = request({
      socketPath, path, method: 'POST', agent: false,
      headers: { 'content-type': 'application/json', 'content-length': payload.length },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * Times one foreground job `true` in session `id`, as job-phase.ts does: `POST …/jobs?stream=1`
 * until the end frame has come and the daemon has closed the connection.
 */
export async function timeStreamedJob(socketPath: string, id: string): Promise<number> {
  const path = `/v1/sessions/${encodeURIComponent(id)}/jobs?stream=1`;
  const t0 = performance.now();
  const res = await post(socketPath, path, { command: 'true' });
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`POST ${path}: HTTP ${res.status}: ${res.body.toString('utf8').trim()}`);
  const end = parseFrames(res.body).find((f) => f.type === FRAME_END);
  const job = end ? (JSON.parse(end.payload.toString('utf8')) as { status?: string; exitCode?: number }) : null;
  if (job?.status !== 'completed' || job.exitCode !== 0) throw new Error(`streamed job did not complete: ${JSON.stringify(job)}`);
  return ms;
}
