import { readHeld } from './held-read.js';

/**
 * Whether the processes of a look have been on a CPU since (ADR 0041). A thread's
 * `/proc/PID/task/TID/schedstat` (time run, time waited to run, timeslices) changes exactly when
 * it has run; a thread that has not run cannot have changed its wait, forked, exec'd, exited, or
 * handed the terminal to another group. `/proc/PID/schedstat` is the main thread's alone, so a
 * process with more threads is marked thread by thread; a new thread or child needs its creator
 * to run, so the threads known at the look are enough.
 */
export interface RunMarks {
  /** The schedstat files, each read before anything else the look read of its thread. */
  paths: string[];
  /** Their text then, in the same order. */
  marks: string[];
}

/** An empty set, filled by `addMark` as the look walks the tree. */
export function newMarks(): RunMarks {
  return { paths: [], marks: [] };
}

/**
 * Reads and keeps the mark of the thread at `task` (`/proc/PID` or `/proc/PID/task/TID`); false
 * when it cannot be read (the thread is gone), and then the look cannot be reused.
 */
export function addMark(m: RunMarks, task: string, read: (path: string) => string | null = readHeld): boolean {
  const path = `${task}/schedstat`;
  const text = read(path);
  if (text === null) return false;
  m.paths.push(path);
  m.marks.push(text);
  return true;
}

/**
 * True when no thread of the marks has run since they were read: every file reads the same. A
 * thread gone (unreadable) has changed. Stops at the first difference.
 */
export function unrun(m: RunMarks, read: (path: string) => string | null = readHeld): boolean {
  if (m.paths.length === 0) return false;
  for (let i = 0; i < m.paths.length; i++) if (read(m.paths[i]!) !== m.marks[i]) return false;
  return true;
}

/**
 * True when two looks found the same threads with the same marks: none of them ran in between,
 * though the later look was read afresh (its predecessor too old to stand for it).
 */
export function sameMarks(a: RunMarks | null | undefined, b: RunMarks | null | undefined): boolean {
  if (!a || !b || a.paths.length === 0 || a.paths.length !== b.paths.length) return false;
  for (let i = 0; i < a.paths.length; i++) if (a.paths[i] !== b.paths[i] || a.marks[i] !== b.marks[i]) return false;
  return true;
}

/** The oldest a look may be and still be reused: a bound on what a process outside the tree could change (ADR 0041). */
export const REUSE_MAX_MS = 5_000;

/** The part of a previous look that decides whether it may stand for a new one. */
export interface Reusable {
  shell: number;
  jobRunning: boolean;
  readAt: number;
  marks: RunMarks | null;
}

/**
 * Whether a previous look at `shell` can stand for a new one (pure but for `read`): the same
 * shell, the same "a job of amux runs" (it changes what is read), younger than `standMs`
 * (REUSE_MAX_MS; longer for a session that rests, ADR 0071), and no thread of it has run since.
 */
export function canReuse(
  prev: Reusable | undefined,
  shell: number,
  jobRunning: boolean,
  now: number,
  read: (path: string) => string | null = readHeld,
  standMs = REUSE_MAX_MS,
): boolean {
  if (!prev || !prev.marks || prev.shell !== shell || prev.jobRunning !== jobRunning) return false;
  if (now - prev.readAt >= standMs || now < prev.readAt) return false;
  return unrun(prev.marks, read);
}
