import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { JobRecord } from '../../core/records.js';
import { exitFile, sessionPaths, startFile } from '../../paths.js';
import type { DaemonContext } from '../context.js';
import { STDIN_FIFO } from './stdin.js';
import { streamDirOf } from './streams.js';

/**
 * What only served to run a job (ADR 0031): its script, the FIFOs and `ready` of a prepared
 * capture (ADR 0026), its stdin FIFO (ADR 0017), its start notice and exit file. Once its end is
 * in its row, none is read again; its capped output (`out.*`, `err.*`) stays until `rm`.
 */
const STREAM_DIR_PLUMBING = ['o.fifo', 'e.fifo', 's.fifo', 'w.fifo', 'ready', STDIN_FIFO];

/** Deletes a finished exec job's plumbing, so that a long-lived shell session does not pile it up. */
export function pruneJobPlumbing(ctx: DaemonContext, j: Pick<JobRecord, 'sessionId' | 'seq'>): void {
  try {
    rmSync(sessionPaths(ctx.paths, j.sessionId).jobScript(j.seq), { force: true });
    const dir = streamDirOf(ctx, j.sessionId, j.seq);
    for (const name of STREAM_DIR_PLUMBING) rmSync(join(dir, name), { force: true });
    rmSync(startFile(ctx.paths, j.sessionId, j.seq), { force: true });
    rmSync(exitFile(ctx.paths, j.sessionId, j.seq), { force: true });
  } catch {
    /* what is left goes with the session's files at rm */
  }
}
