import { closeSync, constants, fstatSync, openSync, readSync, renameSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { keptMarks, markLine, parseMark, type Mark } from '../../core/log-times.js';
import { sessionPaths } from '../../paths.js';
import type { DaemonContext } from '../context.js';
import { sessionsIn } from '../../store/snapshot.js';
import { logBytes } from './log-size.js';
import { logExtent } from './log-files.js';

/** A mark at most this often per session while output flows (src/guides/sessions.md: logs --since). */
const MARK_EVERY_MS = 1000;
/** The marks file is trimmed when it passes this size (about 30,000 marks)... */
const TRIM_AT_BYTES = 768 * 1024;
/** ...to at most this many marks: of the chunks still on disk, the older ones thinned (src/guides/sessions.md: logs). */
const KEEP_MARKS = 15_000;
/** Its size is looked at once per this many marks written (and at the first of a daemon). */
const CHECK_EVERY = 500;
/** Read from the end in blocks of this size, until the marks a read needs are in. */
const BLOCK = 64 * 1024;

const FILE = 'log-times';
const last = new WeakMap<DaemonContext, Map<string, { bytes: number; at: number; written: number }>>();

function marksFile(ctx: DaemonContext, id: string): string {
  return join(sessionPaths(ctx.paths, id).dir, FILE);
}

/**
 * Notes that session `id`'s log holds `bytes` now: a mark when it grew and the last mark is at
 * least a second old (`force`: whenever it grew, at the session's end). A mark that cannot be
 * written (a full disk) is skipped: times are a help, never a reason to fail. Now and then the
 * file is trimmed: marks go with the chunks they describe.
 */
export function markLog(ctx: DaemonContext, id: string, bytes: number, now = Date.now(), force = false): void {
  let seen = last.get(ctx);
  if (!seen) last.set(ctx, (seen = new Map()));
  const prev = seen.get(id);
  if (prev && (bytes <= prev.bytes || (!force && now - prev.at < MARK_EVERY_MS))) return;
  if (!prev && bytes === 0) return;
  const written = (prev?.written ?? CHECK_EVERY - 1) + 1;
  seen.set(id, { bytes, at: now, written: written >= CHECK_EVERY ? 0 : written });
  let fd: number | null = null;
  try {
    fd = openSync(marksFile(ctx, id), constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
    writeSync(fd, markLine(bytes, now));
    if (written >= CHECK_EVERY && fstatSync(fd).size > TRIM_AT_BYTES) trimMarks(ctx, id);
  } catch {
    /* the session's directory is gone (removed), or the disk is full */
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** Rewrites the marks file with the marks worth keeping (written beside it, then renamed over it). */
function trimMarks(ctx: DaemonContext, id: string): void {
  const s = ctx.store.getSession(id);
  if (!s) return;
  const file = marksFile(ctx, id);
  const first = logExtent(sessionPaths(ctx.paths, id).logDir, s.logChunkBytes).first;
  const kept = keptMarks(readMarks(ctx, id), first, KEEP_MARKS);
  const temp = `${file}.trim`;
  writeFileSync(temp, kept.map(([o, at]) => markLine(o, at)).join(''), { mode: 0o600, flag: 'w' });
  renameSync(temp, file);
}

/** Forgets what was noted of a session (removed). */
export function forgetMarks(ctx: DaemonContext, id: string): void {
  last.get(ctx)?.delete(id);
}

/**
 * The marks of a session's log, oldest first; none for a session without output or files. Read
 * from the end, newest first, until `enough` holds for a mark (that one included): a read near
 * the present costs what it needs, however long the file (one written before it was trimmed).
 */
export function readMarks(ctx: DaemonContext, id: string, enough: (m: Mark) => boolean = () => false): Mark[] {
  const newest: Mark[] = [];
  let fd: number | null = null;
  try {
    const file = marksFile(ctx, id);
    if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return [];
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    let pos = fstatSync(fd).size;
    let carry = '';
    const buf = Buffer.alloc(BLOCK);
    while (pos > 0) {
      const n = Math.min(BLOCK, pos);
      pos -= n;
      const got = readSync(fd, buf, 0, n, pos);
      const lines = (buf.toString('latin1', 0, got) + carry).split('\n');
      carry = pos > 0 ? lines.shift()! : ''; // a line cut by the block's start: read with the next block
      for (let i = lines.length - 1; i >= 0; i--) {
        const m = parseMark(lines[i]!);
        if (!m) continue;
        newest.push(m);
        if (enough(m)) return newest.reverse();
      }
    }
    return newest.reverse();
  } catch {
    return newest.reverse();
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** Once a second: a mark for each working session whose log grew (one or two stat calls each). */
export function startLogClock(ctx: DaemonContext): () => void {
  const timer = setInterval(() => {
    const now = Date.now();
    for (const s of sessionsIn(ctx.store, ['working'])) {
      try {
        markLog(ctx, s.id, logBytes(ctx, s), now);
      } catch {
        /* its files went meanwhile */
      }
    }
  }, MARK_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
