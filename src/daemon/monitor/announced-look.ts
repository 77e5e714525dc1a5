import type { Announced } from '../../core/attention-scan.js';
import { currentReport, NO_ANNOUNCEMENTS, reportedState, reportMessage, type Announcements } from '../../core/announced.js';
import { afterMark, type ProgramReport } from '../../core/osc-announce.js';
import type { SessionRecord } from '../../core/records.js';
import { terminalForeground } from '../../process/process-table.js';
import { runtimeOf, type DaemonContext } from '../context.js';
import { declare, endDeclaration } from '../session/attention.js';

/**
 * The monitor's look at what a live session's programs announced (src/guides/statuses.md: announced
 * states; ADR 0049), beside its look for attention and with the same scan of the log's new bytes.
 * What it keeps ends with the program that announced it, as a declaration does (ADR 0034):
 * - a progress bar (OSC 9;4) is kept with the terminal's foreground process group at the look that
 *   found it, and dropped once another group has the terminal;
 * - an OSC 133 mark is kept while a program has the terminal (a shell inside the session runs its
 *   commands in groups of their own), dropped once the session's own shell has it;
 * - an OSC 7501 report is a declaration (`declare`), of the foreground group, unless the session's
 *   shell has the terminal again (the program that wrote it is gone) or the report was written
 *   before the last input (the person answered since); `state=clear` ends one it declared. A look
 *   acts on the newest report of its piece only (ADR 0060).
 * Nothing is kept when the session's shell has the terminal: what its programs announced ended
 * with them.
 */
export function lookForAnnouncements(ctx: DaemonContext, s: SessionRecord, found: Announced | null, start: number, now: number): SessionRecord {
  const rt = runtimeOf(ctx, s.id);
  const a = rt.announced;
  const news = found !== null && (found.progress !== undefined || found.mark !== undefined || found.reports.length > 0);
  if (!news && !a?.progress && !a?.mark) return s;
  const fg = s.pid ? terminalForeground(s.pid) : null;
  const shellHasIt = fg === null || fg === s.pid;
  const kept: Announcements = (rt.announced ??= { ...NO_ANNOUNCEMENTS });
  if (kept.progress && (shellHasIt || fg !== kept.progress.pgid)) kept.progress = null;
  if (kept.mark && shellHasIt) kept.mark = null;
  if (!found || shellHasIt) return s;
  if (found.progress === 'clear') kept.progress = null;
  else if (found.progress) {
    const same = kept.progress?.state === found.progress.state && kept.progress.percent === found.progress.percent;
    kept.progress = { ...found.progress, pgid: fg!, at: same ? kept.progress!.at : now };
  }
  if (found.mark) kept.mark = { ...afterMark(kept.mark, found.mark), at: now };
  if (found.reports.length > 0) rt.reportsState = true;
  const report = currentReport(found.reports, start, kept.inputOffset);
  return report ? applyReport(ctx, s, report, fg!, now) : s;
}

/** One OSC 7501 report: a declaration of its state, or (`clear`) the end of the one it made. */
function applyReport(ctx: DaemonContext, s: SessionRecord, r: ProgramReport, pgid: number, now: number): SessionRecord {
  const state = reportedState(r);
  if (state === null) return s.declaredSource === 'osc7501' ? endDeclaration(ctx, s, 'cleared', now) : s;
  const message = reportMessage(r);
  // The same report again (a program that repeats its state) is no new declaration.
  if (s.declaredSource === 'osc7501' && s.declaredState === state && s.declaredMessage === message && s.declaredPgid === pgid) return s;
  const attention = { source: 'osc7501' as const, title: r.title, message: r.message ?? message };
  return declare(ctx, s, { state, message, ttlMs: null }, { source: 'osc7501', pgid, attention }, now);
}
