import { newScanState, scanAttention } from '../../core/attention-scan.js';
import { outputClears } from '../../core/attention.js';
import type { SessionRecord } from '../../core/records.js';
import { sessionPaths } from '../../paths.js';
import { terminalForeground } from '../../process/process-table.js';
import { runtimeOf, type DaemonContext } from '../context.js';
import { readLog } from '../output/log-files.js';
import { clearAttention, endDeclaration, raiseAttention } from '../session/attention.js';
import { lookForAnnouncements } from './announced-look.js';

/** The most of a session's log one look reads: after a longer absence only the newest bytes are searched. */
export const MAX_SCAN_BYTES = 1024 * 1024;

/**
 * The monitor's look at a live session for "it needs you" (ADR 0034), once per refresh: a
 * declaration whose TTL ran out, or whose program left the terminal, ends; the log's new bytes
 * (from the row's `attentionOffset` to `logEnd`, so the cost is the new bytes only, and a signal
 * written while no daemon ran is found by the next one) raise an attention, or clear one when
 * the program printed again. The same bytes tell what its programs announced (ADR 0049: states,
 * progress, marks; ADR 0050: the window title, kept in the row). Returns the session as it now is.
 */
export function lookForAttention(ctx: DaemonContext, s: SessionRecord, logEnd: number, now: number): SessionRecord {
  if (s.declaredState !== null) {
    if (s.declaredUntil !== null && now >= s.declaredUntil) s = endDeclaration(ctx, s, 'ttl', now);
    else if (s.declaredPgid !== null && s.pid) {
      const fg = terminalForeground(s.pid);
      if (fg !== null && fg !== s.declaredPgid) s = endDeclaration(ctx, s, 'program ended', now);
    }
  }
  if (logEnd <= s.attentionOffset) return lookForAnnouncements(ctx, s, null, 0, now);
  const parser = (runtimeOf(ctx, s.id).attentionScan ??= newScanState());
  let from = s.attentionOffset;
  if (logEnd - from > MAX_SCAN_BYTES) {
    from = logEnd - MAX_SCAN_BYTES;
    Object.assign(parser, newScanState());
  }
  const read = readLog(sessionPaths(ctx.paths, s.id).logDir, s.logChunkBytes, from, logEnd - from);
  if (read.offset > from) Object.assign(parser, newScanState()); // older bytes were dropped (the log's cap)
  const found = scanAttention(read.data, parser);
  s = lookForAnnouncements(ctx, s, found.announced, read.offset, now);
  const title = found.announced.title === undefined ? s.title : found.announced.title || null;
  const offset = { attentionOffset: read.nextOffset, ...(title === s.title ? {} : { title }) };
  const last = found.signals[found.signals.length - 1];
  if (last) return raiseAttention(ctx, s, last, now, offset);
  ctx.store.updateSession(s.id, offset);
  s = { ...s, ...offset };
  return outputClears(s, found.visibleAfter, now) ? clearAttention(ctx, s, 'output', now) : s;
}
