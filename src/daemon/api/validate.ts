import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolveCommand } from '../../core/command.js';
import { durationField } from '../../core/duration.js';
import { validateName } from '../../core/ids.js';
import { checkKeys } from '../../core/keys.js';
import { checkLabels } from '../../core/labels.js';
import { parseRestartPolicy, policyText } from '../../core/restart-policy.js';
import { parseUntil } from '../../core/until.js';
import { parseKillSignal } from '../../core/signals.js';
import { isTerminal, type SessionStatus } from '../../core/status.js';
import { AmuxError } from '../../errors.js';
import type { ExecRequest } from '../../protocol/jobs.js';
import type { CreateSessionRequest, DeclareStateRequest, KillRequest, PruneRequest, SendInputRequest } from '../../protocol/sessions.js';
import type { WaitRequest } from '../../protocol/wait.js';
import { DEFAULT_GRACE_MS } from '../../process/terminate.js';
import type { JobSpec } from '../job/launch.js';
import type { Declare } from '../session/attention.js';
import type { SendInput } from '../session/send.js';
import type { SessionSpec } from '../session/create.js';
import type { WaitSpec } from '../session/waiters.js';

/**
 * The environment of a session created without `env` (src/guides/api.md): the standard PATH and the
 * daemon user's HOME, so that a client that sends none still finds the usual programs. Nothing of
 * the daemon's own environment, which is whatever the CLI that started it had.
 */
function defaultEnv(): Record<string, string> {
  return { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: homedir() };
}

/**
 * What a request means, once its shape has passed the route's schema (protocol/schemas.ts, checked
 * by the router): the rules no schema can say (a name's form, a directory that exists, durations,
 * -b without --tty or stdin). Each problem is one clear line with code `invalid_argument`; what passes is a
 * typed spec the engine trusts.
 */

/** A time limit: null when absent, else longer than 0. */
function limit(v: unknown, what: string): number | null {
  const ms = durationField(v, what, -1);
  if (ms === -1) return null;
  if (ms <= 0) throw new AmuxError('invalid_argument', `the ${what} must be longer than 0`);
  return ms;
}

/** The daemon's own environment, less what is amux's own, for `hostEnv` (src/guides/remote.md). */
function hostEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('AMUX_TEST_')) env[k] = v;
  return env;
}

/** `POST /v1/sessions`. */
export function parseCreate(body: unknown): SessionSpec {
  const req = body as CreateSessionRequest;
  const command = resolveCommand(req);
  const name = req.name === undefined ? null : validateName(req.name);
  const cwd = req.cwd ?? (process.env.HOME?.startsWith('/') ? process.env.HOME : '/');
  if (!cwd.startsWith('/')) throw new AmuxError('invalid_argument', 'cwd must be an absolute path');
  let isDir = false;
  try {
    isDir = statSync(cwd).isDirectory();
  } catch {
    /* reported below */
  }
  if (!isDir) throw new AmuxError('invalid_argument', `working directory ${cwd} does not exist or is not a directory`);
  const env = req.hostEnv ? { ...hostEnv(), ...req.env } : (req.env ?? defaultEnv());
  if (Object.values(env).some((v) => v.includes('\0'))) throw new AmuxError('invalid_argument', 'env values must not contain NUL bytes');
  const restart = req.restart === undefined ? null : parseRestartPolicy(req.restart);
  return {
    command, name, cwd, env, umask: req.umask ?? 0o022, autoRemove: req.autoRemove === true,
    timeoutMs: limit(req.timeoutMs, 'timeout'), idleTimeoutMs: limit(req.idleTimeoutMs, 'idle timeout'),
    labels: checkLabels(req.labels ?? {}), restartPolicy: restart && policyText(restart), delayMs: limit(req.delayMs, 'delay'),
    group: req.group ?? null,
    after: req.after ?? [],
    onEnd: req.onEnd ?? null,
    ...(req.dependencyFailed !== undefined ? { dependencyFailed: req.dependencyFailed } : {}),
  };
}

/** `POST /v1/sessions/{ref}/jobs`; a duration text is accepted as `timeout` too. */
export function parseExec(body: unknown): JobSpec {
  const req = body as ExecRequest & { timeout?: number | string };
  const command = resolveCommand(req);
  if (!command) throw new AmuxError('invalid_argument', 'exec needs a command: amux exec ID -- CMD');
  const background = req.background === true;
  const tty = req.tty === true;
  if (background && tty) throw new AmuxError('invalid_argument', '--tty runs a job on the terminal, which only a foreground job has; drop -b or --tty');
  const stdin = req.stdin === true;
  if (stdin && background) throw new AmuxError('invalid_argument', 'stdin is for foreground jobs: a background job reads /dev/null; drop -i (stdin) or -b (background)');
  if (stdin && tty) throw new AmuxError('invalid_argument', "stdin is for captured jobs: a --tty job reads the session's terminal ('amux send'); drop -i (stdin) or --tty");
  return { command, mode: background ? 'background' : tty ? 'tty' : 'foreground', timeoutMs: limit(req.timeoutMs ?? req.timeout, 'timeout'), stdin };
}

/** `POST /v1/sessions/{ref}/input`: text or keys (the schema allows exactly one), and when. */
export function parseInput(body: unknown): SendInput {
  const req = body as SendInputRequest;
  const enter = req.enter !== false;
  const when = req.when ?? 'now';
  if (req.timeoutMs !== undefined && when === 'now') throw new AmuxError('invalid_argument', 'a send timeout is for when: idle or ready (--when); drop it, or hold the input');
  if (req.text?.includes('\0')) throw new AmuxError('invalid_argument', 'send text must not contain NUL bytes, which a terminal cannot take as text; send the key C-@ with --keys');
  const input = req.keys ? { keys: checkKeys(req.keys) } : { text: req.text! };
  return { ...input, enter, when, timeoutMs: limit(req.timeoutMs, 'timeout') };
}

/** `POST /v1/sessions/{ref}/state` (`amux state`, ADR 0034): a message is shown as it is, so it may hold no control character. */
export function parseDeclare(body: unknown): Declare {
  const req = body as DeclareStateRequest;
  const message = req.message === undefined || req.message === '' ? null : req.message;
  if (message !== null && /[\u0000-\u001f\u007f-\u009f]/.test(message)) {
    throw new AmuxError('invalid_argument', 'the message must not contain control characters or escape sequences (newlines, tabs, ESC); give plain text');
  }
  return { state: req.state, message, ttlMs: limit(req.ttlMs, 'ttl'), scope: req.scope ?? 'program' };
}

/** `POST …/kill`: the signal (default TERM) and the grace before SIGKILL (default 5 s). */
export function parseKill(body: unknown): { signal: NodeJS.Signals; graceMs: number } {
  const req = body as KillRequest;
  return { signal: parseKillSignal(req.signal ?? 'TERM') as NodeJS.Signals, graceMs: grace(req.graceMs) };
}

/** A grace before SIGKILL: ms or a duration text; the default when absent. */
export function grace(v: unknown): number {
  return durationField(v, 'grace', DEFAULT_GRACE_MS);
}

/** `POST /v1/wait`: the references and what to wait for (ADR 0018). */
export function parseWait(body: unknown): { refs: string[]; spec: WaitSpec } {
  const req = body as WaitRequest;
  const until = parseUntil(req.until);
  if (req.sinceOffset !== undefined && until.kind !== 'output') {
    throw new AmuxError('invalid_argument', 'sinceOffset is for --until output:REGEX; drop it, or wait for output');
  }
  return {
    refs: req.ids,
    spec: {
      until, after: req.after ?? null, any: req.any === true, sinceOffset: req.sinceOffset ?? null,
      timeoutMs: req.timeoutMs === undefined ? null : durationField(req.timeoutMs, 'timeout', 0),
    },
  };
}

/** `POST /v1/prune`: how long ago a session must have ended (default 0: every finished one). */
export function parsePrune(body: unknown): { olderThanMs: number; statuses: string[] } {
  const req = body as PruneRequest & { olderThan?: number | string };
  const statuses = req.status ?? [];
  const live = statuses.find((s) => !isTerminal(s as SessionStatus));
  if (live) throw new AmuxError('invalid_argument', `prune removes finished sessions only: '${live}' is not a finished status (use completed, failed, stopped, expired or finished)`);
  return { olderThanMs: durationField(req.olderThanMs ?? req.olderThan, 'older-than', 0), statuses };
}
