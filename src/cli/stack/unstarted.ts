import type { Client } from '../../client/client.js';
import { isTerminal } from '../../core/status.js';
import type { SessionView } from '../../protocol/sessions.js';
import type { Step } from './plan.js';

/** Why a session of the stack did not come up: its key and one line of reason. */
export interface Failure {
  service: string;
  reason: string;
}

/**
 * Why a session was left unstarted: the first of its dependencies that failed, or that was itself
 * left unstarted (whose own record then says why), as `run --after` words it (ADR 0033, 0039).
 */
export function unstartedReason(step: Step, failures: readonly Failure[], notStarted: readonly string[]): string {
  for (const dep of Object.keys(step.want.spec.dependsOn)) {
    const f = failures.find((x) => x.service === dep);
    if (f) return `dependency ${dep} ${f.reason}; never started`;
    if (notStarted.includes(dep)) return `dependency ${dep} not started; never started`;
  }
  return 'a dependency did not come up; never started';
}

/**
 * Records the sessions a failed dependency left unstarted (ADR 0039): each is created with its
 * name and labels and never started, `pending` → `failed` at once with reason `dependency failed`
 * and the error saying which dependency and why, so that `ps --stack` shows every session of the
 * file and `down` removes them with the rest. A previous session of the service that still runs
 * stays as it is (it was not replaced); one that ended gives way to the record.
 */
export async function recordUnstarted(
  client: Client, steps: ReadonlyMap<string, Step>, failures: readonly Failure[], notStarted: readonly string[], note: (line: string) => void,
): Promise<Map<string, SessionView>> {
  const out = new Map<string, SessionView>();
  for (const key of notStarted) {
    const step = steps.get(key)!;
    if (step.kind === 'replace' && !isTerminal(step.session.status)) continue;
    const why = unstartedReason(step, failures, notStarted);
    try {
      if (step.kind !== 'create') await client.sessions.remove(step.session.id, { force: true });
      const s = await client.sessions.create({ ...step.want.request, dependencyFailed: why });
      out.set(key, s);
      note(`${key} not started: ${why.replace(/; never started$/, '')}`);
    } catch (err) {
      note(`${key} not started, and not recorded: ${(err as Error).message}`);
    }
  }
  return out;
}
