import { closeSync, constants, openSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { isAlive } from '../../process/process-table.js';

/**
 * The capture a session's shell prepares ahead for its next foreground job (ADR 0026):
 * `jobs/next/` with FIFOs `o.fifo` and `e.fifo` that two waiting pipelines will read, and `ready`
 * naming those pipelines' pids once both run (the rcfile's `__amux_io_spare`).
 */
const NEXT = 'next';
const FIFOS = ['o.fifo', 'e.fifo'];

/** A capture being prepared is waited for this long: it is ready in ~20–30 ms, a capture opened by the job costs more. */
const WAIT_MS = 100;
/** A `next` directory without `ready` this old was left by a preparation that failed. */
const STALE_MS = 5000;

/**
 * Hands the prepared capture to a job: renames `jobs/next` to the job's stream directory `dir`
 * and answers true; false when there is none (the job's shell then opens a capture of its own).
 * One still being prepared is waited for (a job that follows another at once), and with
 * `expected` (the shell ran a foreground job, so it prepares one at its prompt) one not yet begun
 * too; one whose pipelines are gone, or whose preparation failed, is released and removed, so
 * that the shell prepares a new one.
 */
export async function takePrepared(jobsDir: string, dir: string, expected: boolean): Promise<boolean> {
  const next = join(jobsDir, NEXT);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const state = preparedState(next);
    if (state === 'none' && !expected) return false;
    if (state === 'stale') {
      releaseCapture(next);
      rmSync(next, { recursive: true, force: true });
      return false;
    }
    if (state === 'ready') {
      try {
        renameSync(next, dir);
        return true;
      } catch {
        return false;
      }
    }
    if (Date.now() >= deadline) return false;
    await sleep(5);
  }
}

function preparedState(next: string): 'none' | 'preparing' | 'ready' | 'stale' {
  let ready: string;
  try {
    ready = readFileSync(join(next, 'ready'), 'utf8');
  } catch {
    try {
      return Date.now() - statSync(next).mtimeMs > STALE_MS ? 'stale' : 'preparing';
    } catch {
      return 'none';
    }
  }
  const pids = ready.trim().split(' ').map(Number);
  if (pids.length !== 2 || !pids.every((p) => Number.isInteger(p) && p > 0)) return 'preparing'; // being written
  return pids.every(isAlive) ? 'ready' : 'stale';
}

/**
 * The session ended with a capture prepared and not taken: its pipelines end. The shell's EXIT
 * trap does the same; this covers a shell that could not run it (SIGKILL).
 */
export function releasePrepared(jobsDir: string): void {
  releaseCapture(join(jobsDir, NEXT));
}

/**
 * Lets the waiting pipelines of a prepared capture in `dir` end (handed to a job that never
 * started, or left by its session): a writer that opens and closes each FIFO gives the reader
 * waiting to open it an end of file. Nothing happens where no reader waits.
 */
export function releaseCapture(dir: string): void {
  for (const f of FIFOS) {
    try {
      closeSync(openSync(join(dir, f), constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      /* no reader waits (ENXIO), or there is no such FIFO */
    }
  }
}
