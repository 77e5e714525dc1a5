import { z } from 'zod';
import type { Client } from '../client/client.js';
import { bringUp, type UpResult } from '../cli/stack/bring-up.js';
import { prepareStack } from '../cli/stack/prepare.js';
import { stackOf } from '../cli/stack/load.js';
import { STACK_LABEL } from '../cli/stack/spec.js';
import { stopSessions } from '../cli/stack/stop.js';
import { AmuxError } from '../errors.js';
import type { SessionView } from '../protocol/sessions.js';
import { brief, type ToolContext } from './context.js';
import { sessionOut } from './schemas.js';
import { defineTool, type ToolSpec } from './toolkit.js';
import { DEFAULT_BUDGET_MS, MAX_BUDGET_MS, withProgress } from './wait.js';

type State = 'waiting' | 'started' | 'ready' | 'failed' | 'not started';
const STATES = ['waiting', 'started', 'ready', 'failed', 'not started'] as const;

/** One bring-up of a stack under way in this server, and what each of its sessions has got to. */
interface Run {
  states: Map<string, { state: State; session: SessionView | null; reason: string | null }>;
  done: Promise<UpResult>;
  result: UpResult | null;
}

const destructive = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };

/**
 * The tools `up` and `down` (src/guides/stacks.md, src/guides/agents.md): `amux up -d` and `amux down` for agents.
 * `up` answers within its budget with each session's state; a bring-up that outlives the budget
 * goes on in this server (with the server's own client, not the call's, so a call's end does not
 * cut it), and a later `up` of the same stack waits for it instead of starting anew.
 */
export function stackTools(ctx: ToolContext, serverClient: () => Client): ToolSpec[] {
  const runs = new Map<string, Run>();
  return [
    defineTool({
      name: 'up',
      title: 'Bring a stack up',
      description: 'Start the sessions of an amux.yaml (or amux.yml, or Procfile) in dependency order, each once its dependencies are started, ready or completed; '
        + 'again, only what changed is replaced. Answers when every session is ready or one failed, or when budgetMs runs out (done: false: call up again to see).',
      input: z.strictObject({
        file: z.string().optional().describe("the stack file (default: amux.yaml, amux.yml or Procfile in this server's directory)"),
        project: z.string().optional().describe("the stack's name (default: the file's directory's name)"),
        sessions: z.array(z.string()).optional().describe('only these sessions (and what they depend on)'),
        budgetMs: z.number().int().min(0).max(MAX_BUDGET_MS).optional().describe(`the longest this call may block, in ms (default ${DEFAULT_BUDGET_MS})`),
      }),
      output: z.object({
        stack: z.string(), done: z.boolean(), ok: z.boolean(),
        failure: z.looseObject({ service: z.string(), reason: z.string() }).nullable(),
        sessions: z.array(z.object({ key: z.string(), state: z.enum(STATES), reason: z.string().nullable(), session: sessionOut.nullable() })),
      }),
      annotations: destructive,
      async run(a, { client: callClient, extra }) {
        const client = serverClient();
        const p = await prepareStack(client, { cwd: ctx.cwd, file: a.file, project: a.project, services: a.sessions ?? [], env: ctx.env, umask: process.umask() });
        let run = runs.get(p.name);
        if (!run || run.result) {
          const states: Run['states'] = new Map(p.keys.map((k) => [k, { state: 'waiting' as State, session: null, reason: null }]));
          const probed = new Set(p.plan.steps.filter((s) => s.want.spec.ready).map((s) => s.want.spec.key));
          const started = (key: string, s: SessionView) => states.set(key, { state: probed.has(key) ? 'started' : 'ready', session: s, reason: null });
          const ready = (key: string, s: SessionView) => states.set(key, { state: 'ready', session: s, reason: null });
          const r: Run = { states, result: null, done: bringUp(client, p.plan, p.here, { note: () => {}, started, ready }) };
          r.done.then((result) => {
            r.result = result;
            if (result.failure) states.set(result.failure.service, { ...states.get(result.failure.service)!, state: 'failed', reason: result.failure.reason });
            for (const k of result.notStarted) {
              // Its record (failed, never started; ADR 0039) carries the reason, naming the dependency.
              const rec = result.unstarted.get(k) ?? null;
              states.set(k, { state: 'not started', session: rec, reason: rec?.error ?? `${result.failure?.service} did not come up` });
            }
          }, () => undefined);
          runs.set(p.name, r);
          run = r;
        }
        const budget = a.budgetMs ?? DEFAULT_BUDGET_MS;
        let timer: NodeJS.Timeout | undefined;
        const waited = Promise.race([run.done.catch(() => undefined), new Promise((r) => (timer = setTimeout(r, budget)))]);
        await withProgress(extra, budget, `bringing up stack ${p.name}`, waited);
        clearTimeout(timer);
        // Each session as it is now, not as it was when it started (a migration has completed since).
        const now = new Map((await callClient.sessions.list({ label: [`${STACK_LABEL}=${p.name}`], all: true })).map((s) => [s.id, s]));
        const sessions = [...run.states].map(([key, v]) => {
          const session = v.session && (now.get(v.session.id) ?? v.session);
          return { key, state: v.state, reason: v.reason, session: session && brief(session) };
        });
        const failure = run.result?.failure ?? null;
        return { stack: p.name, done: run.result !== null, ok: run.result !== null && failure === null, failure, sessions };
      },
    }),

    defineTool({
      name: 'down',
      title: 'Bring a stack down',
      description: 'Stop and remove every session of a stack (label stack=NAME), dependents first. A stack with no session is an error.',
      input: z.strictObject({
        file: z.string().optional().describe("the stack file, whose directory names the stack, as with up (the file is not read)"),
        project: z.string().optional().describe("the stack's name (default: the name of the stack file's directory)"),
      }),
      output: z.object({ stack: z.string(), removed: z.array(z.string()) }),
      annotations: destructive,
      async run(a, { client }) {
        const name = stackOf(ctx.cwd, a.file, a.project);
        const sessions = await client.sessions.list({ label: [`${STACK_LABEL}=${name}`] });
        if (sessions.length === 0) throw new AmuxError('not_found', `no stack '${name}': no session has the label ${STACK_LABEL}=${name} (list shows the sessions; up starts a stack)`);
        const removed: string[] = [];
        await stopSessions(client, sessions, (s) => removed.push(s.name ?? s.id));
        return { stack: name, removed };
      },
    }),
  ];
}
