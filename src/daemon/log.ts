import { copyFileSync, fstatSync, ftruncateSync, readlinkSync, writeSync } from 'node:fs';

/** daemon.log is cut at this size: its older half goes to daemon.log.1 (src/guides/configuration.md). */
export const LOG_CAP = 1024 * 1024;

let writing = false;

/**
 * One line to the daemon's log (its stderr: daemon.log when the CLI started it). It never throws
 * and never recurses: a full disk or a closed stderr loses the line, never the daemon (the
 * `uncaughtException` handler logs through here). A daemon.log past LOG_CAP is copied to
 * daemon.log.1 and emptied in place, so that the daemon's own stderr (the same file) goes on
 * into it; on a full disk it is emptied all the same.
 */
export function logLine(msg: string, fd = 2): void {
  if (writing) return;
  writing = true;
  try {
    rotate(fd);
    writeSync(fd, `${new Date().toISOString()} [amuxd ${process.pid}] ${msg}\n`);
  } catch {
    /* lost: nothing to report it to */
  } finally {
    writing = false;
  }
}

function rotate(fd: number): void {
  const st = fstatSync(fd);
  if (!st.isFile() || st.size < LOG_CAP) return;
  try {
    const path = readlinkSync(`/proc/self/fd/${fd}`);
    copyFileSync(path, `${path}.1`);
  } catch {
    /* no room for the copy: the old lines go */
  }
  ftruncateSync(fd, 0);
}

/** Errors of the stderr stream itself (node's own warnings on a full disk) are not the daemon's. */
export function quietStderr(): void {
  process.stderr.on('error', () => undefined);
}
