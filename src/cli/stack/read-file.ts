import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { AmuxError } from '../../errors.js';

/** The largest stack file or env_file read (src/guides/stacks.md): far above any real one. */
export const MAX_STACK_FILE_BYTES = 1024 * 1024;

/**
 * The text of a stack file or an env_file, read only when it is a regular file of at most
 * MAX_STACK_FILE_BYTES: a link to /dev/zero or a FIFO is refused (exit 2), never read for ever or
 * waited on. Opened non-blocking (a FIFO's open does not wait for a writer), then checked.
 */
export function readStackText(path: string, shown: string): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (err) {
    throw new AmuxError('usage', `cannot read ${shown} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new AmuxError('usage', `cannot read ${shown}: not a regular file; give the path of a file`);
    if (st.size > MAX_STACK_FILE_BYTES) throw new AmuxError('usage', `cannot read ${shown}: ${st.size} bytes, over the ${MAX_STACK_FILE_BYTES / 1024 / 1024} MiB a stack file may have`);
    // Read to its end, but never past the limit (a file that grows meanwhile is cut there, and refused).
    const buf = Buffer.alloc(MAX_STACK_FILE_BYTES + 1);
    let got = 0;
    for (let n = -1; n !== 0 && got < buf.length; got += n) n = readSync(fd, buf, got, buf.length - got, null);
    if (got > MAX_STACK_FILE_BYTES) throw new AmuxError('usage', `cannot read ${shown}: over the ${MAX_STACK_FILE_BYTES / 1024 / 1024} MiB a stack file may have`);
    return buf.toString('utf8', 0, got);
  } catch (err) {
    if (err instanceof AmuxError) throw err;
    throw new AmuxError('usage', `cannot read ${shown} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  } finally {
    closeSync(fd);
  }
}
