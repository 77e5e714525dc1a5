import { closeSync, constants, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { isAlive } from '../../process/process-table.js';

/**
 * The capture a session's shell prepares ahead for its next foreground job (ADR 0026):
 * `jobs/next/` with FIFOs `o.fifo` and `e.fifo` that two pipelines read, held open by a helper
 * (the rcfile's `__amux_io_spare`) that a line on `w.fifo` wakes, and `ready` naming the two
 * pipelines once both run.
 */
const NEXT = 'next';
const WAKE = 'w.fifo';

/** A capture being prepared is waited for this long: it is ready ~60 ms after the job before it ended, here. */
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
 * The session ended with a capture prepared and not taken: its helper lets go and its pipelines
 * end. The shell's EXIT trap does the same; this covers a shell that could not run it (SIGKILL).
 */
export function releasePrepared(jobsDir: string): void {
  releaseCapture(join(jobsDir, NEXT));
}

/**
 * Lets a prepared capture in `dir` end (handed to a job that never started, left by its session,
 * or with a pipeline gone): a line on its helper's `w.fifo` wakes it, and with no job attached it
 * lets go of the FIFOs, so that the pipelines read an end of file. Opened non-blocking: where no
 * helper holds it (ENXIO) or there is none, nothing waits to be released.
 */
export function releaseCapture(dir: string): void {
  let fd: number;
  try {
    fd = openSync(join(dir, WAKE), constants.O_WRONLY | constants.O_NONBLOCK);
  } catch {
    return;
  }
  try {
    writeSync(fd, 'x\n');
  } catch {
    /* its buffer is full of earlier wake-ups: it is being woken anyway */
  } finally {
    closeSync(fd);
  }
}
