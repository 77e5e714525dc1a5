import { runtimeOf, type DaemonContext } from '../context.js';
import { logLine } from '../log.js';

/**
 * A problem with one session that no request is waiting to hear of: an `error` event (`amux
 * events`) and a line in the daemon log. The same problem again (at every refresh) is not repeated.
 */
export function reportError(ctx: DaemonContext, id: string, message: string): void {
  const rt = runtimeOf(ctx, id);
  if (rt.lastError === message) return;
  rt.lastError = message;
  logLine(`${id}: ${message}`);
  try {
    ctx.store.addEvent({ sessionId: id, jobId: null, type: 'error', data: { message }, createdAt: Date.now() });
  } catch {
    /* the store itself failed: the log line is all there is */
  }
}
