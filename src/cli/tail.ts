/** What `--json` keeps of a job's stream or a command's output (`exec`, `run -w`): its newest 1 MiB, as the daemon does. */
const KEEP = 1024 * 1024;

/** The newest KEEP bytes of a stream, as text. */
export class Tail {
  private parts: Buffer[] = [];
  private size = 0;

  push(b: Buffer): void {
    this.parts.push(b);
    this.size += b.length;
    while (this.parts.length > 1 && this.size - this.parts[0]!.length >= KEEP) this.size -= this.parts.shift()!.length;
  }

  bytes(): Buffer {
    const all = Buffer.concat(this.parts);
    return all.subarray(Math.max(0, all.length - KEEP));
  }

  text(): string {
    return this.bytes().toString('utf8');
  }
}
