import { readProc } from './proc-read.js';
import { descendantsOf, processGroup, terminalForeground } from './process-table.js';

/** How long a list of the foreground group's members is used before it is listed again (a member may fork). */
const MEMBERS_MS = 100;

/**
 * What the terminal's foreground group of a session's shell has read (ADR 0047): `rchar` of
 * `/proc/PID/io` for each member (the shell and its descendants in the group that owns the
 * terminal), read many times a second while `send` watches. The members are listed again when the
 * group changes and every MEMBERS_MS. No process is spawned; an unreadable `io` (another user's
 * process) is left out.
 */
export class TerminalReads {
  private group: number | null = null;
  private members: number[] = [];
  private listedAt = 0;

  constructor(private readonly shell: number) {}

  /** The foreground group now, and the bytes each of its members has read so far. */
  read(now = Date.now()): { group: number | null; reads: Map<number, number> } {
    const group = terminalForeground(this.shell);
    if (group !== this.group || now - this.listedAt >= MEMBERS_MS) {
      this.group = group;
      this.listedAt = now;
      this.members = group === null ? [] : group === this.shell ? [this.shell] : descendantsOf(this.shell).filter((p) => processGroup(p) === group);
    }
    const reads = new Map<number, number>();
    for (const pid of this.members) {
      const m = /^rchar: (\d+)/m.exec(readProc(`/proc/${pid}/io`) ?? '');
      if (m) reads.set(pid, Number(m[1]));
    }
    return { group, reads };
  }
}
