import { parseJobId } from '../../core/ids.js';
import type { KillReason } from '../../core/job-end.js';
import type { JobRecord } from '../../core/records.js';
import { AmuxError } from '../../errors.js';
import type { DaemonContext } from '../context.js';
import { killJob } from './kill.js';
import { execJob, type JobSpec } from './launch.js';
import { JobState } from './state.js';
import { JobStdin } from './stdin.js';
import { JobStreams } from './streams.js';
import { Turns } from './turns.js';
import { JobWatch } from './watch.js';

/**
 * The jobs of the daemon (ADR 0009), put together: launch (launch.ts) in turns (turns.ts), kill
 * (kill.ts), how they end (watch.ts), their captured streams (streams.ts), the stdin of `exec -i`
 * jobs (stdin.ts), and the in-memory state
 * all of them share, which also finishes a job (state.ts).
 */
export class Jobs {
  readonly state: JobState;
  readonly streams: JobStreams;
  readonly stdin: JobStdin;
  readonly watch: JobWatch;
  private readonly turns = new Turns();

  constructor(private readonly ctx: DaemonContext) {
    this.state = new JobState(ctx);
    this.streams = new JobStreams(ctx);
    this.stdin = new JobStdin(ctx);
    this.watch = new JobWatch(ctx, this.state, this.turns);
  }

  /** Resolves a job id to its record (removed sessions included). */
  get(ref: string): JobRecord {
    const parsed = parseJobId(ref);
    const j = parsed ? this.ctx.store.getJob(ref) : null;
    if (!j) throw new AmuxError('job_not_found', `no such job: ${ref} (see 'amux jobs ${parsed?.sessionId ?? 'ID'}')`);
    return j;
  }

  exec(sessionId: string, spec: JobSpec, abort?: AbortSignal, hold = false): Promise<JobRecord> {
    return execJob({ ctx: this.ctx, state: this.state, turns: this.turns, streams: this.streams, stdin: this.stdin }, sessionId, spec, abort, hold);
  }

  kill(j: JobRecord, signal: NodeJS.Signals, graceMs: number, reason: KillReason = 'kill'): Promise<JobRecord> {
    return killJob(this.ctx, this.state, this.watch, j, signal, graceMs, reason);
  }
}
