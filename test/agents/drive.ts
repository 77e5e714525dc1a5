import type { AmuxHome } from '../helpers/amux.js';
import type { Agent } from './clis.js';
import { MARKS, type TurnEnd, type TurnKind } from './mock-api.js';

/**
 * Drives one agent CLI in an amux session and reads what amux says of it (ADR 0051): the tests
 * and scripts/bench-agents.ts share it. Times are Date.now() on this machine, the clock the mock
 * server stamps its bytes with.
 */
export interface AmuxEvent {
  id: number;
  type: string;
  data: any;
  at: number;
}

export interface Receipt {
  delivered: boolean;
  submitted?: boolean;
  eventId: number;
  offset: number;
}

export interface Turn {
  kind: TurnKind;
  /** The mark in its prompt (unique in the session). */
  mark: string;
  /** The `send` receipt. */
  receipt: Receipt;
  /** When `send` returned. */
  sentAt: number;
  /** Whether the mock received the prompt after `send` alone (no extra Enter). */
  submitted: boolean;
  /** When the mock received the prompt's first main request. */
  receivedAt: number;
  /** The answer that ended the turn. */
  end: TurnEnd;
}

/** The keys that approve a CLI's permission dialog once (its first, highlighted choice). */
const APPROVE_KEYS: Record<Agent['name'], string> = { claude: 'Enter', codex: 'y', gemini: 'Enter' };
/**
 * The question on the screen, where a CLI announces its dialog before it draws it: Codex reports
 * `blocked` (OSC 7501, with its OSC 9) 0.7–1.2 s before its approval dialog, and a key sent in
 * between goes to its composer (ADR 0060). The driver answers once the question is shown, as a
 * person reading the screen does.
 */
const QUESTION: Partial<Record<Agent['name'], string>> = { codex: 'Would you like to run' };

export class AgentSession {
  id = '';
  private turnSeq = 0;

  constructor(
    readonly h: AmuxHome,
    readonly agent: Agent,
  ) {}

  /** Starts the CLI in a session and waits until its prompt is drawn (not until amux says idle). */
  async start(name = this.agent.name): Promise<void> {
    const env = Object.entries(this.agent.env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    this.id = await this.h.ok(['run', '-n', name, '-C', this.agent.cwd, ...env, '--', ...this.agent.argv]);
    await this.untilScreen(this.agent.readyText, 'its prompt drawn', 90_000);
  }

  async screen(): Promise<string> {
    return (await this.h.run(['logs', '--screen', this.id])).stdout;
  }

  async untilScreen(re: RegExp, what: string, timeoutMs = 60_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < deadline) {
      last = await this.screen();
      if (re.test(last)) return last;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`${this.agent.name}: never ${what}; screen:\n${last}`);
  }

  /** The session's record over the daemon's socket (no CLI process: cheap enough to sample). */
  async record(): Promise<any> {
    const r = await this.h.api('GET', `/v1/sessions/${this.id}`);
    return r.body?.session ?? r.body;
  }

  async events(): Promise<AmuxEvent[]> {
    const out = (await this.h.ok(['events', this.id])).split('\n').filter(Boolean);
    return out.map((l) => {
      const e = JSON.parse(l);
      return { id: e.id, type: e.type, data: e.data, at: Date.parse(e.createdAt) };
    });
  }

  /**
   * Sends a prompt of `kind` with `amux send` and waits for the mock to receive it. When it has
   * not arrived after `submitWithinMs`, an Enter key is sent (what a person would do) so the
   * phases after it can still be seen; `submitted` then says false.
   */
  async prompt(kind: TurnKind, submitWithinMs = 10_000): Promise<Turn> {
    const mark = `${MARKS[kind]}-${++this.turnSeq}`;
    const r = await this.h.run(['send', this.id, `please ${mark} now`, '--json']);
    if (r.code !== 0) throw new Error(`send exited ${r.code}: ${r.stderr}`);
    const receipt = JSON.parse(r.stdout) as Receipt;
    const sentAt = Date.now();
    const got = () => this.agent.mock.promptsWith(mark)[0];
    let submitted = true;
    try {
      await this.agent.mock.until(`received ${mark}`, got, submitWithinMs);
    } catch {
      submitted = false;
      await this.h.ok(['send', this.id, '--keys', 'Enter']);
      await this.agent.mock.until(`received ${mark} after an extra Enter`, got, 30_000);
    }
    const receivedAt = got()!.at;
    // An approval turn ends only once approved (approve()).
    const end = kind === 'approve' ? null : await this.agent.mock.until(`ended the turn of ${mark}`, () => this.agent.mock.turns.find((t) => t.endsTurn && t.firstByteAt >= receivedAt && t.prompt.includes(mark)), 90_000);
    return { kind, mark, receipt, sentAt, submitted, receivedAt, end: end as TurnEnd };
  }

  /** Completes an approval turn: approves the dialog and waits for the turn to end; `cursor` is the event before the key. */
  async approve(turn: Turn): Promise<Turn & { cursor: number }> {
    const cursor = (await this.events()).at(-1)!.id;
    const question = QUESTION[this.agent.name];
    if (question) {
      const deadline = Date.now() + 30_000;
      while (!(await this.screen()).includes(question)) {
        if (Date.now() > deadline) throw new Error(`${this.agent.name}: its question never showed (${question})`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    await this.h.ok(['send', this.id, '--keys', APPROVE_KEYS[this.agent.name]]);
    const end = await this.agent.mock.until('ended the approval turn', () => this.agent.mock.turns.find((t) => t.endsTurn && t.firstByteAt >= turn.receivedAt && t.prompt.includes(turn.mark)), 60_000);
    return { ...turn, end, cursor };
  }

  /** `amux wait ID --until STATE --after EVENT` (without `--after` when null: a state that holds now answers): the answer and when it came. */
  async waitUntil(state: string, after: number | null, timeoutS = 60): Promise<{ code: number; result: any; at: number }> {
    const cursor = after === null ? [] : ['--after', String(after)];
    const r = await this.h.run(['wait', this.id, '--until', state, ...cursor, '--timeout', `${timeoutS}s`, '--json'], { timeoutMs: (timeoutS + 30) * 1000 });
    const at = Date.now();
    return { code: r.code, result: r.stdout.trim() ? JSON.parse(r.stdout)[0] : null, at };
  }
}

/** `state_changed` events to `idle` (or declarations of ready/waiting) within [from, to). */
export function idleBetween(events: AmuxEvent[], from: number, to: number): AmuxEvent[] {
  return events.filter((e) => e.at >= from && e.at < to && ((e.type === 'state_changed' && e.data?.to === 'idle') || (e.type === 'state_declared' && e.data?.to !== 'working')));
}

/** The first event at or after `from` that says the session is idle: its time, or null. */
export function firstIdleAfter(events: AmuxEvent[], from: number): AmuxEvent | null {
  return events.find((e) => e.at >= from && ((e.type === 'state_changed' && e.data?.to === 'idle') || (e.type === 'state_declared' && e.data?.to === 'ready'))) ?? null;
}
